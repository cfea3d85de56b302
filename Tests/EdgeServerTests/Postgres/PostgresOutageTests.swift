import EdgeServer
import EdgeStore
import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

/// A node on a PostgreSQL store that goes down and comes back: links are answered all along, the API answers `503`
/// in the JSON error shape (never a hang), and every click journaled meanwhile is stored exactly once afterwards.
/// The database is a cluster of the test's own, stopped and started with `pg_ctl`.
@Suite struct PostgresOutageTests {
    @Test func whileTheStoreIsDownTheAPIAnswers503AndTheIngesterCatchesUpWhenItReturns() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let logs = Mutex<[String]>([])
        let (reader, server) = try Self.startServer(on: cluster, data: data) { line in logs.withLock { $0.append(line) }
        }
        defer { server.stop() }
        let client = HTTPClient(port: server.port)
        let secret = [("Authorization", "Bearer sk_acme_secret")]

        #expect(try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)]).status == 302)
        #expect(eventually(within: 10) { (try? reader.allClicks().count) == 1 })

        try cluster.stop()
        for _ in 0..<5 {
            let tap = try client.request(
                "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
            #expect(tap.status == 302, "links never wait on the store")
        }
        let list = try client.request("GET", "/v1/clicks", headers: secret)
        #expect(list.status == 503)
        #expect(list.header("retry-after") == "2")
        #expect(
            list.text.contains(#""success":false"#) && list.text.contains(#""error":"unavailable""#), "\(list.text)")
        #expect(eventually(within: 10) { logs.withLock { $0.contains { $0.hasPrefix("store unavailable") } } })

        try cluster.start()
        #expect(eventually(within: 20) { (try? reader.allClicks().count) == 6 })
        let clicks = try reader.allClicks()
        #expect(Set(clicks.map(\.id)).count == 6, "each click stored once")
        let counted = try reader.clickCounts(
            ClickCountQuery(organizationID: "org_acme", from: 0, to: Int64(1) << 50, byPartner: false)
        ).reduce(0) { $0 + $1.clicks }
        #expect(counted == 6, "and counted once")
        let after = try client.request("GET", "/v1/clicks", headers: secret)
        #expect(after.status == 200, "\(after.text)")
        #expect(eventually(within: 10) { logs.withLock { $0.contains { $0.hasPrefix("store reachable again") } } })
        let outages = logs.withLock { $0.filter { $0.hasPrefix("store unavailable") }.count }
        #expect(outages == 1, "one line per outage, not one per retry")
    }
}

extension PostgresOutageTests {
    /// Starts `cluster`, migrates it with the standard configuration, and starts a one-loop server on it (repeat
    /// taps off) with its journal in `data`; returns a store connection of the test's own and the running server.
    static func startServer(
        on cluster: PostgresCluster, data: TemporaryDirectory, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> (reader: PostgresStore, server: EdgeServer) {
        let url = try cluster.start()
        let reader = PostgresStore(url: url)
        try reader.migrate()
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(ConfigFixtures.standard.utf8)), into: reader)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = 1
        configuration.dataDirectory = data.path
        configuration.postgres = url
        configuration.repeatTapWindow = 0
        let server = try EdgeServer(configuration: configuration, log: log)
        server.start()
        return (reader, server)
    }
}

/// A database that stops answering without closing its connections (frozen, not stopped): a request that needs it
/// gets `503` once the store's answer timeout passes, not when the database wakes up; links never wait; the clicks
/// of the freeze are stored once it is over.
@Suite struct PostgresFreezeTests {
    @Test func aFrozenDatabaseGets503InsteadOfAWaitAndTheClicksCatchUp() throws {
        let cluster = try PostgresCluster()
        defer {
            try? cluster.thaw()
            cluster.remove()
        }
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let (reader, server) = try PostgresOutageTests.startServer(on: cluster, data: data)
        defer { server.stop() }
        let client = HTTPClient(port: server.port)
        let secret = [("Authorization", "Bearer sk_acme_secret")]
        #expect(try client.request("GET", "/v1/clicks", headers: secret).status == 200)

        try cluster.freeze()
        for _ in 0..<3 {
            let tap = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
            #expect(tap.status == 302, "links never wait on the store")
        }
        // The answer timeout is 5 s (and a reconnect attempt 3 s): the client's own receive timeout is longer, so a
        // request that waited for the database would fail here instead of answering.
        let list = try client.request("GET", "/v1/clicks", headers: secret)
        #expect(list.status == 503, "\(list.text)")
        #expect(list.text.contains(#""error":"unavailable""#), "\(list.text)")

        try cluster.thaw()
        #expect(eventually(within: 30) { (try? reader.allClicks().count) == 3 })
        #expect(eventually(within: 10) { (try? client.request("GET", "/v1/clicks", headers: secret).status) == 200 })
    }
}

/// Several nodes starting at once on a new database: each runs the migrations, under an advisory lock, so the
/// schema is built once and every node finds it complete.
@Suite struct PostgresMigrationRaceTests {
    @Test func fourProcessesMigratingAtOnceBuildTheSchemaOnce() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let output = try TemporaryDirectory()
        defer { output.remove() }
        let children = try (0..<4).map { index in
            try ChildProcess(["migrate", "--store", url.unmasked], outputIn: output.path, label: "migrate-\(index)")
        }
        var reports: [String] = []
        for child in children {
            let exit = try #require(child.waitForExit(within: 60))
            #expect(exit.status == 0 && !exit.signaled, "\(child.stderr)")
            reports.append(child.stdout)
        }
        let store = PostgresStore(url: url)
        let version = try store.schemaVersion()
        // One did the work and says so; the others waited for it and found nothing left.
        let place = "(PostgreSQL at \(url.masked))"
        #expect(
            reports.filter { $0 == "migrated the store from schema 0 to \(version) \(place)\n" }.count == 1,
            "\(reports)")
        #expect(reports.filter { $0 == "store is up to date: schema \(version) \(place)\n" }.count == 3, "\(reports)")
        #expect(version >= 1)
        try store.migrate()
        #expect(try store.schemaVersion() == version)
        #expect(try store.configRevision() == 0)
    }
}

/// `--store` on the command line: a URL libpq cannot parse is a usage error that never shows the password, and a
/// working one is used by every command (here `import` then `export` through a real database).
@Suite struct StoreOptionTests {
    @Test func aBadURLIsAUsageErrorWithoutThePassword() throws {
        let output = try TemporaryDirectory()
        defer { output.remove() }
        let result = try ChildProcess.run(
            ["migrate", "--store", "postgres://tolt:hunter2@127.0.0.1/db?no_such_option=1"], outputIn: output.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("invalid PostgreSQL URL postgres://tolt:***@127.0.0.1/db"), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2") && !result.stdout.contains("hunter2"))
    }

    /// libpq's own parse errors quote what they could not parse, which may be the password: they are not shown.
    @Test(arguments: [
        "postgres://tolt:S3CRET%PW@127.0.0.1/db", "postgres://tolt:S3CRET@[::1/db",
        "postgres://tolt:S3C@RET@127.0.0.1/db",
    ])
    func aPasswordLibpqCannotParseIsNeverPrinted(url: String) throws {
        let output = try TemporaryDirectory()
        defer { output.remove() }
        let result = try ChildProcess.run(["migrate", "--store", url], outputIn: output.path)
        #expect(result.status != 0)
        for secret in ["S3CRET", "RET@", "%PW"] {
            #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret), "\(result.stderr)")
        }
    }

    @Test func importAndExportGoThroughTheDatabaseTheFlagNames() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let output = try TemporaryDirectory()
        defer { output.remove() }
        let file = output.path + "/config.json"
        try ConfigFixtures.standard.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ChildProcess.run(["import", file, "--store", url.unmasked], outputIn: output.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try ChildProcess.run(["export", "--store", url.unmasked], outputIn: output.path)
        #expect(exported.status == 0 && exported.stdout.contains(#""public_key":"pk_acme""#), "\(exported.stderr)")
        #expect(try PostgresStore(url: url).configRecords().organizations.map(\.id).contains("org_acme"))
    }
}
