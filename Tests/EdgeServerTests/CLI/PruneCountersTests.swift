import EdgeStore
import Foundation
import TestSupport
import Testing

/// README: `tolt-edge prune` deletes clicks, and leaves the hourly counters: the stats of the days it pruned read the
/// same afterwards (``PruneCommandTests`` counts the clicks it deletes).
@Suite struct PruneCountersTests {
    /// `GET /v1/stats/clicks` for 2026-01-01 and 2026-01-02 (UTC): (date, partner, clicks) of each row.
    static func stats(_ client: HTTPClient) throws -> [String] {
        let response = try client.request(
            "GET", "/v1/stats/clicks?from=2026-01-01&to=2026-01-02",
            headers: [("Authorization", "Bearer sk_acme_secret")])
        guard response.status == 200, let rows = response.jsonObject?["data"] as? [[String: Any]] else {
            throw TestError("stats: \(response.status) \(response.text)")
        }
        return rows.map {
            "\($0["date"] as? String ?? "?") \($0["partner_id"] as? String ?? "?") "
                + "\($0["clicks"] as? Int ?? -1)/\($0["unique_clicks"] as? Int ?? -1)"
        }
    }

    @Test func pruningEveryClickLeavesTheDailyCountsAsTheyWere() throws {
        let server = try PruneCommandTests.seeded()
        defer { server.shutdown() }
        let client = server.client()
        let before = try Self.stats(client)
        // 130 acme clicks on 2026-01-01, half SAM20 (part_sam), half LEE (part_lee), and one SAM20 a day later.
        #expect(before.count == 3, "\(before)")
        #expect(before.first?.hasPrefix("2026-01-01 part_lee 65/") == true, "\(before)")
        #expect(before.last?.hasPrefix("2026-01-02 part_sam 1/") == true, "\(before)")
        let result = try ChildProcess.run(
            ["prune", "--before", "2026-01-03", "--data", server.directory], outputIn: server.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("deleted 134 clicks"), "\(result.stdout)")
        #expect(try PruneCommandTests.allTimes(server.store).isEmpty, "every click is gone")
        #expect(try Self.stats(client) == before, "the counters stay")
    }
}
