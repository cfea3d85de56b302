import Testing

@testable import LinkCore

/// The customer's lifecycle (`lead`, `trialing`, `paying`, `canceled`), set by trials, paid purchases,
/// cancellations, expirations and uncancellations in event-time order, so that an older event does not undo a
/// newer one; and the status the lists show, which is `refunded` over the lifecycle once every paid purchase is
/// refunded.
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
        expected.customerStatus = .init(.trialing, at: Self.trialTime)
        expected.lifecycle = .init(.trialing, at: Self.trialTime)
        #expect(plan == expected)
    }

    @Test func aTrialWithoutAPriceIsATrial() {
        #expect(Self.plan(Self.trial(price: nil), Self.ledger()).customerStatus?.status == .trialing)
    }

    /// A paying customer, shown paying or refunded, stays paying: the trial changes neither the lifecycle nor
    /// its time, whether newer or older than the last lifecycle event.
    @Test(arguments: [
        (CustomerStatus.paying, false, CommissionPlannerTests.trialTime - 1_000),
        (.refunded, true, CommissionPlannerTests.trialTime - 1_000),
        (.paying, false, CommissionPlannerTests.trialTime + 1_000),
        (.refunded, true, CommissionPlannerTests.trialTime + 1_000),
    ])
    func aTrialDoesNotDemoteAPayingCustomer(status: CustomerStatus, refunded: Bool, changedAt: Int64) {
        let ledger = Self.ledger(
            status, lifecycle: .paying, changedAt: changedAt, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", refunded: refunded, refundChangedAt: refunded ? Self.refundTime : nil)])
        #expect(Self.plan(Self.trial(), ledger) == WebhookPlan(outcome: .trialStarted))
    }

    /// A second trial of a trialing customer keeps the lifecycle and records the trial's time.
    @Test func aTrialOfATrialingCustomerRecordsItsTime() {
        let ledger = Self.ledger(.trialing, changedAt: Self.trialTime - 1_000)
        var expected = WebhookPlan(outcome: .trialStarted)
        expected.lifecycle = .init(.trialing, at: Self.trialTime)
        #expect(Self.plan(Self.trial(), ledger) == expected)
    }

    /// The specification is silent on a new trial after a cancellation; the planner makes the customer trialing.
    @Test func aTrialAfterACancellationIsTrialing() {
        let ledger = Self.ledger(.canceled, changedAt: Self.trialTime - 1_000)
        var expected = WebhookPlan(outcome: .trialStarted)
        expected.customerStatus = .init(.trialing, at: Self.trialTime)
        expected.lifecycle = .init(.trialing, at: Self.trialTime)
        #expect(Self.plan(Self.trial(), ledger) == expected)
    }

    /// A canceled customer whose every paid purchase was refunded starts a trial: the lifecycle is trialing, the
    /// lists still show refunded.
    @Test func aTrialOfARefundedCanceledCustomerStaysRefunded() {
        let ledger = Self.ledger(
            .refunded, lifecycle: .canceled, changedAt: Self.trialTime - 1_000, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.refundTime)])
        var expected = WebhookPlan(outcome: .trialStarted)
        expected.lifecycle = .init(.trialing, at: Self.trialTime)
        #expect(Self.plan(Self.trial(), ledger) == expected)
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
        #expect(plan.lifecycle?.status == .trialing)
        #expect(plan.lifecycle?.at == 1_771_838_105_000)
    }

    // MARK: - Paying

    @Test(arguments: [CustomerStatus.lead, .trialing, .canceled])
    func aPaidPurchaseMakesTheCustomerPaying(lifecycle: CustomerStatus) {
        let ledger = Self.ledger(lifecycle, changedAt: Self.trialTime)
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), ledger)
        #expect(plan.customerStatus?.status == .paying)
        #expect(plan.customerStatus?.at == Self.eventTime)
        #expect(plan.lifecycle?.status == .paying)
        #expect(plan.lifecycle?.at == Self.eventTime)
    }

    /// A refunded customer (every earlier paid purchase refunded) pays again: the new purchase is not refunded,
    /// so the lists show paying.
    @Test(arguments: [CustomerStatus.paying, .canceled])
    func aPaidPurchaseOfARefundedCustomerShowsPaying(lifecycle: CustomerStatus) {
        let ledger = Self.ledger(
            .refunded, lifecycle: lifecycle, changedAt: Self.trialTime, firstPaidAt: Self.trialTime,
            [
                Self.paid(
                    "tx_0", at: Self.trialTime, commission: .reversed, refunded: true, refundChangedAt: Self.trialTime)
            ])
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), ledger)
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.customerStatus?.status == .paying)
        #expect(plan.customerStatus?.at == Self.eventTime)
        #expect(plan.lifecycle?.status == .paying)
        #expect(plan.lifecycle?.at == Self.eventTime)
    }

    @Test func aFreePurchaseDoesNotMakeTheCustomerPaying() {
        let plan = Self.plan(Self.event("INITIAL_PURCHASE", price: "0"), Self.ledger())
        #expect(plan.customerStatus == nil)
        #expect(plan.lifecycle == nil)
    }

    @Test func aTrialThenItsConversion() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        #expect(replay.play([Self.trial(), Self.event("RENEWAL")]) == [.trialStarted, .commissionCreated])
        #expect(replay.status == .paying)
        #expect(replay.ledger.customer?.lifecycle == .paying)
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
            expected.customerStatus = .init(.canceled, at: Self.cancelTime)
            expected.lifecycle = .init(.canceled, at: Self.cancelTime)
            #expect(plan == expected, "\(type) \(reason ?? "") of a \(status) customer")
        }
    }

    /// A cancellation or expiration cancels from any lifecycle: a lead too (its purchase may have been made
    /// before the claim, or arrive later), and a customer already canceled, whose lifecycle takes the newer time.
    /// A customer whose every paid purchase is refunded is canceled underneath and still shown refunded.
    @Test(arguments: [
        (CustomerStatus.lead, CustomerStatus.lead, CustomerStatus?.some(.canceled)),
        (.canceled, .canceled, nil), (.refunded, .paying, nil), (.refunded, .canceled, nil),
    ])
    func cancellationAndExpirationCancelFromAnyLifecycle(
        status: CustomerStatus, lifecycle: CustomerStatus, shown: CustomerStatus?
    ) {
        let transactions =
            status == .refunded
            ? [Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.eventTime)] : []
        let ledger = Self.ledger(status, lifecycle: lifecycle, changedAt: Self.eventTime, transactions)
        for event in [Self.cancellation(), Self.expiration()] {
            let time = event.timestamp!
            var expected = WebhookPlan(outcome: .statusChanged)
            expected.customerStatus = shown.map { .init($0, at: time) }
            expected.lifecycle = .init(.canceled, at: time)
            #expect(Self.plan(event, ledger) == expected, "\(event.type) of a \(status) (\(lifecycle)) customer")
        }
    }

    /// A refunded customer canceled in between: when the refund is reversed, the lists show canceled.
    @Test func aReversedRefundShowsTheCancellationThatCameInBetween() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.event("INITIAL_PURCHASE"), Self.refund(), Self.cancellation(at: Self.refundTime + 1)])
        #expect(replay.status == .refunded)
        #expect(replay.ledger.customer?.lifecycle == .canceled)
        let plan = replay.play(Self.reversal())
        #expect(plan.customerStatus?.status == .canceled)
        #expect(plan.customerStatus?.at == Self.reversalTime)
        #expect(plan.lifecycle == nil)
        #expect(replay.status == .canceled)
        #expect(replay.ledger.commissionStatus("tx_1") == .pending)
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
        #expect(plan.lifecycle?.status == .canceled)
        #expect(plan.lifecycle?.at == 1_777_713_302_000)
        #expect(plan.transactions.isEmpty)
        #expect(plan.commissionStatuses.isEmpty)
    }

    // MARK: - Uncancellation

    @Test func anUncancellationMakesAPayingCustomerPayingAgain() {
        let ledger = Self.ledger(
            .canceled, changedAt: Self.cancelTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        var expected = WebhookPlan(outcome: .statusChanged)
        expected.customerStatus = .init(.paying, at: Self.uncancelTime)
        expected.lifecycle = .init(.paying, at: Self.uncancelTime)
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

    /// An uncancellation applies from any lifecycle: `paying` when the customer has a paid purchase, else
    /// `trialing`; a customer whose every paid purchase is refunded is still shown refunded.
    @Test(arguments: [
        (CustomerStatus.lead, CustomerStatus.lead, false, CustomerStatus.trialing, CustomerStatus?.some(.trialing)),
        (.trialing, .trialing, false, .trialing, nil), (.paying, .paying, true, .paying, nil),
        (.canceled, .canceled, false, .trialing, .trialing), (.refunded, .paying, true, .paying, nil),
        (.refunded, .canceled, true, .paying, nil),
    ])
    func anUncancellationAppliesFromAnyLifecycle(
        status: CustomerStatus, lifecycle: CustomerStatus, paid: Bool, target: CustomerStatus, shown: CustomerStatus?
    ) {
        let transactions =
            paid
            ? [
                Self.paid(
                    "tx_1", commission: status == .refunded ? .reversed : .pending, refunded: status == .refunded,
                    refundChangedAt: status == .refunded ? Self.refundTime : nil)
            ] : []
        let ledger = Self.ledger(
            status, lifecycle: lifecycle, changedAt: Self.cancelTime, firstPaidAt: paid ? Self.purchaseTime : nil,
            transactions)
        var expected = WebhookPlan(outcome: .statusChanged)
        expected.customerStatus = shown.map { .init($0, at: Self.uncancelTime) }
        expected.lifecycle = .init(target, at: Self.uncancelTime)
        #expect(Self.plan(Self.uncancellation(), ledger) == expected)
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
        #expect(Self.plan(Self.cancellation(at: Self.eventTime - 1), ledger) == WebhookPlan(outcome: .staleStatus))
        #expect(Self.plan(Self.expiration(at: Self.eventTime - 1), ledger) == WebhookPlan(outcome: .staleStatus))
    }

    @Test func anOlderUncancellationDoesNotUndoANewerCancellation() {
        let ledger = Self.ledger(
            .canceled, changedAt: Self.uncancelTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        #expect(Self.plan(Self.uncancellation(at: Self.cancelTime), ledger) == WebhookPlan(outcome: .staleStatus))
    }

    /// Refused by the lifecycle's time even when the customer is shown refunded.
    @Test func anOlderCancellationOfARefundedCustomerIsStale() {
        let ledger = Self.ledger(
            .refunded, changedAt: Self.uncancelTime, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.refundTime)])
        #expect(Self.plan(Self.cancellation(), ledger) == WebhookPlan(outcome: .staleStatus))
    }

    @Test func anOlderPurchaseDoesNotUndoANewerExpiration() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.event("INITIAL_PURCHASE"), Self.expiration()])
        // The renewal bought before the expiration is delivered after it: it pays, the customer stays canceled.
        let plan = replay.play(Self.renewal(at: Self.expirationTime - 10_000))
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.customerStatus == nil)
        #expect(plan.lifecycle == nil)
        #expect(replay.status == .canceled)
        #expect(replay.ledger.customer?.statusChangedAt == Self.expirationTime)
    }

    /// A trial older than the last lifecycle event changes nothing: `stale_status`, like every lifecycle event
    /// but a paid purchase.
    @Test func anOlderTrialDoesNotUndoANewerCancellation() {
        let ledger = Self.ledger(.canceled, changedAt: Self.cancelTime)
        #expect(Self.plan(Self.trial(at: Self.trialTime), ledger) == WebhookPlan(outcome: .staleStatus))
    }

    /// A purchase older than the last lifecycle event is recorded and leaves the lifecycle, but when its refund
    /// arrived first the lists now show the customer refunded.
    @Test func anOlderPurchaseWhoseRefundArrivedFirstShowsRefunded() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.expiration(), Self.refund()])
        #expect(replay.status == .canceled)
        let plan = replay.play(Self.event("INITIAL_PURCHASE"))
        var expected = WebhookPlan(outcome: .commissionCreated)
        expected.transactions = [
            Transaction(
                transactionID: "tx_1", customerID: Self.customerID, revenueCents: 499, purchasedAt: Self.purchaseTime,
                refunded: true, refundChangedAt: Self.refundTime)
        ]
        expected.newCommission = NewCommission(
            id: "com_1", transactionID: "tx_1", productID: "pro.monthly", revenueCents: 499, amountCents: 100,
            status: .reversed)
        expected.customerStatus = .init(.refunded, at: Self.eventTime)
        expected.firstPaidAt = Self.purchaseTime
        expected.tie(["user_1"], at: Self.eventTime)
        #expect(plan == expected)
        #expect(replay.ledger.customer?.lifecycle == .canceled)
    }

    @Test func anEventAtTheSameTimeAsTheLastChangeApplies() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.cancelTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        var expected = WebhookPlan(outcome: .statusChanged)
        expected.customerStatus = .init(.canceled, at: Self.cancelTime)
        expected.lifecycle = .init(.canceled, at: Self.cancelTime)
        #expect(Self.plan(Self.cancellation(at: Self.cancelTime), ledger) == expected)
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

    /// Events in time: a paid purchase, then a trial (of another offer); the trial is delivered first. By event
    /// time the customer ends paying: a trial does not demote a paying customer.
    @Test func aNewerTrialDeliveredBeforeAnOlderPurchase() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        replay.play([Self.trial(at: Self.cancelTime), Self.event("INITIAL_PURCHASE")])
        #expect(replay.status == .paying)
        #expect(replay.ledger.customer?.lifecycle == .paying)
    }

    /// The same events in every delivery order end in the same status when the planner orders by event time.
    @Test func everyDeliveryOrderOfPurchaseCancellationUncancellation() {
        let events = [Self.event("INITIAL_PURCHASE"), Self.cancellation(), Self.uncancellation()]
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
            replay.play(order.map { events[$0] })
            #expect(replay.status == .paying, "delivered in the order \(order)")
            #expect(replay.ledger.customer?.statusChangedAt == Self.uncancelTime, "delivered in the order \(order)")
            #expect(replay.ledger.commissionStatus("tx_1") == .pending, "delivered in the order \(order)")
        }
    }

    /// A purchase, its refund and a later expiration, in every delivery order: canceled underneath, shown
    /// refunded, the commission reversed.
    @Test func everyDeliveryOrderOfPurchaseRefundExpiration() {
        let events = [Self.event("INITIAL_PURCHASE"), Self.refund(), Self.expiration()]
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
            replay.play(order.map { events[$0] })
            #expect(replay.status == .refunded, "delivered in the order \(order)")
            #expect(replay.ledger.customer?.lifecycle == .canceled, "delivered in the order \(order)")
            #expect(replay.ledger.commissionStatus("tx_1") == .reversed, "delivered in the order \(order)")
        }
    }
}
