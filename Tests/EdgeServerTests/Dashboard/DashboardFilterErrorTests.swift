import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// The lists' filters are checked as the API checks its lists' (``APIHandler/checkQuery``): a filter that cannot be
/// used (`status=bogus`, another organization's partner, an unknown parameter, a cursor that is no id or, on the
/// partner list, names no partner of the organization, a query that cannot be decoded) is a `400` page that says why, never the whole list as if the filter had applied. And the
/// tracking and integrations forms refuse a field they do not have, as the import refuses one.
@Suite struct DashboardFilterErrorTests {
    /// A store with one customer and one commission (`part_sam`'s), and a signed-in session.
    static func serverWithACommission() throws -> (server: TestServer, client: HTTPClient, session: String) {
        let server = try TestServer.webhooks()
        try server.claimUser("payer")
        let purchase = RevenueCatPayload.purchase(user: "payer", price: "10.00", transaction: "filter-1")
        #expect(try server.client().deliver(purchase) == "commission_created")
        let client = server.client()
        return (server, client, try client.dashboardSession())
    }

    @Test func anInvalidFilterIsA400PageThatSaysWhyAndListsNothing() throws {
        let (server, client, session) = try Self.serverWithACommission()
        defer { server.shutdown() }
        let refused: [(path: String, table: String, reason: String)] = [
            ("/dashboard/commissions?status=bogus", "commissions", "status must be one of pending, reversed"),
            (
                "/dashboard/commissions?partner_id=part_zed", "commissions",
                "partner_id part_zed is not a partner of this organization"
            ),
            ("/dashboard/commissions?partnerid=part_sam", "commissions", "unknown query parameter partnerid"),
            ("/dashboard/commissions?starting_after=cust_1", "commissions", "starting_after must be a commission id"),
            (
                "/dashboard/commissions?status=pending&status=reversed", "commissions",
                "query parameter status is given more than once"
            ),
            ("/dashboard/customers?q=%FF", "customers", "the query cannot be read whole"),
            ("/dashboard/customers?starting_after=bogus", "customers", "starting_after must be a customer id"),
            ("/dashboard/customers?status=paying", "customers", "unknown query parameter status"),
            ("/dashboard/clicks?partner_id=part_zed", "clicks", "partner_id part_zed is not a partner"),
            ("/dashboard/clicks?starting_after=clk_nonsense", "clicks", "starting_after must be a click id"),
            (
                "/dashboard/partners?starting_after=part_zed", "partners",
                "starting_after part_zed is not a partner of this organization"
            ),
            ("/dashboard/partners?starting_after=bogus", "partners", "starting_after bogus is not a partner"),
            ("/dashboard/partners?page=2", "partners", "unknown query parameter page"),
        ]
        for (path, table, reason) in refused {
            let page = try client.dashboardPage(path, session: session)
            #expect(page.status == 400, "\(path): \(page.status)")
            #expect(page.text.contains(#"<p class="error" role="alert" id="filter-error">"#), "\(path)")
            #expect(page.text.contains(reason), "\(path): \(page.text.suffix(1500))")
            #expect(!page.text.contains(#"<table id="\#(table)">"#), "\(path): no list")
            #expect(page.text.contains(#"<a href="/dashboard/\#(table)">Show the whole list</a>"#), "\(path)")
        }
    }

    /// The filter forms send an empty value for "any", and `_` (a cache-buster) is let through, as the API does.
    @Test func theFormsAnyAndAValidFilterStillList() throws {
        let (server, client, session) = try Self.serverWithACommission()
        defer { server.shutdown() }
        for path in [
            "/dashboard/commissions?partner_id=&status=", "/dashboard/commissions?partner_id=part_sam&status=pending",
            "/dashboard/commissions?_=1700000000", "/dashboard/customers?q=", "/dashboard/customers?q=payer",
        ] {
            let page = try client.dashboardPage(path, session: session)
            #expect(page.status == 200, "\(path): \(page.status)")
            let table = path.contains("customers") ? "customers" : "commissions"
            #expect(DashboardListPagingTests.rows(of: table, in: page.text).count == 1, "\(path)")
        }
        let clicks = try client.dashboardPage("/dashboard/clicks?partner_id=part_sam", session: session)
        #expect(clicks.status == 200)
        let reversed = try client.dashboardPage("/dashboard/commissions?status=reversed", session: session)
        #expect(reversed.status == 200 && reversed.text.contains("No commissions match."))
    }

    @Test func theTrackingFormRefusesAFieldItDoesNotHave() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, fields) = try DashboardEditConflictTests.openTracking(server)
        let before = try DashboardEditConflictTests.program(server)
        let posted = try client.dashboardPost(
            DashboardEditConflictTests.tracking, session: session,
            fields: DashboardForms.changing(fields, ["app_name": "Renamed"]) + [("brand_colour", "#ff0000")])
        #expect(posted.status == 400, "\(posted.status)")
        #expect(posted.text.contains("This form has no field brand_colour; nothing was saved."), "\(posted.text)")
        #expect(posted.text.contains(#"value="Renamed""#), "the person's values are shown again")
        #expect(try DashboardEditConflictTests.program(server) == before, "nothing was saved")
        // The form as the page gives it still saves.
        let saved = try client.dashboardPost(
            DashboardEditConflictTests.tracking, session: session,
            fields: DashboardForms.changing(fields, ["app_name": "Renamed"]))
        #expect(saved.status == 303, "\(saved.text)")
        #expect(try DashboardEditConflictTests.program(server).appName == "Renamed")
    }

    @Test func theIntegrationsFormRefusesAFieldItDoesNotHave() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/settings/integrations"
        let posted = try client.dashboardPost(
            path, session: session,
            fields: [("csrf_token", token), ("timezone", "Europe/Paris"), ("time_zone", "Europe/Berlin")])
        #expect(posted.status == 400, "\(posted.status)")
        #expect(posted.text.contains("This form has no field time_zone; nothing was saved."), "\(posted.text)")
        let organization = try #require(try server.store.configRecords().organizations.first { $0.id == "org_acme" })
        #expect(organization.timezone == "UTC", "nothing was saved")
        let saved = try client.dashboardPost(
            path, session: session, fields: [("csrf_token", token), ("timezone", "Europe/Paris")])
        #expect(saved.status == 303, "\(saved.text)")
    }
}
