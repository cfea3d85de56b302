import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

#if canImport(Glibc)
    import Glibc
#endif

/// `GET /v1/commissions` and `tolt-edge commissions`: paged, filtered, one organization at a time.
@Suite struct CommissionListTests {
    static let fields: Set<String> = [
        "id", "created_at", "partner_id", "program_id", "customer_id", "event_id", "transaction_id", "product_id",
        "revenue_cents", "amount", "currency", "status", "payout_id", "reversal_payout_id",
    ]

    /// Five commissions of `org_acme`: u1 (SAM20) three purchases, the second refunded; u2 (LEE) one; u3 (SAM20) one.
    static func populated(_ kind: StoreKind = .sqlite) throws -> TestServer {
        let server = try TestServer.webhooks(kind)
        try server.claimUser("u1")
        try server.claimUser("u2", code: "LEE")
        try server.claimUser("u3")
        let client = server.client()
        for (user, transaction) in [("u1", "p1"), ("u1", "p2"), ("u2", "p3"), ("u1", "p4"), ("u3", "p5")] {
            let type = transaction == "p1" || user != "u1" ? "INITIAL_PURCHASE" : "RENEWAL"
            try client.deliver(RevenueCatPayload.purchase(type, user: user, price: "2.50", transaction: transaction))
        }
        try client.deliver(RevenueCatPayload.refund(user: "u1", transaction: "p2"))
        return server
    }

    @Test func everyCommissionHasTheDocumentedFields() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        let commissions = try server.client().commissions()
        #expect(commissions.count == 5)
        for commission in commissions { #expect(Set(commission.keys) == Self.fields) }
        #expect(commissions.map { $0["transaction_id"] as? String } == ["p5", "p4", "p3", "p2", "p1"])
        #expect(commissions.map { $0["amount"] as? Int } == [50, 50, 500, 50, 50])
    }

    @Test func filtersAndPages() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        let client = server.client()
        func transactions(_ query: String) throws -> [String] {
            try client.commissions(query).map { $0["transaction_id"] as? String ?? "?" }
        }
        #expect(try transactions("partner_id=part_lee") == ["p3"])
        #expect(try transactions("customer_id=u1") == ["p4", "p2", "p1"])
        let u1 = try client.customer("u1")["id"] as? String ?? "?"
        #expect(try transactions("customer_id=\(u1)") == ["p4", "p2", "p1"], "by cust_ id too")
        #expect(try transactions("status=reversed") == ["p2"])
        #expect(try transactions("status=pending&partner_id=part_sam") == ["p5", "p4", "p1"])
        let first = try client.commissionPage("limit=2")
        let page = first["data"] as? [[String: Any]] ?? []
        #expect(page.count == 2 && first["has_more"] as? Bool == true)
        let last = page.last?["id"] as? String ?? "?"
        let second = try client.commissionPage("limit=2&starting_after=\(last)")
        #expect((second["data"] as? [[String: Any]])?.map { $0["transaction_id"] as? String } == ["p3", "p2"])
        let third = try client.commissionPage(
            "limit=2&starting_after=\((second["data"] as? [[String: Any]])?.last?["id"] as? String ?? "")")
        #expect((third["data"] as? [[String: Any]])?.count == 1 && third["has_more"] as? Bool == false)
    }

    @Test func badQueriesAndKeysAreRefused() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.request("GET", "/v1/commissions").isError(401, "unauthorized"))
        let wrong = try client.request("GET", "/v1/commissions", headers: [("Authorization", "Bearer pk_acme")])
        #expect(wrong.isError(401, "unauthorized"))
        for query in ["status=paid", "limit=0", "limit=101", "limit=x", "starting_after=clk_1"] {
            let response = try client.request(
                "GET", "/v1/commissions?\(query)", headers: [("Authorization", "Bearer sk_acme_secret")])
            #expect(response.isError(400, "invalid_request"), "\(query): \(response.text)")
        }
        #expect(try client.commissions(key: "sk_other_secret").isEmpty, "another organization sees none")
    }

    @Test func theCLIPrintsTheSameList() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        let binary = TestFiles.binary
        try #require(access(binary, X_OK) == 0, "build tolt-edge first (swift build): \(binary)")
        let client = server.client()
        let cases: [(arguments: [String], query: String)] = [
            (["--org", "org_acme"], ""),
            (["--org", "org_acme", "--partner-id", "part_sam", "--limit", "2"], "partner_id=part_sam&limit=2"),
            (["--org", "org_acme", "--customer-id", "u1", "--status", "reversed"], "customer_id=u1&status=reversed"),
        ]
        for (arguments, query) in cases {
            let run = try ChildProcess.run(
                ["commissions", "--data", server.directory] + arguments, outputIn: server.directory)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let printed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let api = try client.commissionPage(query)
            #expect(canonicalJSON(printed["data"] ?? "-") == canonicalJSON(api["data"] ?? "+"), "\(arguments)")
            #expect(printed["has_more"] as? Bool == api["has_more"] as? Bool, "\(arguments)")
            #expect((api["data"] as? [Any])?.isEmpty == false)
        }
        let bad = try ChildProcess.run(
            ["commissions", "--data", server.directory, "--org", "org_acme", "--status", "paid"],
            outputIn: server.directory)
        #expect(bad.status == 2 && bad.stderr.contains("--status must be one of pending, reversed"), "\(bad.stderr)")
    }

    @Test func webhookEventsAreListedWithTheirBodyAndOutcome() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        let response = try server.client().request(
            "GET", "/v1/webhook_events?limit=20", headers: [("Authorization", "Bearer sk_acme_secret")])
        let events = try #require(response.jsonObject?["data"] as? [[String: Any]], "\(response.text)")
        #expect(events.count == 6)
        #expect(events.first?["outcome"] as? String == "refunded")
        #expect(events.first?["type"] as? String == "CANCELLATION")
        let body = events.first?["body"] as? [String: Any]
        #expect((body?["event"] as? [String: Any])?["transaction_id"] as? String == "p2")
    }
}
