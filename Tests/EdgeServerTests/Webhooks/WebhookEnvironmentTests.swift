import Foundation
import TestSupport
import Testing

/// What README says of an event's `environment` and `price` that no other test pins: only an event whose
/// `environment` is exactly `PRODUCTION` does anything (a missing one or another spelling is `sandbox`, whatever the
/// type), a price beyond ±$10,000,000 is read as absent, and `GET /v1/webhook_events` lists 1 to 20 a page, within
/// 1 MiB of bodies.
@Suite struct WebhookEnvironmentTests {
    @Test func anEventWhoseEnvironmentIsNotExactlyPRODUCTIONIsStoredAsSandboxWhateverItsType() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("e1")
        let client = server.client()
        // A TEST event without an environment: sandbox, where the table's `ignored` holds only for PRODUCTION.
        #expect(
            try client.deliver(RevenueCatPayload.make("TEST", ["environment": nil, "app_user_id": "e1"])) == "sandbox")
        #expect(try client.deliver(RevenueCatPayload.make("TEST", ["app_user_id": "e1"])) == "ignored")
        // A paying type with no environment, a null one, or another spelling: stored, and nothing paid or changed.
        let spellings: [(String, Any?)] = [
            ("missing", nil), ("null", NSNull()), ("lower case", "production"), ("padded", " PRODUCTION"),
            ("SANDBOX", "SANDBOX"),
        ]
        for (index, (label, environment)) in spellings.enumerated() {
            let body = RevenueCatPayload.purchase(
                user: "e1", price: "9.99", transaction: "env-\(index)", ["environment": environment])
            #expect(try client.deliver(body) == "sandbox", "\(label)")
        }
        #expect(try client.commissions().isEmpty, "no sandbox event pays")
        #expect(try client.customer("e1")["status"] as? String == "lead", "no sandbox event changes the customer")
        // The same purchase in PRODUCTION does pay: the environment alone made the difference.
        let production = RevenueCatPayload.purchase(user: "e1", price: "9.99", transaction: "env-production")
        #expect(try client.deliver(production) == "commission_created")
        #expect(try client.customer("e1")["status"] as? String == "paying")
    }

    @Test func aPriceBeyondTenMillionDollarsIsReadAsAbsent() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("p1")
        let client = server.client()
        // Ten million exactly is a price (20 % of it is two million dollars).
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "p1", price: "10000000", transaction: "big"))
                == "commission_created")
        #expect(try client.commissions().first?["amount"] as? Int == 200_000_000)
        for price in ["10000000.01", "2e7", "1e300", "92233720368547758"] {
            let body = RevenueCatPayload.purchase("RENEWAL", user: "p1", price: price, transaction: "over-\(price)")
            #expect(try client.deliver(body) == "free_purchase", "\(price) is no price")
        }
        // A negative price beyond the bound is no refund: the commission of its transaction stays pending.
        for price in ["-2e7", "-1e300"] {
            let body = RevenueCatPayload.purchase("RENEWAL", user: "p1", price: price, transaction: "big")
            #expect(try client.deliver(body) != "refunded", "\(price) is not a refund")
        }
        #expect(try client.commissions().map { $0["status"] as? String } == ["pending"])
        // Within the bound, a negative price is a refund.
        let refund = RevenueCatPayload.purchase("RENEWAL", user: "p1", price: "-9.99", transaction: "big")
        #expect(try client.deliver(refund) == "refunded")
        #expect(try client.commissions().map { $0["status"] as? String } == ["reversed"])
        #expect(try client.request("GET", "/healthz").status == 200)
    }

    @Test func webhookEventsAreListedOneToTwentyAPage() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        for index in 0..<23 {
            try client.deliver(RevenueCatPayload.make("TEST", id: "evt-\(index)", ["app_user_id": "nobody"]))
        }
        let authorization = [("Authorization", "Bearer sk_acme_secret")]
        for limit in ["0", "21", "-1", "abc"] {
            let response = try client.request("GET", "/v1/webhook_events?limit=\(limit)", headers: authorization)
            #expect(response.status == 400, "limit=\(limit): \(response.status)")
            #expect(response.jsonObject?["error"] as? String == "invalid_request", "limit=\(limit): \(response.text)")
        }
        let first = try client.request("GET", "/v1/webhook_events", headers: authorization)
        let firstPage = try #require(first.jsonObject?["data"] as? [[String: Any]], "\(first.text)")
        #expect(firstPage.count == 20, "no limit is 20")
        #expect(first.jsonObject?["has_more"] as? Bool == true)
        #expect(firstPage.first?["event_id"] as? String == "evt-22", "newest first")
        let last = try #require(firstPage.last?["event_id"] as? String)
        let rest = try client.request(
            "GET", "/v1/webhook_events?limit=20&starting_after=\(last)", headers: authorization)
        let restPage = try #require(rest.jsonObject?["data"] as? [[String: Any]], "\(rest.text)")
        #expect(restPage.map { $0["event_id"] as? String } == ["evt-2", "evt-1", "evt-0"])
        #expect(rest.jsonObject?["has_more"] as? Bool == false)
        let one = try client.request("GET", "/v1/webhook_events?limit=1", headers: authorization)
        #expect((one.jsonObject?["data"] as? [[String: Any]])?.count == 1)
    }

    /// A page of events holds at most 1 MiB of bodies (at least one event), however many its `limit` asks for: 20
    /// events of 1 MiB made a 20 MB answer that took seconds to send, copied whole on the loop thread that sent it.
    /// The page ends early with `has_more`, and its last event is the cursor of the next.
    @Test(arguments: StoreKind.allCases) func webhookEventPagesHoldAtMostAMebibyteOfBodies(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let client = server.client()
        /// An event whose body is about `kilobytes` KiB.
        func deliver(_ id: String, kilobytes: Int) throws {
            let padding = ["pad": ["updated_at_ms": 1, "value": String(repeating: "x", count: kilobytes * 1024)]]
            try client.deliver(
                RevenueCatPayload.make(
                    "TEST", id: id, ["app_user_id": "nobody", "subscriber_attributes": padding]))
        }
        // Oldest first: e1 small, e2 and e3 600 KiB, e4 small, e5 1,000 KiB.
        for (id, size) in [("e1", 0), ("e2", 600), ("e3", 600), ("e4", 0), ("e5", 1000)] {
            try deliver(id, kilobytes: size)
        }
        var pages: [[String]] = []
        var after: String?
        repeat {
            let response = try client.request(
                "GET", "/v1/webhook_events?limit=20" + (after.map { "&starting_after=\($0)" } ?? ""),
                headers: [("Authorization", "Bearer sk_acme_secret")])
            #expect(response.status == 200, "\(response.text)")
            #expect(response.body.count < 1_100_000, "\(after ?? "first page"): \(response.body.count) bytes")
            let events = try #require(response.jsonObject?["data"] as? [[String: Any]], "\(response.text)")
            pages.append(events.compactMap { $0["event_id"] as? String })
            after = response.jsonObject?["has_more"] as? Bool == true ? pages.last?.last : nil
        } while after != nil && pages.count < 10
        // e5 and e4 are 1,002 KiB together, e3 would pass the budget; e3 and e2 would pass it too.
        #expect(pages == [["e5", "e4"], ["e3"], ["e2", "e1"]])
    }
}
