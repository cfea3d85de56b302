import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Refunds take a commission back, reversals put it back, and a refund that arrives before its purchase
/// waits for it.
@Suite struct WebhookRefundTests {
    @Test func aRefundReversesTheCommissionAndItsReversalPutsItBack() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("r1")
        let client = server.client()
        try client.deliver(RevenueCatPayload.purchase(user: "r1", price: "9.99", transaction: "r-1"))
        #expect(try client.deliver(RevenueCatPayload.refund(user: "r1", transaction: "r-1")) == "refunded")
        #expect(try client.commissions().map { $0["status"] as? String } == ["reversed"])
        var customer = try client.customer("r1")
        #expect(customer["status"] as? String == "refunded")
        #expect(customer["revenue_cents"] as? Int == 0)
        #expect(customer["commission_cents"] as? Int == 0)
        #expect(try client.commissions("status=reversed").count == 1)
        #expect(try client.commissions("status=pending").isEmpty)

        let reversal = RevenueCatPayload.purchase("REFUND_REVERSED", user: "r1", price: "0", transaction: "r-1")
        #expect(try client.deliver(reversal) == "refund_reversed")
        #expect(try client.commissions().map { $0["status"] as? String } == ["pending"])
        customer = try client.customer("r1")
        #expect(customer["status"] as? String == "paying")
        #expect(customer["revenue_cents"] as? Int == 999)
        #expect(customer["commission_cents"] as? Int == 200)
    }

    /// README, the commission rules: `recurring: false` pays the first purchase not refunded, and a refund reversed
    /// later restores its own commission, so purchase → refund → renewal → refund reversed leaves two pending.
    @Test func aNonRecurringProgramKeepsTwoCommissionsWhenARefundBeforeARenewalIsReversed() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("once", code: "LEE")  // Acme Lite: 500 cents, `recurring: false`
        let client = server.client()
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "once", price: "9.99", transaction: "o-1"))
                == "commission_created")
        #expect(try client.deliver(RevenueCatPayload.refund(user: "once", transaction: "o-1")) == "refunded")
        let renewal = RevenueCatPayload.purchase("RENEWAL", user: "once", price: "9.99", transaction: "o-2")
        #expect(try client.deliver(renewal) == "commission_created", "the first purchase not refunded")
        let reversal = RevenueCatPayload.purchase("REFUND_REVERSED", user: "once", price: "0", transaction: "o-1")
        #expect(try client.deliver(reversal) == "refund_reversed")
        let commissions = try client.commissions()
        #expect(commissions.map { $0["status"] as? String } == ["pending", "pending"])
        #expect(commissions.map { $0["amount"] as? Int } == [500, 500])
    }

    @Test func aNegativePriceIsARefundOfItsTransaction() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("n1")
        let client = server.client()
        try client.deliver(RevenueCatPayload.purchase(user: "n1", price: "4.99", transaction: "n-1"))
        try client.deliver(RevenueCatPayload.purchase("RENEWAL", user: "n1", price: "4.99", transaction: "n-2"))
        let negative = RevenueCatPayload.purchase(
            "NON_RENEWING_PURCHASE", user: "n1", price: "-4.99", transaction: "n-2")
        #expect(try client.deliver(negative) == "refunded")
        #expect(try client.commissions().map { $0["status"] as? String } == ["reversed", "pending"])
        let customer = try client.customer("n1")
        #expect(customer["status"] as? String == "paying", "one purchase of two is still paid")
        #expect(customer["revenue_cents"] as? Int == 499)
    }

    @Test func aRefundBeforeItsPurchaseIsAppliedWhenThePurchaseArrives() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("o1")
        let client = server.client()
        let now = WallClock.milliseconds()
        let refund = RevenueCatPayload.refund(user: "o1", transaction: "o-1", ["event_timestamp_ms": now])
        #expect(try client.deliver(refund) == "refunded")
        #expect(try client.commissions().isEmpty)
        let purchase = RevenueCatPayload.purchase(
            user: "o1", price: "9.99", transaction: "o-1",
            ["event_timestamp_ms": now - 60_000, "purchased_at_ms": now - 60_000])
        #expect(try client.deliver(purchase) == "commission_created")
        #expect(try client.commissions().map { $0["status"] as? String } == ["reversed"])
        let customer = try client.customer("o1")
        #expect(customer["status"] as? String == "refunded")
        #expect(customer["commission_cents"] as? Int == 0)
    }

    @Test func anOlderReversalArrivingLateDoesNotUndoANewerRefund() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("l1")
        let client = server.client()
        let now = WallClock.milliseconds()
        try client.deliver(
            RevenueCatPayload.purchase(
                user: "l1", price: "9.99", transaction: "l-1", ["event_timestamp_ms": now - 3_000]))
        try client.deliver(RevenueCatPayload.refund(user: "l1", transaction: "l-1", ["event_timestamp_ms": now]))
        let late = RevenueCatPayload.purchase(
            "REFUND_REVERSED", user: "l1", price: "0", transaction: "l-1", ["event_timestamp_ms": now - 1_000])
        #expect(try client.deliver(late) == "stale_refund")
        #expect(try client.commissions().map { $0["status"] as? String } == ["reversed"])
    }

    @Test func cancellationAndExpirationCancelButOnlyCustomerSupportRefunds() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("c1")
        try server.claimUser("c2")
        let client = server.client()
        try client.deliver(RevenueCatPayload.purchase(user: "c1", price: "9.99", transaction: "c-1"))
        try client.deliver(RevenueCatPayload.purchase(user: "c2", price: "9.99", transaction: "c-2"))
        let unsubscribe = RevenueCatPayload.purchase(
            "CANCELLATION", user: "c1", price: "0", transaction: "c-1", ["cancel_reason": "UNSUBSCRIBE"])
        #expect(try client.deliver(unsubscribe) == "status_changed")
        #expect(try client.customer("c1")["status"] as? String == "canceled")
        #expect(try client.commissions("customer_id=c1").map { $0["status"] as? String } == ["pending"])
        let uncancel = RevenueCatPayload.purchase("UNCANCELLATION", user: "c1", price: "0", transaction: "c-1")
        #expect(try client.deliver(uncancel) == "status_changed")
        #expect(try client.customer("c1")["status"] as? String == "paying")
        let expiration = RevenueCatPayload.purchase(
            "EXPIRATION", user: "c2", price: "0", transaction: "c-2", ["expiration_reason": "UNSUBSCRIBE"])
        #expect(try client.deliver(expiration) == "status_changed")
        #expect(try client.customer("c2")["status"] as? String == "canceled")
        #expect(try client.commissions("customer_id=c2").map { $0["status"] as? String } == ["pending"])
    }
}
