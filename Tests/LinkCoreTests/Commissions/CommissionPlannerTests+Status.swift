import Testing

@testable import LinkCore

/// The customer's status: `lead` → `trialing` → `paying` → `canceled` or `refunded`, `UNCANCELLATION` back,
/// and every change ordered by event time, so that an older event does not undo a newer one.
extension CommissionPlannerTests {
    static let trialTime = time("2026-02-23T09:15:00Z")
    static let cancelTime = time("2026-03-05T12:00:00Z")
    static let uncancelTime = time("2026-03-06T07:45:00Z")
    static let renewalTime = time("2026-04-02T09:15:00Z")
    static let expirationTime = time("2026-05-02T09:15:02Z")

    static func trial(at time: Int64 = trialTime, price: String? = "0") -> RevenueCatEvent {
        event(
            "INITIAL_PURCHASE", id: "evt_trial", transaction: "tx_trial", price: price, at: time, purchasedAt: time,
            period: "TRIAL")
    }

    static func cancellation(at time: Int64 = cancelTime, reason: String? = "UNSUBSCRIBE") -> RevenueCatEvent {
        event("CANCELLATION", id: "evt_cancel", at: time, reason: reason)
    }

    static func uncancellation(at time: Int64 = uncancelTime) -> RevenueCatEvent {
        event("UNCANCELLATION", id: "evt_uncancel", at: time)
    }

    static func expiration(at time: Int64 = expirationTime) -> RevenueCatEvent {
        event("EXPIRATION", id: "evt_expire", at: time)
    }

    static func renewal(at time: Int64 = renewalTime) -> RevenueCatEvent {
        event("RENEWAL", id: "evt_renewal", transaction: "tx_2", at: time + 3_000, purchasedAt: time)
    }

    // MARK: - Trials

    @Test func aTrialMakesALeadTrialing() {
        let plan = Self.plan(Self.trial(), Self.ledger())
        var expected = WebhookPlan(outcome: .trialStarted)
        expected.customerStatus = (.trialing, Self.trialTime)
        #expect(plan == expected)
    }

    @Test func aTrialWithoutAPriceIsATrial() {
        #expect(Self.plan(Self.trial(price: nil), Self.ledger()).customerStatus?.status == .trialing)
    }

    @Test(arguments: [CustomerStatus.trialing, .paying, .refunded])
    func aTrialDoesNotDemoteAPayingCustomer(status: CustomerStatus) {
        let ledger = Self.ledger(status, changedAt: Self.trialTime - 1_000, firstPaidAt: Self.trialTime - 1_000)
        #expect(Self.plan(Self.trial(), ledger) == WebhookPlan(outcome: .trialStarted))
    }

    /// The specification is silent on a new trial after a cancellation; the planner makes the customer trialing.
    @Test func aTrialAfterACancellationIsTrialing() {
        let ledger = Self.ledger(.canceled, changedAt: Self.trialTime - 1_000)
        #expect(Self.plan(Self.trial(), ledger).customerStatus?.status == .trialing)
    }

    @Test func aTrialEarnsNothingAndRecordsNoTransaction() {
        let plan = Self.plan(Self.trial(), Self.ledger(), rule: CommissionRule(amount: .fixedCents(500)))
        #expect(plan.newCommission == nil)
        #expect(plan.transactions.isEmpty)
        #expect(plan.firstPaidAt == nil)
    }

    @Test func theTrialFixtureStartsATrial() throws {
        let event = try RevenueCatEvent(body: RevenueCatEventTests.fixture("trial_initial_purchase"))
        let plan = Self.plan(event, Self.ledger())
        #expect(plan.outcome == .trialStarted)
        #expect(plan.customerStatus?.status == .trialing)
        #expect(plan.customerStatus?.at == 1_771_838_105_000)
    }

    // MARK: - Paying

    @Test(arguments: [CustomerStatus.lead, .trialing, .canceled, .refunded])
    func aPaidPurchaseMakesTheCustomerPaying(status: CustomerStatus) {
        let ledger = Self.ledger(status, changedAt: Self.trialTime)
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), ledger)
        #expect(plan.customerStatus?.status == .paying)
        #expect(plan.customerStatus?.at == Self.eventTime)
    }

    @Test func aFreePurchaseDoesNotMakeTheCustomerPaying() {
        #expect(Self.plan(Self.event("INITIAL_PURCHASE", price: "0"), Self.ledger()).customerStatus == nil)
    }

    @Test func aTrialThenItsConversion() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        #expect(replay.play([Self.trial(), Self.event("RENEWAL")]) == [.trialStarted, .commissionCreated])
        #expect(replay.status == .paying)
        #expect(replay.ledger.customer?.statusChangedAt == Self.eventTime)
    }

    // MARK: - Canceled, expired, refunded

    @Test(
        arguments: [
            ("CANCELLATION", "UNSUBSCRIBE"), ("CANCELLATION", "BILLING_ERROR"), ("CANCELLATION", "DEVELOPER_INITIATED"),
            ("CANCELLATION", "PRICE_INCREASE"), ("CANCELLATION", "UNKNOWN"), ("CANCELLATION", nil),
            ("EXPIRATION", nil), ("EXPIRATION", "UNSUBSCRIBE"), ("EXPIRATION", "BILLING_ERROR"),
        ] as [(String, String?)])
    func cancellationAndExpirationCancel(type: String, reason: String?) {
        for status in [CustomerStatus.trialing, .paying] {
            let ledger = Self.ledger(
                status, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
            let plan = Self.plan(Self.event(type, at: Self.cancelTime, reason: reason), ledger)
            var expected = WebhookPlan(outcome: .statusChanged)
            expected.customerStatus = (.canceled, Self.cancelTime)
            #expect(plan == expected, "\(type) \(reason ?? "") of a \(status) customer")
        }
    }

    @Test(arguments: [CustomerStatus.lead, .canceled, .refunded])
    func onlyTrialingAndPayingCustomersCancel(status: CustomerStatus) {
        let ledger = Self.ledger(status, changedAt: Self.eventTime)
        #expect(Self.plan(Self.cancellation(), ledger) == WebhookPlan(outcome: .ignored))
        #expect(Self.plan(Self.expiration(), ledger) == WebhookPlan(outcome: .ignored))
    }

    /// One purchase, then each of the three endings: an unsubscribe and an expiration cancel and keep the
    /// commission, a refund reverses it.
    @Test func cancellationVersusExpirationVersusRefund() {
        let endings: [(RevenueCatEvent, CustomerStatus, CommissionStatus)] = [
            (Self.cancellation(), .canceled, .pending), (Self.expiration(), .canceled, .pending),
            (Self.refund(at: Self.cancelTime), .refunded, .reversed),
            (Self.cancellation(reason: "CUSTOMER_SUPPORT"), .refunded, .reversed),
        ]
        for (ending, status, commission) in endings {
            var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
            replay.play([Self.event("INITIAL_PURCHASE"), ending])
            #expect(replay.status == status, "\(ending.type) \(ending.cancelReason ?? "")")
            #expect(replay.ledger.commissionStatus("tx_1") == commission, "\(ending.type) \(ending.cancelReason ?? "")")
        }
    }

    @Test func theExpirationFixtureCancels() throws {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let plan = Self.plan(try RevenueCatEvent(body: RevenueCatEventTests.fixture("expiration")), ledger)
        #expect(plan.outcome == .statusChanged)
        #expect(plan.customerStatus?.status == .canceled)
        #expect(plan.transactions.isEmpty)
        #expect(plan.commissionStatuses.isEmpty)
    }

    // MARK: - Uncancellation

    @Test func anUncancellationMakesAPayingCustomerPayingAgain() {
        let ledger = Self.ledger(
            .canceled, changedAt: Self.cancelTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        var expected = WebhookPlan(outcome: .statusChanged)
        expected.customerStatus = (.paying, Self.uncancelTime)
        #expect(Self.plan(Self.uncancellation(), ledger) == expected)
    }

    @Test func anUncancellationOfANeverPaidCustomerIsTrialing() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.trial(), Self.cancellation()])
        #expect(replay.status == .canceled)
        let plan = replay.play(Self.uncancellation())
        #expect(plan.outcome == .statusChanged)
        #expect(plan.customerStatus?.status == .trialing)
        #expect(replay.status == .trialing)
    }

    @Test(arguments: [CustomerStatus.lead, .trialing, .paying, .refunded])
    func anUncancellationOfACustomerNotCanceledChangesNothing(status: CustomerStatus) {
        let ledger = Self.ledger(status, changedAt: Self.cancelTime, firstPaidAt: Self.purchaseTime)
        #expect(Self.plan(Self.uncancellation(), ledger) == WebhookPlan(outcome: .ignored))
    }

    @Test func uncancellationEarnsNothing() {
        let ledger = Self.ledger(
            .canceled, changedAt: Self.cancelTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let plan = Self.plan(Self.uncancellation(), ledger)
        #expect(plan.newCommission == nil)
        #expect(plan.transactions.isEmpty)
        #expect(plan.commissionStatuses.isEmpty)
    }

    // MARK: - Ordered by event time

    @Test func anOlderCancellationDoesNotUndoANewerPurchase() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let plan = Self.plan(Self.cancellation(at: Self.eventTime - 1), ledger)
        #expect(plan.customerStatus == nil)
        #expect(plan.outcome == .statusChanged)
    }

    @Test func anOlderUncancellationDoesNotUndoANewerCancellation() {
        let ledger = Self.ledger(.canceled, changedAt: Self.uncancelTime, firstPaidAt: Self.purchaseTime)
        #expect(Self.plan(Self.uncancellation(at: Self.cancelTime), ledger).customerStatus == nil)
    }

    @Test func anOlderPurchaseDoesNotUndoANewerExpiration() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.event("INITIAL_PURCHASE"), Self.expiration()])
        // The renewal bought before the expiration is delivered after it: it pays, the customer stays canceled.
        let plan = replay.play(Self.renewal(at: Self.expirationTime - 10_000))
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.customerStatus == nil)
        #expect(replay.status == .canceled)
    }

    @Test func anOlderTrialDoesNotUndoANewerCancellation() {
        let ledger = Self.ledger(.canceled, changedAt: Self.cancelTime)
        #expect(Self.plan(Self.trial(at: Self.trialTime), ledger).customerStatus == nil)
    }

    @Test func anEventAtTheSameTimeAsTheLastChangeApplies() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.cancelTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        #expect(Self.plan(Self.cancellation(at: Self.cancelTime), ledger).customerStatus?.status == .canceled)
    }

    /// Events in time: purchase, cancellation, uncancellation; the uncancellation is delivered before the
    /// cancellation. By event time the customer ends paying: the older cancellation must not undo the newer
    /// uncancellation.
    @Test func aNewerUncancellationDeliveredBeforeItsCancellation() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.event("INITIAL_PURCHASE"), Self.uncancellation(), Self.cancellation()])
        #expect(replay.status == .paying)
    }

    /// Events in time: purchase, cancellation, renewal (a lapsed customer resubscribing); the cancellation is
    /// delivered last. By event time the customer ends paying.
    @Test func aNewerRenewalDeliveredBeforeAnOlderCancellation() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.event("INITIAL_PURCHASE"), Self.renewal(), Self.cancellation()])
        #expect(replay.status == .paying)
    }

    /// Events in time: purchase, expiration; the expiration is delivered first. By event time the customer ends
    /// canceled.
    @Test func anExpirationDeliveredBeforeItsPurchase() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.expiration(), Self.event("INITIAL_PURCHASE")])
        #expect(replay.status == .canceled)
        #expect(replay.ledger.commissionStatus("tx_1") == .pending)
    }

    /// Events in time: purchase, refund, refund reversal, expiration; the expiration is delivered before the
    /// reversal. By event time the customer ends canceled, with the commission pending.
    @Test func aNewerExpirationDeliveredBeforeAnOlderRefundReversal() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.event("INITIAL_PURCHASE"), Self.refund(), Self.expiration(at: Self.reversalTime + 1)])
        replay.play(Self.reversal())
        #expect(replay.ledger.commissionStatus("tx_1") == .pending)
        #expect(replay.status == .canceled)
    }

    /// The same events in every delivery order end in the same status when the planner orders by event time.
    @Test func everyDeliveryOrderOfPurchaseCancellationUncancellation() {
        let events = [Self.event("INITIAL_PURCHASE"), Self.cancellation(), Self.uncancellation()]
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
            replay.play(order.map { events[$0] })
            #expect(replay.status == .paying, "delivered in the order \(order)")
        }
    }
}
