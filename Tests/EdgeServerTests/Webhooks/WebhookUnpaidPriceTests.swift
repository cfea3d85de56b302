import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Purchases that earn no share of a price, over a real socket: a family-shared one (the buyer's payment seen again
/// from a family member) and one whose price RevenueCat does not know (`price: null`).
@Suite struct WebhookUnpaidPriceTests {
    /// RevenueCat's `is_family_share`: the buyer's payment seen from a family member. No revenue, no commission,
    /// the customer stays a lead.
    @Test func aFamilySharedPurchasePaysNothing() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("fam1")
        let client = server.client()
        let shared = RevenueCatPayload.purchase(
            user: "fam1", price: "14.99", transaction: "fam-member", ["is_family_share": true])
        #expect(try client.deliver(shared) == "family_share")
        #expect(try client.commissions().isEmpty)
        let customer = try client.customer("fam1")
        #expect(customer["status"] as? String == "lead" && customer["revenue_cents"] as? Int == 0)
    }

    /// `price: null` is RevenueCat's "the price is unknown": the purchase is recorded (the customer is paying) with
    /// no revenue; a fixed amount is still paid, a percentage of it is not (`price_unknown`).
    @Test(arguments: StoreKind.allCases) func anUnknownPricePaysAFixedAmountButNoPercentage(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("np-percent")
        try server.claimUser("np-fixed", code: "LEE")
        let client = server.client()
        let unknown: [String: Any?] = ["price": NSNull(), "price_in_purchased_currency": NSNull()]
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "np-percent", price: "0", transaction: "np-1", unknown))
                == "price_unknown")
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "np-fixed", price: "0", transaction: "np-2", unknown))
                == "commission_created")
        let commissions = try client.commissions()
        #expect(commissions.map { $0["transaction_id"] as? String } == ["np-2"])
        #expect(commissions.first?["amount"] as? Int == 500 && commissions.first?["revenue_cents"] as? Int == 0)
        for user in ["np-percent", "np-fixed"] {
            let customer = try client.customer(user)
            #expect(customer["status"] as? String == "paying" && customer["revenue_cents"] as? Int == 0, "\(user)")
        }
        // The fixed rule pays the first paid purchase only: the unknown price was that one.
        #expect(
            try client.deliver(RevenueCatPayload.purchase("RENEWAL", user: "np-fixed", price: "5", transaction: "np-3"))
                == "purchase_recorded")
        // Its refund reverses it, as any other.
        #expect(try client.deliver(RevenueCatPayload.refund(user: "np-fixed", transaction: "np-2")) == "refunded")
        #expect(try client.commissions().first?["status"] as? String == "reversed")
    }
}
