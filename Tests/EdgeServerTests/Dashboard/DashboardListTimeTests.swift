import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// The dashboard's lists (clicks, customers, commissions) show times in the organization's zone, with its offset, as the Overview counts its days in
/// it; in UTC, saying so, when the zone is not known.
@Suite struct DashboardListTimeTests {
    /// `2026-11-30 19:35 +05:30`, as the lists write a time in `zone`.
    static func shown(_ milliseconds: Int64, in zone: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = try #require(TimeZone(identifier: zone))
        formatter.dateFormat = "yyyy-MM-dd HH:mm xxx"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Kolkata is 5 h 30 min ahead of UTC and Pago Pago 11 h behind, all year: a minute's offset and a sign.
    @Test(arguments: ["Asia/Kolkata", "Pacific/Pago_Pago"])
    func clicksCustomersAndCommissionsAreListedInTheOrganizationsZone(zone: String) throws {
        let server = try TestServer(config: TestServer.webhookConfig)
        defer { server.shutdown() }
        try server.importConfig(#"{"organizations":[{"id":"org_acme","timezone":"\#(zone)"}]}"#)
        let client = server.client()
        let session = try client.dashboardSession()
        let tap = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        let id = try #require(LinkResponses.clickID(in: tap))
        #expect(try server.waitForClick(id))
        let click = try #require(try server.storedClicks().first { $0.id == id })
        let claim = try client.request(
            "POST", "/client/claims", headers: [("Content-Type", "application/json")],
            body: Array(
                #"{"public_id":"pk_acme","app_user_id":"zoned","click_id":"\#(id)","first_seen_at":"\#(Timestamp.format(click.createdAt))"}"#
                    .utf8))
        #expect(claim.status == 200, "\(claim.status) \(claim.text)")
        let customer = try #require(try server.store.customers(CustomerQuery(organizationID: "org_acme")).items.first)

        // The Overview takes the import within a moment: so do the lists.
        let clickTime = try Self.shown(click.createdAt, in: zone)
        let listed = try eventually(within: 5) {
            try client.dashboardPage("/dashboard/clicks", session: session).text.contains("<td>\(clickTime)</td>")
        }
        #expect(listed, "no \(clickTime) in the clicks list")
        let customers = try client.dashboardPage("/dashboard/customers", session: session).text
        let claimTime = try Self.shown(customer.claimedAt, in: zone)
        #expect(customers.contains("<td>\(claimTime)</td>"), "no \(claimTime) in the customers list")
        #expect(!customers.contains(" UTC</td>"))

        let now = Int(Date().timeIntervalSince1970 * 1000)
        let purchase = RevenueCatPayload.purchase(
            user: "zoned", price: "9.99", transaction: "t_zoned", ["purchased_at_ms": now, "event_timestamp_ms": now])
        #expect(try client.deliver(purchase) == "commission_created")
        let commission = try #require(
            try server.store.commissions(CommissionQuery(organizationID: "org_acme")).items.first)
        let commissionTime = try Self.shown(commission.createdAt, in: zone)
        let commissions = try client.dashboardPage("/dashboard/commissions", session: session).text
        #expect(commissions.contains("<td>\(commissionTime)</td>"), "no \(commissionTime) in the commissions list")
    }

    @Test func anOrganizationInUTCShowsOffsetZero() throws {
        #expect(HTML.time(1_764_511_506_123, in: nil) == "2025-11-30 14:05 UTC")
        #expect(HTML.time(1_764_511_506_123, in: .utc) == "2025-11-30 14:05 +00:00")
    }
}
