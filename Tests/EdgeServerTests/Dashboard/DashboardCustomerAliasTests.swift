import Foundation
import LinkCore
import TestSupport
import Testing

/// The Customers page names, under a customer's app user id, the other ids RevenueCat tied to it: the first three in
/// byte order, escaped and without the characters that would reorder the row, and how many more, so that a row stays
/// short however many the customer has.
@Suite struct DashboardCustomerAliasTests {
    @Test(arguments: StoreKind.allCases) func theCustomersPageShowsTheFirstTiedIDsAndHowManyMore(kind: StoreKind)
        throws
    {
        let server = try TestServer(config: TestServer.webhookConfig, store: kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("none-tied")
        try server.claimUser("five-tied")
        try server.claimUser("many-tied")
        let five = ["five-tied", "alias-3", "A\u{202E}cba", "<b>x</b>", "alias-1", "alias-2"]
        try client.deliver(
            RevenueCatPayload.purchase(user: "five-tied", price: "9.99", transaction: "D1", ["aliases": five]))
        let many = (0...100).map { "id-" + String(1000 + $0).dropFirst() }  // id-000 … id-100
        try client.deliver(
            RevenueCatPayload.purchase(user: "many-tied", price: "9.99", transaction: "D2", ["aliases": many]))

        let (dashboard, session, _) = try DashboardFormTests.signedIn(server)
        let response = try dashboard.dashboardPage("/dashboard/customers", session: session)
        #expect(response.status == 200)
        let page = response.text
        #expect(
            page.contains(
                #"<td>five-tied<div class="hint aliases">Other ids: &lt;b&gt;x&lt;/b&gt;, Acba, alias-1 +2 more</div></td>"#
            ),
            "\(page)")
        #expect(
            page.contains(
                #"<td>many-tied<div class="hint aliases">Other ids: id-000, id-001, id-002 +more than 97</div></td>"#),
            "\(page)")
        #expect(page.contains("<td>none-tied</td>"), "\(page)")
        #expect(page.components(separatedBy: "Other ids:").count == 3)
        #expect(!page.contains("<b>x</b>") && !page.contains("\u{202E}"))
        #expect(!page.contains("id-003") && !page.contains("alias-2"))
    }
}
