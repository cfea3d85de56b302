import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Stripe subscriptions through RevenueCat: the `transaction_id` repeats for every period (RevenueCat's exports say
/// it is not unique for Stripe and advise keying by it with `renewal_number`), so each period is its own purchase.
@Suite struct WebhookStripeTests {
    /// A Stripe event of `subscription`'s period `period` (`nil`: without `renewal_number`, as a store that recorded
    /// Stripe purchases before they were keyed by period holds them, bare).
    static func stripe(
        _ type: String, user: String, subscription: String, period: Int?, price: String,
        _ fields: [String: Any?] = [:]
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

    /// A store that recorded a Stripe purchase before periods were keyed holds it under the bare id (`sub_B`), as a
    /// purchase event without a period is still kept: a delivery of `b1`'s first period without a period.
    static func upgradedStore(_ kind: StoreKind) throws -> TestServer {
        let server = try TestServer.webhooks(kind)
        try server.claimUser("b1")
        let bare = Self.stripe("INITIAL_PURCHASE", user: "b1", subscription: "sub_B", period: nil, price: "9.99")
        guard try server.client().deliver(bare) == "commission_created",
            try server.client().commissions().compactMap({ $0["transaction_id"] as? String }) == ["sub_B"]
        else { throw TestError("the bare purchase was not recorded as sub_B") }
        return server
    }

    /// The bare row's first period redelivered with its period under a new event id is the same purchase, not a
    /// second commission beside it.
    @Test(arguments: StoreKind.allCases) func anUpgradedStoresFirstPeriodIsNotPaidTwice(kind: StoreKind) throws {
        let server = try Self.upgradedStore(kind)
        defer { server.shutdown() }
        let client = server.client()
        #expect(
            try client.deliver(
                Self.stripe("INITIAL_PURCHASE", user: "b1", subscription: "sub_B", period: 1, price: "9.99"))
                == "duplicate_transaction")
        #expect(try client.commissions().count == 1)
        // A later period is a purchase of its own: the bare row stands for one period, not every one.
        #expect(
            try client.deliver(Self.stripe("RENEWAL", user: "b1", subscription: "sub_B", period: 2, price: "9.99"))
                == "commission_created")
        #expect(Set(try client.commissions().compactMap { $0["transaction_id"] as? String }) == ["sub_B", "sub_B#2"])
    }

    /// A renewal reported under a user id nobody claimed (a new device, a TRANSFER's new id) finds the
    /// subscription's customer by the bare row, as by `#1`.
    @Test(arguments: StoreKind.allCases) func anUpgradedStoresRenewalUnderAnotherUserIsAttributed(kind: StoreKind)
        throws
    {
        let server = try Self.upgradedStore(kind)
        defer { server.shutdown() }
        let client = server.client()
        let moved = Self.stripe(
            "RENEWAL", user: "b1-elsewhere", subscription: "sub_B", period: 2, price: "9.99",
            ["aliases": ["b1-elsewhere"], "original_app_user_id": "b1-elsewhere"])
        #expect(try client.deliver(moved) == "commission_created", "a period of its own, for the same partner")
        let commissions = try client.commissions()
        #expect(Set(commissions.compactMap { $0["transaction_id"] as? String }) == ["sub_B", "sub_B#2"])
        #expect(commissions.allSatisfy { $0["customer_id"] as? String == "b1" })
    }

    /// The refund of the bare row's period, now keyed `#1`, takes back the bare row's commission.
    @Test(arguments: StoreKind.allCases) func anUpgradedStoresRefundReversesTheBareRow(kind: StoreKind) throws {
        let server = try Self.upgradedStore(kind)
        defer { server.shutdown() }
        let client = server.client()
        let refund = Self.stripe(
            "CANCELLATION", user: "b1", subscription: "sub_B", period: 1, price: "0",
            ["cancel_reason": "CUSTOMER_SUPPORT"])
        #expect(try client.deliver(refund) == "refunded")
        #expect(try client.commissions().compactMap { $0["status"] as? String } == ["reversed"])
        let reversal = Self.stripe("REFUND_REVERSED", user: "b1", subscription: "sub_B", period: 1, price: "0")
        #expect(try client.deliver(reversal) == "refund_reversed")
        #expect(try client.commissions().compactMap { $0["status"] as? String } == ["pending"])
    }

    /// A subscription claimed in its third period recorded that period bare: its redelivery with its period (the
    /// same purchase time) is the same purchase; another period is not.
    @Test(arguments: StoreKind.allCases) func aBarePeriodIsKnownByItsPurchaseTime(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("b3")
        let client = server.client()
        let boughtAt = WallClock.milliseconds() - 1000
        #expect(
            try client.deliver(
                Self.stripe(
                    "RENEWAL", user: "b3", subscription: "sub_T", period: nil, price: "9.99",
                    ["purchased_at_ms": boughtAt])) == "commission_created")
        #expect(
            try client.deliver(
                Self.stripe(
                    "RENEWAL", user: "b3", subscription: "sub_T", period: 3, price: "9.99",
                    ["purchased_at_ms": boughtAt])) == "duplicate_transaction")
        #expect(
            try client.deliver(Self.stripe("RENEWAL", user: "b3", subscription: "sub_T", period: 4, price: "9.99"))
                == "commission_created")
        #expect(Set(try client.commissions().compactMap { $0["transaction_id"] as? String }) == ["sub_T", "sub_T#4"])
    }

    /// RevenueCat reports a refund of the latest period; one that does not say which (`"renewal_number": null`)
    /// takes back the latest the customer has, by number (`#10` after `#9`), and its reversal puts it back.
    @Test(arguments: StoreKind.allCases) func aRefundWithoutAPeriodTakesBackTheLatestPeriod(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("s3")
        let client = server.client()
        for period in 1...10 {
            #expect(
                try client.deliver(
                    Self.stripe(
                        period == 1 ? "INITIAL_PURCHASE" : "RENEWAL", user: "s3", subscription: "sub_A",
                        period: period, price: "9.99")) == "commission_created")
        }
        let refund = Self.stripe(
            "CANCELLATION", user: "s3", subscription: "sub_A", period: nil, price: "0",
            ["cancel_reason": "CUSTOMER_SUPPORT", "renewal_number": NSNull()])
        #expect(try client.deliver(refund) == "refunded")
        var commissions = try client.commissions()
        #expect(
            commissions.filter { $0["status"] as? String == "reversed" }.compactMap { $0["transaction_id"] as? String }
                == ["sub_A#10"])
        #expect(commissions.count == 10)
        let reversal = Self.stripe(
            "REFUND_REVERSED", user: "s3", subscription: "sub_A", period: nil, price: "0",
            ["renewal_number": NSNull()])
        #expect(try client.deliver(reversal) == "refund_reversed")
        commissions = try client.commissions()
        #expect(commissions.allSatisfy { $0["status"] as? String == "pending" })
        #expect(commissions.count == 10)
    }

    /// In an upgraded store, a refund without a period takes back the latest keyed period over the bare one (the
    /// first, recorded before the upgrade); with only the bare row, that row.
    @Test(arguments: StoreKind.allCases) func aRefundWithoutAPeriodPrefersKeyedPeriodsToTheBareRow(kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("s4")
        let client = server.client()
        try client.deliver(
            Self.stripe("INITIAL_PURCHASE", user: "s4", subscription: "sub_U", period: nil, price: "9.99"))
        func refund() -> [UInt8] {
            Self.stripe(
                "CANCELLATION", user: "s4", subscription: "sub_U", period: nil, price: "0",
                ["cancel_reason": "CUSTOMER_SUPPORT"])
        }
        #expect(try client.deliver(refund()) == "refunded")
        #expect(try client.commissions().compactMap { $0["status"] as? String } == ["reversed"])
        #expect(
            try client.deliver(
                Self.stripe(
                    "REFUND_REVERSED", user: "s4", subscription: "sub_U", period: nil, price: "0")) == "refund_reversed"
        )
        try client.deliver(Self.stripe("RENEWAL", user: "s4", subscription: "sub_U", period: 2, price: "9.99"))
        #expect(try client.deliver(refund()) == "refunded")
        let reversed = try client.commissions().filter { $0["status"] as? String == "reversed" }
        #expect(reversed.compactMap { $0["transaction_id"] as? String } == ["sub_U#2"])
    }

    /// `renewal_number` is RevenueCat's integer from 1: any spelling of one is read (`1e3` is period 1000); in a Stripe
    /// event any other number is refused, naming the field, and stores nothing (read as absent, `0` paid the period
    /// again bare); another store's event is taken whatever it says.
    @Test(arguments: StoreKind.allCases) func renewalNumbersAreIntegersFromOne(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("s5")
        let client = server.client()
        try client.deliver(Self.stripe("INITIAL_PURCHASE", user: "s5", subscription: "sub_N", period: 1, price: "9.99"))
        for (text, period) in [("2.0", "2"), ("1e3", "1000")] {
            let renewal = Self.stripe(
                "RENEWAL", user: "s5", subscription: "sub_N", period: nil, price: "9.99",
                ["renewal_number": RevenueCatPayload.Raw(text)])
            #expect(try client.deliver(renewal) == "commission_created", "\(text)")
            #expect(
                try client.commissions().contains { $0["transaction_id"] as? String == "sub_N#\(period)" }, "\(text)")
        }
        let before = try server.store.webhookEvents(organizationID: "org_acme", limit: 100, startingAfter: nil)
        for text in ["0", "-1", "2.5", "2147483648", "1e300"] {
            let renewal = Self.stripe(
                "RENEWAL", user: "s5", subscription: "sub_N", period: nil, price: "9.99",
                ["renewal_number": RevenueCatPayload.Raw(text)])
            let response = try client.webhook(renewal)
            #expect(response.isError(400, "invalid_request"), "\(text): \(response.text)")
            let message = response.jsonObject?["message"] as? String ?? ""
            #expect(message.contains("event.renewal_number must be a whole number from 1 to 2147483647"), "\(message)")
        }
        let after = try server.store.webhookEvents(organizationID: "org_acme", limit: 100, startingAfter: nil)
        #expect(after.items.count == before.items.count, "a refused event stores nothing")
        #expect(try client.commissions().count == 3)
        // Another store's purchase does not depend on it: the event is taken, keyed by its id as sent.
        let apple = RevenueCatPayload.purchase(
            user: "s5", price: "9.99", transaction: "2000000000000077", ["renewal_number": RevenueCatPayload.Raw("0")])
        #expect(try client.deliver(apple) == "commission_created")
        #expect(try client.commissions().contains { $0["transaction_id"] as? String == "2000000000000077" })
    }
}
