import Testing

@testable import LinkCore

/// What is not the partner's money (a family-shared purchase, a refund that rounds to no cent, a share of an unknown
/// price) and the ids an event ties to its customer.
extension CommissionPlannerTests {
    // MARK: - Family Sharing

    /// RevenueCat marks a family member's copy of the buyer's purchase `is_family_share` and counts it in no
    /// revenue: it pays nothing and records nothing, and nor does its refund.
    @Test(arguments: ["INITIAL_PURCHASE", "RENEWAL", "NON_RENEWING_PURCHASE", "REFUND_REVERSED"])
    func aFamilySharedPurchaseIsNoMoney(type: String) {
        var event = Self.event(type, price: "14.99")
        event.isFamilyShare = true
        #expect(Self.plan(event, Self.ledger()) == WebhookPlan(outcome: .familyShare))
        var refund = Self.event("CANCELLATION", price: "-14.99", reason: "CUSTOMER_SUPPORT")
        refund.isFamilyShare = true
        #expect(Self.plan(refund, Self.ledger(.paying, [Self.paid("tx_1")])) == WebhookPlan(outcome: .familyShare))
        #expect(Self.plan(event, CommissionLedger(customer: nil)).outcome == .unattributed)
    }

    @Test func aFamilyMembersCancellationStillChangesTheStatus() {
        var event = Self.event("CANCELLATION", price: nil, reason: "UNSUBSCRIBE")
        event.isFamilyShare = true
        #expect(Self.plan(event, Self.ledger(.trialing)).lifecycle?.status == .canceled)
    }

    // MARK: - Refunds round as prices do

    /// `0.004` is free, so `-0.004` is no refund; `-0.005` rounds to a cent, as `0.005` does, and is one.
    @Test func aNegativePriceUnderHalfACentIsNoRefund() {
        let ledger = Self.ledger(.paying, changedAt: Self.eventTime, [Self.paid("tx_1")])
        let tiny = Self.plan(Self.event("RENEWAL", price: "-0.0049", at: Self.eventTime + 5), ledger)
        #expect(tiny.outcome == .freePurchase)
        #expect(tiny.commissionStatuses.isEmpty)
        let cent = Self.plan(Self.event("RENEWAL", price: "-0.005", at: Self.eventTime + 5), ledger)
        #expect(cent.outcome == .refunded)
        #expect(cent.commissionStatuses == [.init(id: "com_tx_1", status: .reversed)])
    }

    // MARK: - Unknown prices

    /// RevenueCat's `price: null` ("the price is unknown"): a payment of an amount nobody told us. Recorded (the
    /// customer is paying, and it is the first paid purchase), no revenue; a fixed amount is paid, a share is not.
    @Test func anUnknownPricePaysAFixedAmountAndNoShare() {
        var event = Self.event("INITIAL_PURCHASE", price: nil)
        event.priceIsUnknown = true
        let fixed = Self.plan(event, Self.ledger(), rule: CommissionRule(amount: .fixedCents(500)))
        #expect(fixed.outcome == .commissionCreated)
        #expect(fixed.newCommission?.amountCents == 500 && fixed.newCommission?.revenueCents == 0)
        #expect(fixed.transactions.map(\.priceUnknown) == [true] && fixed.transactions.first?.revenueCents == 0)
        #expect(fixed.customerStatus?.status == .paying)
        let share = Self.plan(event, Self.ledger())
        #expect(share.outcome == .priceUnknown && share.newCommission == nil)
        #expect(share.transactions.first?.isPaidPurchase == true)
        #expect(share.customerStatus?.status == .paying)
        // Paid, so `recurring: false` pays nothing after it.
        let firstOnly = CommissionRule(amount: .fixedCents(300), recurring: false)
        let after = Self.plan(
            Self.event("RENEWAL", id: "evt_2", transaction: "tx_2"),
            Self.ledger(
                .paying,
                [
                    Transaction(
                        transactionID: "tx_1", customerID: Self.customerID, revenueCents: 0,
                        purchasedAt: Self.purchaseTime, priceUnknown: true)
                ]), rule: firstOnly)
        #expect(after.outcome == .purchaseRecorded)
        // A trial without a price is a trial.
        var trial = Self.event("INITIAL_PURCHASE", price: nil, period: "TRIAL")
        trial.priceIsUnknown = true
        #expect(Self.plan(trial, Self.ledger()).outcome == .trialStarted)
    }

    // MARK: - Ids an event ties together

    /// An event found by its user ids says they are one user: all of them become the customer's, as of its time.
    @Test func anEventFoundByItsUserIDsTiesThemToTheCustomer() {
        let event = Self.loginEvent()
        var ledger = Self.ledger()
        ledger.userIDsCustomerID = Self.customerID
        let plan = Self.plan(event, ledger, ties: true)
        #expect(plan.outcome == .trialStarted)
        #expect(plan.aliases == ["user_1", "$RCAnonymousID:a1", "other"])
        #expect(plan.aliasesCustomerID == Self.customerID)
        #expect(plan.aliasesChangedAt == Self.eventTime)
        // Any type, even one that changes nothing else; never a sandbox event or one without a customer.
        #expect(Self.plan(Self.event("SUBSCRIBER_ALIAS"), ledger, ties: true).aliases == ["user_1"])
        #expect(Self.plan(Self.event("RENEWAL", environment: "SANDBOX"), ledger, ties: true).aliases.isEmpty)
        #expect(Self.plan(event, CommissionLedger(customer: nil), ties: true).aliases.isEmpty)
    }

    /// An event found as the customer of its transaction or subscription (a renewal) ties its ids too: to the
    /// customer they lead to, else to the customer of the purchase, so that the `$RCAnonymousID` of a login on a new
    /// device, first named by a renewal, cannot be claimed as a second customer.
    @Test func anEventFoundByItsTransactionTiesItsIDsToTheCustomerTheyLeadToElseTheBuyer() {
        let event = Self.loginEvent()
        // The ids lead to nobody: they become the buyer's.
        let plan = Self.plan(event, Self.ledger(), ties: true)
        #expect(plan.aliases == ["user_1", "$RCAnonymousID:a1", "other"])
        #expect(plan.aliasesCustomerID == Self.customerID)
        #expect(plan.aliasesChangedAt == Self.eventTime)
        // They lead to another customer (claimed first, or whom they were tied to): they stay that customer's,
        // however the purchase is paid.
        var ledger = Self.ledger()
        ledger.userIDsCustomerID = "cust_other"
        let other = Self.plan(event, ledger, ties: true)
        #expect(other.aliases == ["user_1", "$RCAnonymousID:a1", "other"])
        #expect(other.aliasesCustomerID == "cust_other")
    }

    /// A family-shared event's ids are the family member's, another person than the buyer: they are never tied to
    /// the buyer's customer, only to the member's own when they lead to one.
    @Test func aFamilySharedEventNeverTiesTheMemberToTheBuyer() {
        for type in ["RENEWAL", "CANCELLATION", "EXPIRATION"] {
            var event = Self.loginEvent(type)
            event.isFamilyShare = true
            #expect(Self.plan(event, Self.ledger(.paying), ties: true).aliases.isEmpty, "\(type)")
            var ledger = Self.ledger(.paying)
            ledger.userIDsCustomerID = "cust_member"
            let plan = Self.plan(event, ledger, ties: true)
            #expect(plan.aliasesCustomerID == "cust_member", "\(type)")
            #expect(plan.aliases == ["user_1", "$RCAnonymousID:a1", "other"], "\(type)")
        }
    }

    /// An event after a login: `user_1`, with its anonymous id and another as aliases.
    static func loginEvent(_ type: String = "INITIAL_PURCHASE") -> RevenueCatEvent {
        var event =
            type == "INITIAL_PURCHASE"
            ? Self.event(type, price: "0", period: "TRIAL") : Self.event(type, price: "9.99")
        event.originalAppUserID = "$RCAnonymousID:a1"
        event.aliases = ["$RCAnonymousID:a1", "user_1", "other"]
        return event
    }
}
