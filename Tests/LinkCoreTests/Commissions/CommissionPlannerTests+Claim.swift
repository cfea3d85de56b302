import Testing

@testable import LinkCore

/// Purchases made before the customer's claim (README, "Commission rules": they are not the partner's and are not
/// recorded): `before_claim`, nothing recorded, not the first paid purchase, and their refunds change nothing.
extension CommissionPlannerTests {
    static let day: Int64 = 86_400_000
    /// The claim, 60 days after ``purchaseTime``.
    static let claimTime = purchaseTime + 60 * day

    @Test(arguments: ["INITIAL_PURCHASE", "NON_RENEWING_PURCHASE", "RENEWAL"])
    func aPurchaseMadeBeforeTheClaimIsNotRecorded(type: String) {
        // The event may reach us after the claim (RevenueCat retries, or the user bought long before): its own
        // purchase time decides.
        let event = Self.event(type, at: Self.claimTime + 10_000, purchasedAt: Self.purchaseTime)
        #expect(Self.plan(event, Self.ledger(claimedAt: Self.claimTime)) == WebhookPlan(outcome: .beforeClaim))
    }

    @Test func aPurchaseBeforeTheClaimLeavesAPayingCustomerAsItIs() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.claimTime + Self.day, firstPaidAt: Self.claimTime + Self.day,
            claimedAt: Self.claimTime, [Self.paid("tx_0", at: Self.claimTime + Self.day)])
        let event = Self.event("INITIAL_PURCHASE", at: Self.claimTime + 2 * Self.day, purchasedAt: Self.purchaseTime)
        #expect(Self.plan(event, ledger) == WebhookPlan(outcome: .beforeClaim), "firstPaidAt does not move earlier")
    }

    /// README: `recurring: false` pays the customer's first paid purchase, and "first" is the first we know of,
    /// purchases before the claim not recorded. A renewal made after the claim of a subscription bought before it
    /// is a purchase of its own: the partner's, the first paid one, and the start of `duration_months`.
    @Test func aRenewalAfterTheClaimOfASubscriptionBoughtBeforeItIsTheFirstPaidPurchase() {
        let firstOnly = CommissionRule(amount: .fixedCents(500), recurring: false, durationMonths: 12)
        let initial = Self.event("INITIAL_PURCHASE", id: "evt_0", transaction: "tx_0", at: Self.purchaseTime)
        #expect(
            Self.plan(initial, Self.ledger(claimedAt: Self.claimTime), rule: firstOnly)
                == WebhookPlan(outcome: .beforeClaim))
        let renewedAt = Timestamp.adding(months: 3, to: Self.purchaseTime)
        #expect(renewedAt > Self.claimTime)
        let renewal = Self.event("RENEWAL", id: "evt_1", transaction: "tx_1", at: renewedAt, purchasedAt: renewedAt)
        let plan = Self.plan(renewal, Self.ledger(claimedAt: Self.claimTime), rule: firstOnly)
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.amountCents == 500)
        #expect(plan.firstPaidAt == renewedAt)
        #expect(plan.transactions.map(\.transactionID) == ["tx_1"])
        #expect(plan.customerStatus == .init(.paying, at: renewedAt))
    }

    /// The store's clock is not ours, and the SDK retries a claim for up to 90 s: a purchase up to
    /// ``CommissionPlanner/claimTolerance`` (2 minutes) before the claim counts as made after it.
    @Test func aPurchaseWithinTwoMinutesBeforeTheClaimCounts() {
        #expect(CommissionPlanner.claimTolerance == 120_000)
        func outcome(purchasedAt: Int64) -> WebhookOutcome {
            Self.plan(
                Self.event("INITIAL_PURCHASE", at: Self.claimTime + 1_000, purchasedAt: purchasedAt),
                Self.ledger(claimedAt: Self.claimTime)
            ).outcome
        }
        #expect(outcome(purchasedAt: Self.claimTime) == .commissionCreated)
        #expect(outcome(purchasedAt: Self.claimTime - 120_000) == .commissionCreated)
        #expect(outcome(purchasedAt: Self.claimTime - 120_001) == .beforeClaim)
        #expect(outcome(purchasedAt: Self.claimTime - Self.day) == .beforeClaim)
    }

    /// A missing purchase time (the parser also reads an implausible one as missing) is the event's time, then
    /// the server's, as for `duration_months`: an event created before the claim is of a purchase before it.
    @Test func aMissingPurchaseTimeMeetsTheClaimAsTheEventsTime() {
        let ledger = Self.ledger(claimedAt: Self.claimTime)
        let early = Self.event("INITIAL_PURCHASE", at: Self.claimTime - Self.day, purchasedAt: nil)
        #expect(Self.plan(early, ledger) == WebhookPlan(outcome: .beforeClaim))
        let late = Self.event("INITIAL_PURCHASE", at: Self.claimTime + Self.day, purchasedAt: nil)
        #expect(Self.plan(late, ledger).outcome == .commissionCreated)
        let timeless = Self.event("INITIAL_PURCHASE", at: nil, purchasedAt: nil)
        let plan = Self.plan(timeless, ledger, now: Self.claimTime + 5_000)
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.firstPaidAt == Self.claimTime + 5_000)
    }

    /// The refund of a purchase never recorded creates nothing (no transaction kept for a purchase to come) and
    /// reverses nothing; a reversal of it likewise.
    @Test func theRefundOfAPurchaseMadeBeforeTheClaimChangesNothing() {
        let ledger = Self.ledger(claimedAt: Self.claimTime)
        let refund = Self.event(
            "CANCELLATION", id: "evt_refund", price: "-4.99", at: Self.claimTime + Self.day,
            purchasedAt: Self.purchaseTime, reason: "CUSTOMER_SUPPORT")
        #expect(Self.plan(refund, ledger) == WebhookPlan(outcome: .beforeClaim))
        let reversal = Self.event(
            "REFUND_REVERSED", id: "evt_reversal", at: Self.claimTime + 2 * Self.day, purchasedAt: Self.purchaseTime)
        #expect(Self.plan(reversal, ledger) == WebhookPlan(outcome: .beforeClaim))
        // The customer's other, recorded purchase keeps its commission and the customer stays paying.
        let paying = Self.ledger(
            .paying, changedAt: Self.claimTime + Self.day, firstPaidAt: Self.claimTime + Self.day,
            claimedAt: Self.claimTime, [Self.paid("tx_2", at: Self.claimTime + Self.day)])
        #expect(Self.plan(refund, paying) == WebhookPlan(outcome: .beforeClaim))
    }

    /// A refund of a purchase recorded after the claim reverses its commission whatever purchase time it carries:
    /// the recorded transaction is the fact.
    @Test func theRefundOfARecordedPurchaseStillReversesIt() {
        let recorded = Self.paid("tx_1", at: Self.claimTime + Self.day)
        let ledger = Self.ledger(
            .paying, changedAt: Self.claimTime + Self.day, firstPaidAt: Self.claimTime + Self.day,
            claimedAt: Self.claimTime, [recorded])
        let refund = Self.event(
            "CANCELLATION", price: "-4.99", at: Self.claimTime + 2 * Self.day, purchasedAt: Self.purchaseTime,
            reason: "CUSTOMER_SUPPORT")
        let plan = Self.plan(refund, ledger)
        #expect(plan.outcome == .refunded)
        #expect(plan.commissionStatuses == [.init(id: "com_tx_1", status: .reversed)])
    }

    /// Without a purchase time a refund cannot be placed before the claim: it is kept for its purchase, as any
    /// refund that arrives first, and applies only if that purchase is recorded.
    @Test func aRefundWithoutAPurchaseTimeIsKeptForItsPurchase() {
        let ledger = Self.ledger(claimedAt: Self.claimTime)
        let refund = Self.event(
            "CANCELLATION", price: "-4.99", at: Self.claimTime + Self.day, purchasedAt: nil,
            reason: "CUSTOMER_SUPPORT")
        let plan = Self.plan(refund, ledger)
        #expect(plan.outcome == .refunded)
        #expect(plan.transactions.map(\.revenueCents) == [nil])
        let kept = Self.ledger(claimedAt: Self.claimTime, plan.transactions)
        let purchase = Self.event("INITIAL_PURCHASE", at: Self.claimTime + 2 * Self.day, purchasedAt: Self.purchaseTime)
        #expect(Self.plan(purchase, kept) == WebhookPlan(outcome: .beforeClaim))
    }

    /// A trial started before the claim is no purchase (nothing is recorded for a trial): the customer is
    /// trialing, and the paid purchase that ends the trial after the claim is the partner's.
    @Test func aTrialStartedBeforeTheClaimStillShowsTrialing() {
        let trial = Self.event("INITIAL_PURCHASE", price: nil, at: Self.purchaseTime, period: "TRIAL")
        let plan = Self.plan(trial, Self.ledger(claimedAt: Self.claimTime))
        #expect(plan.outcome == .trialStarted)
        #expect(plan.transactions.isEmpty && plan.newCommission == nil)
    }
}
