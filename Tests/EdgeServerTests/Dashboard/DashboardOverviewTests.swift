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
}
