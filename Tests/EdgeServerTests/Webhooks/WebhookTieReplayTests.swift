import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Over a real socket: a purchase stored `unattributed` under an id that a later event ties to a customer (a
/// renewal naming a new device's `$RCAnonymousID`) is paid when the tie lands, as a claim would apply it, so the
/// order of arrival does not decide whether it pays (SECURITY.md); the tie can no longer be claimed away.
@Suite struct WebhookTieReplayTests {
    /// Whether the anonymous purchase arrives before the renewal that ties its id, or after it.
    enum Order: CaseIterable, Sendable { case purchaseFirst, renewalFirst }

    /// REVIEW14 finding 1: a purchase of the new device's anonymous id, then (or before) the renewal that ties the id
    /// to the subscription's customer. Either way it pays once, and redelivering either event changes nothing; the
    /// tie's replay is counted in `tolt_edge_webhook_replayed_events_total`.
    @Test(arguments: StoreKind.allCases, Order.allCases)
    func aPurchaseOfAnIDARenewalTiesIsPaidOnceInEitherOrder(kind: StoreKind, order: Order) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("user_42")
        let client = server.client()
        let anonymous = "$RCAnonymousID:n1"
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "user_42", price: "9.99", transaction: "G1"))
                == "commission_created")
        let purchase = RevenueCatPayload.purchase(user: anonymous, price: "9.99", transaction: "G5")
        let renewal = WebhookTiedIDTests.renewal(
            user: "user_42", aliases: ["user_42", anonymous], transaction: "G1b", of: "G1")
        switch order {
        case .purchaseFirst:
            #expect(try client.deliver(purchase) == "unattributed")
            #expect(try client.deliver(renewal) == "commission_created")
            // The stored purchase says what the tie made it do, and when.
            let stored = try #require(try Self.events(client).first { Self.transaction(of: $0) == "G5" })
            #expect(stored["outcome"] as? String == "commission_created", "\(stored)")
            #expect(stored["customer"] as? String == (try client.customer("user_42")["id"] as? String))
            let attributedAt = try #require(stored["attributed_at"] as? String, "\(stored)")
            let tying = try #require(try Self.events(client).first { Self.transaction(of: $0) == "G1b" })
            #expect(attributedAt == tying["received_at"] as? String)
        case .renewalFirst:
            #expect(try client.deliver(renewal) == "commission_created")
            #expect(try client.deliver(purchase) == "commission_created")
        }
        // What the tie made the stored purchase do is counted apart from arrivals and from claims' replays (the
        // store's answer dropped it, so it was counted nowhere).
        let metrics = try MetricsTests.scrape(client)
        let replays = "tolt_edge_webhook_replayed_events_total"
        #expect(metrics.value(replays, ["outcome": "commission_created"]) == (order == .purchaseFirst ? 1 : 0))
        #expect(metrics.value(replays, ["outcome": "unattributed"]) == 0)
        #expect(metrics.value("tolt_edge_claim_replayed_events_total", ["outcome": "commission_created"]) == 0)
        for body in [purchase, renewal] { #expect(try client.deliver(body) == "duplicate") }
        #expect(try Self.paid(client) == ["G1", "G1b", "G5"])
        #expect(try client.customer("user_42")["commission_cents"] as? Int == 600)
        let claim = try client.claim(ClaimBody.recent(user: anonymous, code: "LEE"))
        #expect(claim.isAlreadyClaimed(user: anonymous, sameClaim: false), "\(claim.text)")
        #expect(try Self.paid(client) == ["G1", "G1b", "G5"])
    }

    /// A claim applies its user's stored events and the events of the ids those tie in turn: the purchase stored under
    /// the anonymous id alone is paid when the claim's replay of a purchase naming both ties it.
    @Test(arguments: StoreKind.allCases) func aClaimAppliesTheEventsOfIDsItsReplaysTie(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let client = server.client()
        let anonymous = "$RCAnonymousID:c1"
        let named = RevenueCatPayload.purchase(
            user: "chain-user", price: "9.99", transaction: "C1", ["aliases": ["chain-user", anonymous]])
        #expect(try client.deliver(named) == "unattributed")
        let alone = RevenueCatPayload.purchase(user: anonymous, price: "9.99", transaction: "C2")
        #expect(try client.deliver(alone) == "unattributed")
        try server.claimUser("chain-user")
        #expect(try Self.paid(client) == ["C1", "C2"])
        let replays = try MetricsTests.scrape(client).value(
            "tolt_edge_claim_replayed_events_total", ["outcome": "commission_created"])
        #expect(replays == 2)
    }

    /// At most `CommissionPlanner.claimReplayLimit` stored events are applied for one delivery, the events of ids
    /// its replays tie included: 45 purchases of one anonymous id, the oldest naming a second id with 10 of its own;
    /// the tie applies the 45 and the 5 oldest of the second id's, and leaves the rest `unattributed`.
    @Test(arguments: StoreKind.allCases) func aTieAppliesAtMostTheReplayLimitChainsIncluded(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("bound-user")
        let client = server.client()
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "bound-user", price: "9.99", transaction: "B0"))
                == "commission_created")
        let first = "$RCAnonymousID:b1"
        let second = "$RCAnonymousID:b2"
        let start = WallClock.milliseconds()
        func purchase(_ user: String, _ index: Int, aliases: [String]) -> [UInt8] {
            RevenueCatPayload.purchase(
                user: user, price: "9.99", transaction: "\(user)-\(index)",
                ["aliases": aliases, "event_timestamp_ms": start + Int64(index), "purchased_at_ms": start])
        }
        #expect(try client.deliver(purchase(first, 0, aliases: [first, second])) == "unattributed")
        for index in 1..<45 { #expect(try client.deliver(purchase(first, index, aliases: [first])) == "unattributed") }
        for index in 0..<10 {
            #expect(try client.deliver(purchase(second, index, aliases: [second])) == "unattributed")
        }
        let renewal = WebhookTiedIDTests.renewal(
            user: "bound-user", aliases: ["bound-user", first], transaction: "B1", of: "B0")
        #expect(try client.deliver(renewal) == "commission_created")
        let limit = CommissionPlanner.claimReplayLimit
        #expect(limit == 50)
        let paid = try Self.paid(client)
        #expect(paid.count == 2 + limit)
        #expect(Set(paid) == Set(["B0", "B1"] + (0..<45).map { "\(first)-\($0)" } + (0..<5).map { "\(second)-\($0)" }))
        #expect(try client.deliver(renewal) == "duplicate")
        #expect(try Self.paid(client).count == 2 + limit)
    }

    /// The transaction ids paid, oldest first.
    static func paid(_ client: HTTPClient) throws -> [String] {
        try client.commissions("limit=100").reversed().compactMap { $0["transaction_id"] as? String }
    }

    /// The stored webhook events, newest first (up to 20).
    static func events(_ client: HTTPClient) throws -> [[String: Any]] {
        let response = try client.request(
            "GET", "/v1/webhook_events", headers: [("Authorization", "Bearer sk_acme_secret")])
        return response.jsonObject?["data"] as? [[String: Any]] ?? []
    }

    /// The `transaction_id` of a listed event's body.
    static func transaction(of event: [String: Any]) -> String? {
        ((event["body"] as? [String: Any])?["event"] as? [String: Any])?["transaction_id"] as? String
    }
}
