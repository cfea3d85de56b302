import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Stripe subscriptions through RevenueCat: the `transaction_id` repeats for every period (RevenueCat's exports say
/// it is not unique for Stripe and advise keying by it with `renewal_number`), so each period is its own purchase.
@Suite struct WebhookStripeTests {
    static func stripe(
        _ type: String, user: String, subscription: String, period: Int, price: String, _ fields: [String: Any?] = [:]
    ) -> [UInt8] {
        var all: [String: Any?] = ["store": "STRIPE", "renewal_number": period]
        all.merge(fields) { $1 }
        return RevenueCatPayload.purchase(type, user: user, price: price, transaction: subscription, all)
    }

    @Test(arguments: StoreKind.allCases) func eachPeriodPaysAndARefundTakesBackItsOwnPeriod(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("s1")
        let client = server.client()
        #expect(
            try client.deliver(
                Self.stripe("INITIAL_PURCHASE", user: "s1", subscription: "sub_1", period: 1, price: "9.99"))
                == "commission_created")
        #expect(
            try client.deliver(Self.stripe("RENEWAL", user: "s1", subscription: "sub_1", period: 2, price: "9.99"))
                == "commission_created", "the second period is a purchase of its own")
        #expect(
            try client.deliver(Self.stripe("RENEWAL", user: "s1", subscription: "sub_1", period: 3, price: "9.99"))
                == "commission_created")
        // The same period again under another event id is still the same purchase.
        #expect(
            try client.deliver(Self.stripe("RENEWAL", user: "s1", subscription: "sub_1", period: 3, price: "9.99"))
                == "duplicate_transaction")
        var commissions = try client.commissions()
        #expect(commissions.count == 3)
        #expect(commissions.compactMap { $0["amount"] as? Int } == [200, 200, 200])
        #expect(Set(commissions.compactMap { $0["transaction_id"] as? String }) == ["sub_1#1", "sub_1#2", "sub_1#3"])

        let refund = Self.stripe(
            "CANCELLATION", user: "s1", subscription: "sub_1", period: 3, price: "0",
            ["cancel_reason": "CUSTOMER_SUPPORT"])
        #expect(try client.deliver(refund) == "refunded")
        commissions = try client.commissions()
        let reversed = commissions.filter { $0["status"] as? String == "reversed" }
        #expect(reversed.compactMap { $0["transaction_id"] as? String } == ["sub_1#3"], "only the refunded period")
        #expect(commissions.filter { $0["status"] as? String == "pending" }.count == 2)
    }

    /// A renewal reported under another user id (after a TRANSFER, say) finds the subscription's customer by its
    /// first period, as other stores' renewals find theirs by `original_transaction_id`.
    @Test func aRenewalUnderAnotherUserPaysTheSubscriptionsPartner() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("s2")
        let client = server.client()
        try client.deliver(Self.stripe("INITIAL_PURCHASE", user: "s2", subscription: "sub_2", period: 1, price: "9.99"))
        let moved = Self.stripe(
            "RENEWAL", user: "someone-else", subscription: "sub_2", period: 2, price: "9.99",
            ["aliases": ["someone-else"], "original_app_user_id": "someone-else"])
        #expect(try client.deliver(moved) == "commission_created")
        #expect(try client.commissions().count == 2)
    }
}
