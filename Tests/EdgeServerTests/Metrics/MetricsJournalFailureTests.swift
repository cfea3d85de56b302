import TestSupport
import Testing

/// Journal writes that fail (a file-size limit, as `CrashRecoveryTests` sets it): every tap is counted once, as
/// journaled with its redirect or as refused with its 503.
@Suite struct MetricsJournalFailureTests {
    @Test func refusedClicksAreCountedApartFromJournaledOnes() throws {
        let data = try StoreFixture(importing: ConfigFixtures.standard).temporaryDirectory
        defer { data.remove() }
        // About 250 clicks fit in 64 KiB, so each segment fills up and its next write fails.
        let server = try ChildServer(
            dataDirectory: data.path, outputIn: data.path, label: "limited", fileSizeLimit: 64 << 10)
        defer { server.kill() }
        let client = server.client()
        var redirected = 0
        var refused = 0
        for _ in 0..<800 {
            let status = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)]).status
            if status == 503 { refused += 1 } else if status == 302 { redirected += 1 }
        }
        #expect(refused >= 2, "the file-size limit made journal writes fail: \(refused) refused")
        #expect(redirected + refused == 800)
        let scrape = try MetricsTests.scrape(client)
        #expect(scrape.value("tolt_edge_clicks_journaled_total") == Double(redirected))
        #expect(scrape.value("tolt_edge_clicks_refused_total", ["reason": "write_failed"]) == Double(refused))
        #expect(scrape.value("tolt_edge_clicks_refused_total", ["reason": "journal_full"]) == 0)
        #expect(scrape.value(MetricsTests.requests, ["route": "link", "code": "503"]) == Double(refused))
        #expect(scrape.value(MetricsTests.requests, ["route": "link", "code": "302"]) == Double(redirected))
        #expect(scrape.value("tolt_edge_link_answers_total", ["answer": "redirect"]) == 800)
    }
}
