import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// The Overview's days are the organization's (`timezone` in its import), counted from the hourly counts.
@Suite struct DashboardOverviewTests {
    /// The date today in `zone`, `YYYY-MM-DD`.
    static func today(in zone: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = try #require(TimeZone(identifier: zone))
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    /// Pacific/Kiritimati (UTC+14) and Pacific/Pago_Pago (UTC−11) are never on the same date: a click made now is
    /// today's in each, on different dates.
    @Test(arguments: ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"])
    func todaysClickIsOnTheOrganizationsLocalDate(zone: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(#"{"organizations":[{"id":"org_acme","timezone":"\#(zone)"}]}"#)
        let client = server.client()
        // Each page reads the organization from the link table, which takes the import within a moment.
        let session = try client.dashboardSession()
        _ = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        let date = try Self.today(in: zone)
        let row = #"<tr><th scope="row">\#(date)</th><td class="number">1</td><td class="number">1</td></tr>"#
        var page = ""
        let shown = try eventually(within: 5) {
            page = try client.dashboardPage("/dashboard", session: session).text
            return page.contains(row) && page.contains("(\(zone))")
        }
        #expect(shown, "no row \(row) in the Overview's table")
        #expect(page.contains(#"<span class="value" id="total-clicks">1</span>"#))
    }

    /// 350 partners clicked on each of the 30 days are 10,500 rows of day and partner, more than one count query
    /// returns: the Overview reads them a day at a time and still shows every click.
    @Test func anOrganizationWithHundredsOfPartnersClickedDailyStillGetsItsOverview() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let now = WallClock.milliseconds()
        let dayStart = now - now % 86_400_000
        var clicks: [ClickRecord] = []
        for day in 0..<30 {
            for partner in 0..<350 {
                clicks.append(
                    ClickRecord(
                        id: "clk_d\(day)p\(partner)", createdAt: dayStart - Int64(day) * 86_400_000 + 1000,
                        organizationID: "org_acme", programID: "prg_acme", partnerID: "part_n\(partner)", code: "N",
                        platform: .ios, userAgent: Agents.iPhone, referer: "", ip: "192.0.2.1"))
            }
        }
        try server.store.ingest(clicks, checkpoint: JournalCheckpoint(segment: "test/seed", offset: 1))
        let client = server.client()
        let page = try client.dashboardPage("/dashboard", session: try client.dashboardSession())
        #expect(page.status == 200)
        #expect(page.text.contains(#"<span class="value" id="total-clicks">10500</span>"#))
        #expect(page.text.contains(#"<td class="number">350</td><td class="number">350</td>"#))
    }
}
