import Foundation
import TestSupport
import Testing

/// A list's `starting_after` must name a row of that list of the key's organization. `cust_nope`, `comm_nope` or an
/// event id nobody sent (or another organization's id) answered `200` with an empty page and `has_more: false`, which
/// reads as the end of the list; it is now `400 invalid_request`, as a cursor that is no click id is on
/// `/v1/clicks`. The dashboard answers such a list's page `400` with the reason, and `tolt-edge` says so.
@Suite struct APIListCursorTests {
    static let key = [("Authorization", "Bearer sk_acme_secret")]

    /// A server with a customer of each organization, and a commission and an event of `org_acme`; the ids of
    /// `org_acme`'s rows on each list.
    static func populated(_ kind: StoreKind) throws -> (server: TestServer, cursors: [String: String]) {
        let server = try TestServer.webhooks(kind)
        try server.claimUser("u1")
        let client = server.client()
        let other = try client.claim(ClaimBody.make(publicID: "pk_other", user: "z1", code: "ZED"))
        guard other.status == 200 else { throw TestError("claim z1: \(other.status) \(other.text)") }
        try client.deliver(
            RevenueCatPayload.purchase(user: "u1", price: "9.99", transaction: "T1", id: "evt-acme"))
        let customer = try #require(try client.customers().first?["id"] as? String)
        let commission = try #require(try client.commissions().first?["id"] as? String)
        return (
            server,
            ["/v1/customers": customer, "/v1/commissions": commission, "/v1/webhook_events": "evt-acme"]
        )
    }

    @Test(arguments: StoreKind.allCases) func anUnknownCursorIs400OnEveryList(kind: StoreKind) throws {
        let (server, cursors) = try Self.populated(kind)
        defer { server.shutdown() }
        let client = server.client()
        let otherCustomer = try #require(
            try client.customers(key: "sk_other_secret").first?["id"] as? String)
        let unknown: [String: [String]] = [
            "/v1/customers": ["cust_nope", otherCustomer],
            "/v1/commissions": ["comm_nope"],
            "/v1/webhook_events": ["evt-nope", "cust_nope"],
        ]
        for (path, cursors) in unknown {
            for cursor in cursors {
                let response = try client.request("GET", "\(path)?starting_after=\(cursor)", headers: Self.key)
                #expect(response.isError(400, "invalid_request"), "\(path) \(cursor): \(response.text)")
                #expect(
                    response.message.hasPrefix("starting_after \(cursor) is no "), "\(path): \(response.message)")
            }
        }
        // The row's own id is a cursor: the page after the list's only row is empty, and the end.
        for (path, cursor) in cursors {
            let response = try client.request("GET", "\(path)?starting_after=\(cursor)", headers: Self.key)
            #expect(response.status == 200, "\(path): \(response.text)")
            #expect((response.jsonObject?["data"] as? [Any])?.isEmpty == true, "\(path): \(response.text)")
            #expect(response.jsonObject?["has_more"] as? Bool == false, "\(path)")
        }
    }

    @Test func theDashboardAndTheCLISaySo() throws {
        let (server, _) = try Self.populated(.sqlite)
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        for (path, cursor, table) in [
            ("/dashboard/customers", "cust_nope", "customers"), ("/dashboard/commissions", "comm_nope", "commissions"),
        ] {
            let page = try client.dashboardPage("\(path)?starting_after=\(cursor)", session: session)
            #expect(page.status == 400, "\(path): \(page.status)")
            #expect(page.text.contains("starting_after \(cursor) is no"), "\(path)")
            #expect(
                DashboardListPagingTests.rows(of: table, in: page.text).isEmpty, "\(path): no list as if it applied")
        }
        let run = try ChildProcess.run(
            ["customers", "--data", server.directory, "--org", "org_acme", "--starting-after", "cust_nope"],
            outputIn: server.directory)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("--starting-after cust_nope is no customer of this organization"), "\(run.stderr)")
    }
}
