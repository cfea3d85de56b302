import EdgeStore
import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

/// Two `tolt-edge serve` processes on one PostgreSQL database, as two nodes behind a load balancer: racing claims
/// for one user across both give one `claimed`; clicks from both reach the store; a click minted on one node is
/// claimed on the other (one signing key, through the store); an import is redirected by both within 2 s; PostgreSQL
/// stopped and restarted under load on both costs no click and stores none twice.
@Suite struct TwoNodeTests {
    static let standardAndRace = [ConfigFixtures.standard, ClaimConcurrencyTests.config]

    /// Nodes `a` and `b`: `tolt-edge serve` on the database at `url`, each with its data directory in `directory`.
    static func nodes(of url: PostgresURL, in directory: TemporaryDirectory, _ arguments: [String] = []) throws
        -> [ChildServer]
    {
        try ["a", "b"].map { name in
            try ChildServer(
                dataDirectory: directory.path + "/data-\(name)", outputIn: directory.path, label: "node-\(name)",
                arguments: ["--store", url.unmasked] + arguments)
        }
    }

    @Test func twoNodesShareClaimsClicksTheSigningKeyAndTheConfiguration() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let store = PostgresStore(url: url)
        try store.migrate()
        for config in Self.standardAndRace {
            try ConfigImporter.importDocument(try ConfigDocument(json: Array(config.utf8)), into: store)
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let nodes = try Self.nodes(of: url, in: directory, ["--dedupe-window", "0", "--trusted-proxy", "127.0.0.1/32"])
        defer { for node in nodes { node.stop(within: 20) } }

        // 30 claims for one user, alternating between the nodes, released together.
        let ports = nodes.map(\.port)
        let results = ClaimConcurrencyTests.race(30) { index in
            let client = HTTPClient(port: ports[index % 2])
            let body = ClaimBody.make(publicID: "pk_race", user: "racer", code: "RACE\(index)")
            let response = try client.claim(body, headers: [("X-Forwarded-For", "198.51.100.\(index)")])
            return response.text
        }
        let answers = try results.map { try $0.get() }
        #expect(answers.filter { $0.contains(#""status":"claimed""#) }.count == 1, "\(answers)")
        #expect(answers.filter { $0.contains(#""status":"already_claimed""#) }.count == 29, "\(answers)")

        // Clicks on both nodes reach the one store; a click minted on node a is claimed on node b.
        var minted: [String] = []
        for (index, node) in nodes.enumerated() {
            for _ in 0..<3 {
                let tap = try node.client().request(
                    "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
                #expect(tap.status == 302)
                if index == 0, let id = LinkResponses.clickID(in: tap) { minted.append(id) }
            }
        }
        #expect(eventually(within: 10) { (try? store.allClicks().count) == 6 })
        let clickID = try #require(minted.first)
        let crossClaim = try nodes[1].client().claim(
            ClaimBody.make(user: "cross-node", clickID: clickID, firstSeenAt: WallClock.iso(offset: -60_000)))
        #expect(crossClaim.text.contains(#""status":"claimed""#), "\(crossClaim.text)")
        #expect(try store.customer(organizationID: "org_acme", customerID: "cross-node")?.clickID == clickID)

        // An import through the command line is redirected by both nodes within 2 s.
        for node in nodes {
            #expect(
                try node.client().request("GET", "/a/pk_acme/FRESH1", headers: [("User-Agent", Agents.iPhone)])
                    .status == 404)
        }
        let file = directory.path + "/fresh.json"
        try
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":[{"id":"part_sam","codes":[{"code":"FRESH1"}]}]}]}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ChildProcess.run(["import", file, "--store", url.unmasked], outputIn: directory.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        for node in nodes {
            #expect(
                eventually(within: 2) {
                    (try? node.client().request("GET", "/a/pk_acme/FRESH1", headers: [("User-Agent", Agents.iPhone)])
                        .status) == 302
                })
        }
    }

    /// Both nodes tapped without pause while the test's own cluster is stopped and, a moment later, started again:
    /// every tap is answered with a redirect (the journal absorbs the outage), and once the database is back every
    /// click id either node answered is in the store exactly once, and no other.
    @Test func postgresStoppedUnderLoadOnBothNodesLosesNoClickAndStoresNoneTwice() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try cluster.start()
        let store = PostgresStore(url: url)
        try store.migrate()
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(ConfigFixtures.standard.utf8)), into: store)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let nodes = try Self.nodes(of: url, in: directory, ["--dedupe-window", "0"])
        defer { for node in nodes { node.stop(within: 30) } }

        // One tapping thread per node until `stop`; each keeps the click ids its redirects carried, and counts
        // anything that was not a redirect.
        let stop = Atomic<Bool>(false)
        let answered = Mutex<[String]>([])
        let refused = Mutex<[String]>([])
        let done = DispatchGroup()
        for node in nodes {
            let port = node.port
            done.enter()
            TestThread.start(name: "tapper") {
                defer { done.leave() }
                let client = HTTPClient(port: port)
                while !stop.load(ordering: .relaxed) {
                    do {
                        let tap = try client.request(
                            "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
                        if tap.status == 302, let id = LinkResponses.clickID(in: tap) {
                            answered.withLock { $0.append(id) }
                        } else {
                            refused.withLock { $0.append("\(tap.status) \(tap.text)") }
                        }
                    } catch {
                        refused.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        func taps() -> Int { answered.withLock { $0.count } }
        #expect(eventually(within: 20) { taps() >= 200 })
        try cluster.stop()
        let atStop = taps()
        #expect(eventually(within: 20) { taps() >= atStop + 400 }, "links are answered while PostgreSQL is down")
        try cluster.start()
        let atStart = taps()
        #expect(eventually(within: 20) { taps() >= atStart + 200 })
        stop.store(true, ordering: .relaxed)
        done.wait()

        let ids = answered.withLock { $0 }
        #expect(refused.withLock { $0 }.isEmpty, "\(refused.withLock { $0.prefix(5) })")
        #expect(Set(ids).count == ids.count, "every redirect carried a click id of its own")
        #expect(eventually(within: 60) { (try? store.allClicks().count) ?? 0 >= ids.count })
        let stored = try store.allClicks().map(\.id)
        #expect(stored.count == ids.count, "each answered click stored once, and nothing else")
        #expect(Set(stored) == Set(ids))
        // And counted once: a batch sent again after a commit whose answer was lost would add its counts twice.
        let counted = try store.clickCounts(
            ClickCountQuery(organizationID: "org_acme", from: 0, to: Int64(1) << 50, byPartner: false)
        ).reduce(0) { $0 + $1.clicks }
        #expect(counted == Int64(ids.count), "the hourly counts hold each answered click once")
    }
}
