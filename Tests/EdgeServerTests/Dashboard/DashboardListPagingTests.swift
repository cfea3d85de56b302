import Foundation
import TestSupport
import Testing

/// README's Customers and Commissions pages: 50 a page, newest first, paged by cursor (`starting_after`) as the API
/// is, and the customer search (`q=`) finds the one customer whose app user id is exactly the text.
@Suite struct DashboardListPagingTests {
    /// The rows of the table `id` on `page` (the commissions page has a totals table before its list).
    static func rows(of id: String, in page: String) -> [String] {
        guard let start = page.range(of: #"<table id="\#(id)">"#) else { return [] }
        let body = page[start.upperBound...].components(separatedBy: "</table>").first ?? ""
        return body.components(separatedBy: "<tr><td").dropFirst().map { String($0) }
    }

    /// The `rel="next"` link of `page`, unescaped, or nil.
    static func nextLink(in page: String) -> String? {
        page.range(of: #"<a rel="next" href=""#).map {
            String(page[$0.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    @Test func customersAreFiftyAPageNewestFirstAndTheSearchIsAnExactAppUserID() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        // 51 customers claimed a second apart, through the store as the claim route records them (51 claims over
        // HTTP would pass the claim limit of 30 a minute).
        let start = WallClock.milliseconds() - 3_600_000
        for index in 0..<51 {
            try server.claimUser("user-\(index < 10 ? "0" : "")\(index)", at: start + Int64(index) * 1000)
        }
        let client = server.client()
        let session = try client.dashboardSession()
        let first = try client.dashboardPage("/dashboard/customers", session: session)
        #expect(first.status == 200)
        let firstRows = Self.rows(of: "customers", in: first.text)
        #expect(firstRows.count == 50)
        #expect(firstRows.first?.hasPrefix(">user-50<") == true, "newest first: \(firstRows.first ?? "")")
        #expect(firstRows.last?.hasPrefix(">user-01<") == true, "\(firstRows.last ?? "")")
        let next = try #require(Self.nextLink(in: first.text))
        #expect(next.hasPrefix("/dashboard/customers?starting_after=cust_"), "\(next)")
        let second = try client.dashboardPage(next, session: session)
        let secondRows = Self.rows(of: "customers", in: second.text)
        #expect(secondRows.count == 1 && secondRows.first?.hasPrefix(">user-00<") == true, "\(secondRows)")
        #expect(Self.nextLink(in: second.text) == nil)
        // The search is the whole app user id, as written: not a prefix, not another case.
        let exact = try client.dashboardPage("/dashboard/customers?q=user-07", session: session)
        #expect(Self.rows(of: "customers", in: exact.text).map { $0.hasPrefix(">user-07<") } == [true])
        for query in ["user-0", "user", "USER-07", "ser-07"] {
            let page = try client.dashboardPage("/dashboard/customers?q=\(query)", session: session)
            #expect(page.status == 200)
            #expect(Self.rows(of: "customers", in: page.text).isEmpty, "q=\(query)")
            #expect(page.text.contains("No customer with that app user id."), "q=\(query)")
        }
    }

    @Test func commissionsAreFiftyAPageNewestFirstByCursor() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("payer")
        let client = server.client()
        // 51 renewals of 1.00 to 51.00: each pays 20 %, so a row's commission tells which purchase it is.
        for index in 1...51 {
            let body = RevenueCatPayload.purchase(
                index == 1 ? "INITIAL_PURCHASE" : "RENEWAL", user: "payer", price: "\(index).00",
                transaction: "renewal-\(index)")
            #expect(try client.deliver(body) == "commission_created")
        }
        let session = try client.dashboardSession()
        let first = try client.dashboardPage("/dashboard/commissions", session: session)
        #expect(first.status == 200)
        let firstRows = Self.rows(of: "commissions", in: first.text)
        #expect(firstRows.count == 50)
        #expect(firstRows.first?.contains("$10.20") == true, "newest first: 20 % of 51.00")
        #expect(firstRows.last?.contains("$0.40") == true, "20 % of 2.00")
        let next = try #require(Self.nextLink(in: first.text))
        #expect(next.hasPrefix("/dashboard/commissions?starting_after=comm_"), "\(next)")
        let second = try client.dashboardPage(next, session: session)
        let secondRows = Self.rows(of: "commissions", in: second.text)
        #expect(secondRows.count == 1 && secondRows.first?.contains("$0.20") == true, "\(secondRows)")
        #expect(Self.nextLink(in: second.text) == nil)
        #expect(second.text.contains(#"<a href="/dashboard/commissions">Newest</a>"#))
    }
}
