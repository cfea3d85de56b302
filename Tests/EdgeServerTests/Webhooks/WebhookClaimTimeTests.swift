import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Purchases made before the claim over a real socket (README, "Commission rules": they are not the partner's and
/// are not recorded): the webhook answers `before_claim` and nothing is paid, recorded or reversed.
@Suite struct WebhookClaimTimeTests {
    static let day: Int64 = 86_400_000

    /// A customer claimed now, then an `INITIAL_PURCHASE` dated 60 days earlier: `before_claim`, no commission, its
    /// refund `before_claim` too, and the first renewal after the claim pays.
    @Test(arguments: StoreKind.allCases) func aPurchaseMadeBeforeTheClaimEarnsNothing(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("pre1")
        let client = server.client()
        let now = WallClock.milliseconds()
        let before = now - 60 * Self.day
        let purchase = RevenueCatPayload.purchase(
            user: "pre1", price: "9.99", transaction: "pre-0", ["purchased_at_ms": before, "event_timestamp_ms": now])
        #expect(try client.deliver(purchase) == "before_claim")
        #expect(try client.commissions().isEmpty)
        var customer = try client.customer("pre1")
        #expect(customer["status"] as? String == "lead")
        #expect(customer["revenue_cents"] as? Int == 0)
        // Its refund, and the refund's reversal, find nothing to take back and keep nothing for later.
        let refund = RevenueCatPayload.refund(
            user: "pre1", transaction: "pre-0",
            ["price": RevenueCatPayload.Raw("-9.99"), "purchased_at_ms": before, "event_timestamp_ms": now + 1_000])
        #expect(try client.deliver(refund) == "before_claim")
        let reversal = RevenueCatPayload.purchase(
            "REFUND_REVERSED", user: "pre1", price: "9.99", transaction: "pre-0",
            ["purchased_at_ms": before, "event_timestamp_ms": now + 2_000])
        #expect(try client.deliver(reversal) == "before_claim")
        #expect(try client.commissions().isEmpty)
        customer = try client.customer("pre1")
        #expect(customer["status"] as? String == "lead")
        // A renewal made after the claim is the partner's.
        let renewal = RevenueCatPayload.purchase(
            "RENEWAL", user: "pre1", price: "10", transaction: "pre-1",
            ["purchased_at_ms": now + 3_000, "event_timestamp_ms": now + 3_000])
        #expect(try client.deliver(renewal) == "commission_created")
        #expect(try client.commissions().map { $0["transaction_id"] as? String } == ["pre-1"])
        customer = try client.customer("pre1")
        #expect(customer["status"] as? String == "paying")
        #expect(customer["revenue_cents"] as? Int == 1000)
        #expect(customer["commission_cents"] as? Int == 200)
        // The event list says what each did.
        let response = try client.request(
            "GET", "/v1/webhook_events", headers: [("Authorization", "Bearer sk_acme_secret")])
        let events = try #require(response.jsonObject?["data"] as? [[String: Any]], "\(response.text)")
        #expect(
            events.map { $0["outcome"] as? String }
                == ["commission_created", "before_claim", "before_claim", "before_claim"])
    }

    /// `recurring: false` (`prg_play`, code `LEE`: 500 cents on the first paid purchase only) pays the first paid
    /// purchase made after the claim, even when the subscription was bought before it: the purchase before the
    /// claim is not the customer's first paid purchase, for it is not recorded.
    @Test(arguments: StoreKind.allCases) func theFirstPurchaseAfterTheClaimIsTheFirstPaidPurchase(kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("pre2", code: "LEE")
        let client = server.client()
        let now = WallClock.milliseconds()
        func purchase(_ type: String, _ transaction: String, at time: Int64) throws -> String {
            try client.deliver(
                RevenueCatPayload.purchase(
                    type, user: "pre2", price: "4.99", transaction: transaction,
                    ["purchased_at_ms": time, "event_timestamp_ms": max(time, now)]))
        }
        #expect(try purchase("INITIAL_PURCHASE", "lee-0", at: now - 30 * Self.day) == "before_claim")
        #expect(try purchase("RENEWAL", "lee-1", at: now + 1_000) == "commission_created")
        #expect(try purchase("RENEWAL", "lee-2", at: now + 2_000) == "purchase_recorded")
        #expect(try client.commissions().map { $0["amount"] as? Int } == [500])
        #expect(try client.customer("pre2")["revenue_cents"] as? Int == 998)
    }
}
