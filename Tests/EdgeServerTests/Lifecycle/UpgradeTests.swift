import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// An upgrade in place: this build's `tolt-edge serve` started on a data directory an older build left when it was
/// SIGKILLed right after a burst of taps (`Tests/Fixtures/upgrade/`, written by those builds themselves). Its store
/// is migrated, its journal's clicks are stored once, and every click, claim, commission and secret it held is kept.
@Suite(.serialized) struct UpgradeTests {
    /// The fixtures' organization's secret key and RevenueCat authorization (`make-fixture.sh`).
    static let secretKey = "sk_upgrade_fixture"
    static let authorization = "Bearer whsec-upgrade-fixture"

    /// A tap the older build answered with a redirect: `answered.tsv`.
    struct AnsweredTap {
        let clickID: String
        let visitor: String
        /// `stored` when the older build's store held the click before the burst, `journal` for the burst's taps.
        let phase: String
    }

    static func answeredTaps(_ fixture: String) throws -> [AnsweredTap] {
        let text = try String(contentsOfFile: try TestFiles.fixture("upgrade/\(fixture)/answered.tsv"), encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return AnsweredTap(clickID: fields[0], visitor: fields[1], phase: fields[3])
        }
    }

    /// The click ids `/v1/clicks` must list: every answered id once, except a burst tap of a visitor who already
    /// tapped in the burst under another id (a build before repeat taps minted one per tap). This build's ingester
    /// counts such a tap as a repeat of the visitor's first and does not list it, as it does a repeat another loop
    /// answered (README, Repeat taps). A repeat whose first tap the store already held counts as a new click: the
    /// ingester's table starts empty.
    static func listedIDs(_ taps: [AnsweredTap]) -> Set<String> {
        var listed = Set<String>()
        var firstInJournal: [String: String] = [:]
        for tap in taps {
            if tap.phase == "journal" {
                if let first = firstInJournal[tap.visitor], first != tap.clickID { continue }
                firstInJournal[tap.visitor] = firstInJournal[tap.visitor] ?? tap.clickID
            }
            listed.insert(tap.clickID)
        }
        return listed
    }

    /// A copy of the fixture's data directory, as the older build left it.
    static func dataDirectory(_ fixture: String, in directory: TemporaryDirectory) throws -> String {
        let data = directory.path + "/data"
        try FileManager.default.copyItem(atPath: try TestFiles.fixture("upgrade/" + fixture), toPath: data)
        try? FileManager.default.removeItem(atPath: data + "/answered.tsv")
        return data
    }

    static func get(_ client: HTTPClient, _ path: String) throws -> [String: Any] {
        let response = try client.request("GET", path, headers: [("Authorization", "Bearer \(secretKey)")])
        guard response.status == 200, let object = response.jsonObject else {
            throw TestError("GET \(path): \(response.status) \(response.text)")
        }
        return object
    }

    /// Every click id `/v1/clicks` lists, page by page, in the order listed.
    static func listedClickIDs(_ client: HTTPClient) throws -> [String] {
        var ids: [String] = []
        var after = ""
        while true {
            let page = try get(client, "/v1/clicks?limit=100" + (after.isEmpty ? "" : "&starting_after=" + after))
            let data = page["data"] as? [[String: Any]] ?? []
            ids += data.compactMap { $0["id"] as? String }
            guard page["has_more"] as? Bool == true, let last = ids.last else { return ids }
            after = last
        }
    }

    /// Waits (at most 10 s: the journal is ingested at start, README says within about a second) until every
    /// expected click is listed, then returns the listing.
    static func waitForClicks(_ client: HTTPClient, _ expected: Set<String>) throws -> [String] {
        let deadline = TestClock.now() + 10
        while true {
            let ids = try listedClickIDs(client)
            if expected.isSubset(of: ids) || TestClock.now() > deadline { return ids }
            usleep(50_000)
        }
    }

    /// Clicks and unique clicks over the fixtures' days (they were written on 2026-12-02 UTC).
    static func clickTotals(_ client: HTTPClient) throws -> (clicks: Int, unique: Int) {
        let rows = try get(client, "/v1/stats/clicks?from=2026-11-29&to=2026-12-05")["data"] as? [[String: Any]] ?? []
        return (
            rows.reduce(0) { $0 + ($1["clicks"] as? Int ?? 0) },
            rows.reduce(0) { $0 + ($1["unique_clicks"] as? Int ?? 0) }
        )
    }

    static func webhook(
        _ client: HTTPClient, _ name: String, authorization: String, purchasedAt: Int64? = nil,
        as user: String? = nil
    ) throws -> HTTPResponse {
        let path = try TestFiles.fixture("revenuecat/\(name).json")
        var body = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        if let purchasedAt, var event = body["event"] as? [String: Any] {
            event["purchased_at_ms"] = purchasedAt
            event["event_timestamp_ms"] = purchasedAt
            body["event"] = event
        }
        if let user, var event = body["event"] as? [String: Any] {
            for key in ["app_user_id", "original_app_user_id"] { event[key] = user }
            event["aliases"] = [user]
            event["id"] = "upgrade-\(user)"
            event["transaction_id"] = "upgrade-\(user)"
            event["original_transaction_id"] = "upgrade-\(user)"
            body["event"] = event
        }
        return try client.request(
            "POST", "/webhooks/revenuecat/pk_acme",
            headers: [("Authorization", authorization), ("Content-Type", "application/json")],
            body: Array(try JSONSerialization.data(withJSONObject: body)))
    }

    /// `2026-11-30-25c9fc3`: SQLite only, journal format version 1, secrets stored as written, no webhooks, no
    /// hourly counts. `2026-12-01-bafc58c`: journal format version 2 with repeat-tap frames (kind 3), commissions
    /// and RevenueCat events; the build before the repeat-tap table change, the journal's idle seal and the data
    /// directory's lock.
    @Test(arguments: ["2026-11-30-25c9fc3", "2026-12-01-bafc58c"])
    func anOlderBuildsKilledDataDirectoryIsServedWithEveryClickOnce(fixture: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = try Self.dataDirectory(fixture, in: directory)
        let taps = try Self.answeredTaps(fixture)
        let expected = Self.listedIDs(taps)
        let hasWebhooks = fixture.hasPrefix("2026-12-01")
        #expect(taps.contains { $0.phase == "journal" } && taps.contains { $0.phase == "stored" })

        var server = try ChildServer(dataDirectory: data, outputIn: directory.path, label: "upgraded", threads: 1)
        var client = server.client()
        let listed = try Self.waitForClicks(client, expected)
        #expect(Set(listed) == expected, "listed \(listed.count), expected \(expected.count)")
        #expect(listed.count == Set(listed).count, "no click listed twice")
        // Every answered tap counts as a click; the listed ones are the unique clicks.
        #expect(try Self.clickTotals(client) == (taps.count, expected.count))

        // Claims: the code claim and the click claim stand, and the old secret key still opens the API.
        let customers = try Self.get(client, "/v1/customers?limit=100")["data"] as? [[String: Any]] ?? []
        let byUser = Dictionary(uniqueKeysWithValues: customers.map { ($0["customer_id"] as? String ?? "", $0) })
        #expect(byUser.count == 2)
        #expect(byUser["user_8412"]?["code"] as? String == "SAM20")
        #expect(byUser["user_click"]?["click_id"] as? String == taps[0].clickID)
        let again = try client.claim(#"{"public_id":"pk_acme","app_user_id":"user_8412","code":"SAM20"}"#)
        #expect(again.text.contains(#""status":"already_claimed""#), "\(again.text)")

        if hasWebhooks {
            // The initial purchase's commission was reversed by the refund, the renewal's is pending.
            let commissions = try Self.get(client, "/v1/commissions?limit=100")["data"] as? [[String: Any]] ?? []
            #expect(Set(commissions.compactMap { $0["status"] as? String }) == ["pending", "reversed"])
            #expect(commissions.count == 2)
            let redelivery = try Self.webhook(client, "initial_purchase", authorization: Self.authorization)
            #expect(
                redelivery.status == 200 && redelivery.text.contains(#""status":"duplicate""#), "\(redelivery.text)")
            let wrong = try Self.webhook(client, "non_renewing_purchase", authorization: "Bearer not-the-stored-one")
            #expect(wrong.status == 401)
            let purchase = try Self.webhook(
                client, "non_renewing_purchase", authorization: Self.authorization,
                purchasedAt: Int64(Date().timeIntervalSince1970 * 1000))
            #expect(purchase.text.contains(#""outcome":"commission_created""#), "\(purchase.text)")
            // Step 10: the older build's events were applied on arrival; a purchase whose webhook beats its claim
            // is paid by the claim.
            let events = try Self.get(client, "/v1/webhook_events")["data"] as? [[String: Any]] ?? []
            #expect(!events.isEmpty && events.allSatisfy { $0["attributed_at"] is NSNull })
            let early = try Self.webhook(
                client, "non_renewing_purchase", authorization: Self.authorization,
                purchasedAt: Int64(Date().timeIntervalSince1970 * 1000), as: "user_late")
            #expect(early.text.contains(#""outcome":"unattributed""#), "\(early.text)")
            let now = Timestamp.format(Int64(Date().timeIntervalSince1970 * 1000))
            let claim = try client.claim(
                #"{"public_id":"pk_acme","app_user_id":"user_late","code":"SAM20","first_seen_at":"\#(now)"}"#)
            #expect(claim.text.contains(#""status":"claimed""#), "\(claim.text)")
            let late = try Self.get(client, "/v1/customers?customer_id=user_late")["data"] as? [[String: Any]] ?? []
            #expect(late.first?["status"] as? String == "paying", "\(late)")
        }

        // A clean stop and a second start ingest nothing again.
        server.child.signal(SIGTERM)
        #expect(server.child.waitForExit(within: 20)?.status == 0)
        #expect(try SQLiteStore(directory: data).allClicks().map(\.id).sorted() == expected.sorted())
        server = try ChildServer(dataDirectory: data, outputIn: directory.path, label: "restarted", threads: 1)
        client = server.client()
        #expect(try Self.listedClickIDs(client).sorted() == listed.sorted())
        #expect(try Self.clickTotals(client) == (taps.count, expected.count))
        server.child.signal(SIGTERM)
        #expect(server.child.waitForExit(within: 20)?.status == 0)
    }

    /// A rollback: an older build started on the data of a newer one. This build, given a store that a build with
    /// one more step migrated (and marked as needing it), refuses to start, saying why, and leaves the store and the
    /// journal's clicks as they were, for the newer build to take up again.
    @Test func aStoreFromANewerBuildIsRefusedAtStartWithItsJournalKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = try Self.dataDirectory("2026-12-01-bafc58c", in: directory)
        let newer = SQLiteMigrations.steps.count + 1
        let store = try SQLiteStore(directory: data)
        try store.migrate()
        try store.withConnection { db in
            try db.execute("PRAGMA user_version = \(newer)")
            try db.execute("UPDATE meta SET value = '\(newer)' WHERE key = 'compatible_schema_version'")
        }
        let storedIDs = try store.allClicks().map(\.id)
        let journal = data + "/journal"
        let segments = try FileManager.default.contentsOfDirectory(atPath: journal)
        let bytes = try segments.map { try Data(contentsOf: URL(fileURLWithPath: journal + "/" + $0)) }

        let run = try ChildProcess.run(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--data", data], outputIn: directory.path)
        #expect(run.status == 1)
        #expect(run.stderr.contains("is at schema version \(newer), from a newer tolt-edge"), "\(run.stderr)")
        #expect(!run.stdout.contains("listening on"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal) == segments)
        #expect(try segments.map { try Data(contentsOf: URL(fileURLWithPath: journal + "/" + $0)) } == bytes)
        #expect(try SQLiteStore(directory: data).allClicks().map(\.id) == storedIDs)
    }
}
