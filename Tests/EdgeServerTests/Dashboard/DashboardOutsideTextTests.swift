import Foundation
import LinkCore
import TestSupport
import Testing

/// Text that comes from outside the organization's configuration, an app user id from the public claim and a product
/// id from RevenueCat, reads the same on every list: Customers and Commissions both show it without the characters
/// that would reorder its row (``DisplayTextRules/shown(_:)``), escaped.
@Suite struct DashboardOutsideTextTests {
    @Test func theCommissionsPageShowsIdsWithoutBidiControlsAsTheCustomersPageDoes() throws {
        let server = try TestServer(config: TestServer.webhookConfig)
        defer { server.shutdown() }
        let user = "evil\u{202E}gnp.exe"
        try server.claimUser(user)
        try server.client().deliver(
            RevenueCatPayload.purchase(
                user: user, price: "10", transaction: "bidi-1", ["product_id": "pro\u{202E}<b>yearly"]))
        let (client, session, _) = try DashboardFormTests.signedIn(server)
        let customers = try client.dashboardPage("/dashboard/customers", session: session).text
        let commissions = try client.dashboardPage("/dashboard/commissions", session: session).text
        for (name, page) in [("customers", customers), ("commissions", commissions)] {
            #expect(!page.contains("\u{202E}"), "\(name) shows the override")
            #expect(page.contains("<td>evilgnp.exe</td>"), "\(name): \(page)")
        }
        #expect(commissions.contains("<td>pro&lt;b&gt;yearly</td>"), "\(commissions)")
    }
}
