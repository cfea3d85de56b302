import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// `POST /webhooks/revenuecat/<public_key>` over a real socket: purchases become commissions by the program's
/// rule, and the customer and commission lists show it.
@Suite struct WebhookCommissionTests {
    @Test(arguments: StoreKind.allCases) func aPercentRulePaysItsShareOfEachPurchaseRoundedHalfUp(kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("u1")
        let client = server.client()
        #expect(try client.customer("u1")["status"] as? String == "lead")
        let outcome = try client.deliver(RevenueCatPayload.purchase(user: "u1", price: "9.99", transaction: "t1"))
        #expect(outcome == "commission_created")
        let commissions = try client.commissions()
        #expect(commissions.count == 1)
        let commission = try #require(commissions.first)
        // 20 % of 9.99 is 199.8 cents: 200.
        #expect(commission["amount"] as? Int == 200)
        #expect(commission["revenue_cents"] as? Int == 999)
        #expect(commission["currency"] as? String == "USD")
        #expect(commission["status"] as? String == "pending")
        #expect(commission["partner_id"] as? String == "part_sam")
        #expect(commission["program_id"] as? String == "prg_acme")
        #expect(commission["customer_id"] as? String == "u1")
        #expect(commission["transaction_id"] as? String == "t1")
        #expect(commission["product_id"] as? String == "com.subscription.weekly")
        #expect((commission["id"] as? String)?.hasPrefix("comm_") == true)
        #expect((commission["event_id"] as? String)?.isEmpty == false)
        #expect(Timestamp.parse(commission["created_at"] as? String ?? "") != nil)
        let customer = try client.customer("u1")
        #expect(customer["status"] as? String == "paying")
        #expect(customer["revenue_cents"] as? Int == 999)
        #expect(customer["commission_cents"] as? Int == 200)
        // A renewal pays again (the rule is recurring).
        #expect(
            try client.deliver(RevenueCatPayload.purchase("RENEWAL", user: "u1", price: "9.99", transaction: "t2"))
                == "commission_created")
        #expect(try client.customer("u1")["commission_cents"] as? Int == 400)
        #expect(try client.commissions().map { $0["transaction_id"] as? String } == ["t2", "t1"], "newest first")
    }

    @Test(arguments: StoreKind.allCases) func aFixedFirstPurchaseOnlyRulePaysTheFirstPurchaseAndNotRenewals(
        kind: StoreKind
    ) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("lee1", code: "LEE")
        let client = server.client()
        #expect(
            try client.deliver(
                RevenueCatPayload.purchase("NON_RENEWING_PURCHASE", user: "lee1", price: "0.99", transaction: "l1"))
                == "commission_created")
        #expect(
            try client.deliver(RevenueCatPayload.purchase("RENEWAL", user: "lee1", price: "0.99", transaction: "l2"))
                == "purchase_recorded")
        let commissions = try client.commissions()
        #expect(commissions.map { $0["amount"] as? Int } == [500], "fixed 500 cents, whatever the price")
        let customer = try client.customer("lee1")
        #expect(customer["revenue_cents"] as? Int == 198)
        #expect(customer["commission_cents"] as? Int == 500)
        #expect(customer["status"] as? String == "paying")
    }

    @Test(arguments: StoreKind.allCases) func durationMonthsStopsPayingRenewalsTwelveMonthsAfterTheFirstPayment(
        kind: StoreKind
    ) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let client = server.client()
        // Two years back: the webhook reads event times more than a day ahead as absent. The claim came first.
        let first = Timestamp.adding(months: -24, to: WallClock.milliseconds())
        try server.claimUser("d1", at: first - 60_000)
        func renewal(_ months: Int, minus: Int64 = 0, transaction: String) throws -> String {
            let at = Timestamp.adding(months: months, to: first) - minus
            return try client.deliver(
                RevenueCatPayload.purchase(
                    months == 0 ? "INITIAL_PURCHASE" : "RENEWAL", user: "d1", price: "10", transaction: transaction,
                    ["purchased_at_ms": at, "event_timestamp_ms": at]))
        }
        #expect(try renewal(0, transaction: "d-0") == "commission_created")
        #expect(try renewal(11, transaction: "d-11") == "commission_created")
        #expect(try renewal(12, minus: 1000, transaction: "d-12-early") == "commission_created")
        #expect(try renewal(12, transaction: "d-12") == "purchase_recorded")
        #expect(try renewal(13, transaction: "d-13") == "purchase_recorded")
        #expect(try client.commissions().count == 3)
        let customer = try client.customer("d1")
        #expect(customer["revenue_cents"] as? Int == 5 * 1000, "revenue counts every purchase")
        #expect(customer["commission_cents"] as? Int == 3 * 200)
    }

    @Test(arguments: StoreKind.allCases) func aProgramWithoutARuleRecordsRevenueButPaysNothing(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("b1", code: "BARE1")
        let client = server.client()
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "b1", price: "4.99", transaction: "b-1"))
                == "purchase_recorded")
        #expect(try client.commissions().isEmpty)
        let customer = try client.customer("b1")
        #expect(customer["status"] as? String == "paying")
        #expect(customer["revenue_cents"] as? Int == 499)
        #expect(customer["commission_cents"] as? Int == 0)
    }

    @Test(arguments: StoreKind.allCases) func sandboxAndFreePurchasesPayNothing(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("s1")
        let client = server.client()
        #expect(
            try client.deliver(
                RevenueCatPayload.purchase(user: "s1", price: "9.99", transaction: "s-1", ["environment": "SANDBOX"]))
                == "sandbox")
        #expect(try client.customer("s1")["status"] as? String == "lead", "a sandbox purchase changes nothing")
        #expect(
            try client.deliver(
                RevenueCatPayload.purchase(user: "s1", price: "0", transaction: "s-2", ["period_type": "TRIAL"]))
                == "trial_started")
        #expect(try client.customer("s1")["status"] as? String == "trialing")
        #expect(try client.commissions().isEmpty)
        #expect(try client.customer("s1")["revenue_cents"] as? Int == 0)
    }

    @Test(arguments: StoreKind.allCases) func anUnknownUserIsStoredUnattributedAndAnAliasFindsTheClaimedOne(
        kind: StoreKind
    ) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("known")
        let client = server.client()
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "stranger", price: "9.99", transaction: "x-1"))
                == "unattributed")
        #expect(try client.commissions().isEmpty)
        // RevenueCat merged an anonymous user into the claimed one: the claimed id is only an alias.
        let anonymous = "$RCAnonymousID:8069238d6049ce87cc529853916d624c"
        let merged = RevenueCatPayload.purchase(
            user: anonymous, price: "9.99", transaction: "x-2",
            ["original_app_user_id": anonymous, "aliases": [anonymous, "known"]])
        #expect(try client.deliver(merged) == "commission_created")
        #expect(try client.commissions().first?["customer_id"] as? String == "known")
        // Found by original_app_user_id too.
        let original = RevenueCatPayload.purchase(
            "RENEWAL", user: "somebody-else", price: "9.99", transaction: "x-3",
            ["original_app_user_id": "known", "aliases": []])
        #expect(try client.deliver(original) == "commission_created")
    }

    @Test(arguments: StoreKind.allCases) func aTransferMakesTheNewUserIDPayTheSamePartner(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("old-id")
        let client = server.client()
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "old-id", price: "5", transaction: "tr-1"))
                == "commission_created")
        let transfer = RevenueCatPayload.transfer(from: ["old-id"], to: ["new-id"])
        #expect(try client.deliver(transfer) == "transferred")
        #expect(
            try client.deliver(RevenueCatPayload.purchase("RENEWAL", user: "new-id", price: "5", transaction: "tr-2"))
                == "commission_created")
        let commissions = try client.commissions()
        #expect(commissions.map { $0["partner_id"] as? String } == ["part_sam", "part_sam"])
        #expect(try client.customer("old-id")["commission_cents"] as? Int == 200)
        // The new id is now claimed: a claim for it is answered already_claimed, first code wins.
        let claim = try client.claim(ClaimBody.recent(user: "new-id", code: "SAM20"))
        #expect(claim.isAlreadyClaimed(user: "new-id", sameClaim: true), "\(claim.text)")
    }
}
