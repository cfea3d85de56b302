import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

#if canImport(Glibc)
    import Glibc
#endif

/// `GET /v1/customers` and `tolt-edge customers`: the customers claims created, paged and filtered, one
/// organization at a time.
@Suite struct CustomerListTests {
    static let fields: Set<String> = [
        "id", "customer_id", "partner_id", "program_id", "code", "click_id", "status", "claimed_at", "first_seen_at",
        "revenue_cents", "commission_cents", "aliases", "aliases_truncated",
    ]

    /// A server with five customers of `org_acme` (u1…u5, u4 by click) and one of `org_other`.
    static func populated() throws -> (server: TestServer, click: String) {
        let server = try TestServer()
        let client = server.client()
        let click = try ClaimClickTests.openLink(client)
        let seen = WallClock.iso(offset: -.hour)
        let claims = [
            ClaimBody.make(user: "u1", code: "SAM20", firstSeenAt: seen), ClaimBody.make(user: "u2", code: "LEE"),
            ClaimBody.make(user: "u3", code: "BARE1"), ClaimBody.make(user: "u4", clickID: click, firstSeenAt: seen),
            ClaimBody.make(user: "u5", code: "sam20", firstSeenAt: seen),
            ClaimBody.make(publicID: "pk_other", user: "z1", code: "ZED"),
        ]
        for body in claims {
            let response = try client.claim(body)
            guard response.status == 200 else { throw TestError("\(body): \(response.status) \(response.text)") }
        }
        return (server, click)
    }

    static func users(_ customers: [[String: Any]]) -> [String] {
        customers.map { $0["customer_id"] as? String ?? "?" }
    }

    @Test func aSecretKeyIsRequired() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.request("GET", "/v1/customers").isError(401, "unauthorized"))
        for header in ["Bearer sk_nope", "Bearer pk_acme", "Basic sk_acme_secret", "sk_acme_secret", "Bearer "] {
            let response = try client.request("GET", "/v1/customers", headers: [("Authorization", header)])
            #expect(response.isError(401, "unauthorized"), "\(header): \(response.status)")
        }
    }

    @Test func everyCustomerHasTheDocumentedFields() throws {
        let (server, click) = try Self.populated()
        defer { server.shutdown() }
        let page = try server.client().customerPage()
        #expect(page["has_more"] as? Bool == false)
        let customers = try #require(page["data"] as? [[String: Any]])
        #expect(Self.users(customers) == ["u5", "u4", "u3", "u2", "u1"])  // newest first
        let now = WallClock.milliseconds()
        for customer in customers {
            #expect(Set(customer.keys) == Self.fields)
            #expect((customer["id"] as? String)?.hasPrefix("cust_") == true)
            #expect(customer["status"] as? String == "lead")
            let claimed = try #require((customer["claimed_at"] as? String).flatMap(Timestamp.parse))
            #expect(abs(now - claimed) < 60_000)
        }
        let byUser = Dictionary(uniqueKeysWithValues: customers.map { ($0["customer_id"] as! String, $0) })
        #expect(byUser["u4"]?["click_id"] as? String == click)
        for user in ["u1", "u2", "u3", "u5"] { #expect(byUser[user]?["click_id"] is NSNull, "\(user)") }
        #expect(byUser["u2"]?["first_seen_at"] is NSNull)
        #expect(byUser["u1"]?["first_seen_at"] is String)
        #expect(byUser["u3"]?["program_id"] as? String == "prg_bare")
        #expect(byUser["u3"]?["partner_id"] as? String == "part_bo")
        #expect(byUser["u5"]?["code"] as? String == "SAM20")
        #expect(Set(customers.compactMap { $0["id"] as? String }).count == 5)
    }

    @Test func pagesFollowStartingAfter() throws {
        let (server, _) = try Self.populated()
        defer { server.shutdown() }
        let client = server.client()
        var users: [String] = []
        var after: String?
        var pages = 0
        while pages < 10 {
            let page = try client.customerPage("limit=2" + (after.map { "&starting_after=\($0)" } ?? ""))
            let data = try #require(page["data"] as? [[String: Any]])
            users += Self.users(data)
            pages += 1
            #expect(data.count == (pages < 3 ? 2 : 1))
            guard page["has_more"] as? Bool == true else { break }
            after = data.last?["id"] as? String
        }
        #expect(pages == 3)
        #expect(users == ["u5", "u4", "u3", "u2", "u1"])
        for query in ["limit=0", "limit=101", "limit=ten"] {
            let response = try client.request(
                "GET", "/v1/customers?" + query, headers: [("Authorization", "Bearer sk_acme_secret")])
            #expect(response.isError(400, "invalid_request") && response.message.contains("limit"), "\(query)")
        }
    }

    @Test func filtersByPartnerStatusAndCustomer() throws {
        let (server, _) = try Self.populated()
        defer { server.shutdown() }
        let client = server.client()
        #expect(Self.users(try client.customers("partner_id=part_sam")) == ["u5", "u4", "u1"])
        #expect(Self.users(try client.customers("partner_id=part_lee")) == ["u2"])
        #expect(Self.users(try client.customers("customer_id=u3")) == ["u3"])
        #expect(Self.users(try client.customers("customer_id=U3")) == [])
        // The customer's own id too, as the commissions' filter takes it (it found nothing).
        let id = try #require(try client.customers("customer_id=u3").first?["id"] as? String)
        #expect(id.hasPrefix("cust_"))
        #expect(Self.users(try client.customers("customer_id=\(id)")) == ["u3"])
        #expect(Self.users(try client.customers("customer_id=\(id)&partner_id=part_sam")) == [])
        #expect(Self.users(try client.customers("status=lead")).count == 5)
        #expect(Self.users(try client.customers("status=paying")) == [])
        #expect(Self.users(try client.customers("status=lead&partner_id=part_sam&limit=1")) == ["u5"])
        let bad = try client.request(
            "GET", "/v1/customers?status=vip", headers: [("Authorization", "Bearer sk_acme_secret")])
        #expect(bad.isError(400, "invalid_request") && bad.message.contains("status"))
        let badCursor = try client.request(
            "GET", "/v1/customers?starting_after=clk_nope", headers: [("Authorization", "Bearer sk_acme_secret")])
        #expect(badCursor.isError(400, "invalid_request") && badCursor.message.contains("starting_after"))
    }

    @Test func anotherOrganizationsCustomersAreInvisible() throws {
        let (server, _) = try Self.populated()
        defer { server.shutdown() }
        let client = server.client()
        #expect(!Self.users(try client.customers()).contains("z1"))
        #expect(Self.users(try client.customers("customer_id=z1")) == [])
        let zed = try client.request(
            "GET", "/v1/customers?partner_id=part_zed", headers: [("Authorization", "Bearer sk_acme_secret")])
        #expect(zed.isError(400, "invalid_request"), "\(zed.text)")
        #expect(zed.message == "partner_id part_zed is not a partner of this organization", "\(zed.text)")
        let other = try client.customers(key: "sk_other_secret")
        #expect(Self.users(other) == ["z1"])
        #expect(other.first?["partner_id"] as? String == "part_zed")
    }

    @Test func theCLIPrintsTheSameList() throws {
        let (server, _) = try Self.populated()
        defer { server.shutdown() }
        let binary = TestFiles.binary
        try #require(access(binary, X_OK) == 0, "build tolt-edge first (swift build): \(binary)")
        let client = server.client()
        let cases: [(arguments: [String], query: String, key: String)] = [
            (["--org", "org_acme"], "", "sk_acme_secret"),
            (
                ["--org", "org_acme", "--partner-id", "part_sam", "--limit", "2"], "partner_id=part_sam&limit=2",
                "sk_acme_secret"
            ),
            (["--org", "org_acme", "--customer-id", "u4"], "customer_id=u4", "sk_acme_secret"),
            (["--org", "org_other"], "", "sk_other_secret"),
        ]
        for (arguments, query, key) in cases {
            let run = try ChildProcess.run(
                ["customers", "--data", server.directory] + arguments, outputIn: server.directory)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let printed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let api = try client.customerPage(query, key: key)
            #expect(canonicalJSON(printed["data"] ?? "-") == canonicalJSON(api["data"] ?? "+"), "\(arguments)")
            #expect(printed["has_more"] as? Bool == api["has_more"] as? Bool, "\(arguments)")
            #expect((api["data"] as? [Any])?.isEmpty == false)
        }
        let ambiguous = try ChildProcess.run(["customers", "--data", server.directory], outputIn: server.directory)
        #expect(ambiguous.status != 0 && ambiguous.stderr.contains("--org"))
    }
}
