import Testing

@testable import LinkCore

/// Refunds (`CANCELLATION` by `CUSTOMER_SUPPORT`, or a negative price) and `REFUND_REVERSED`: the commission of
/// the transaction is reversed or put back, a refund may arrive before its purchase, and of two such events for
/// one transaction the later event time wins. They are facts about money, not ordered against the lifecycle:
/// the status shown is worked out again from the lifecycle and the transactions.
extension CommissionPlannerTests {
    static let refundTime = time("2026-03-20T08:30:00Z")
    static let reversalTime = time("2026-03-21T08:30:00Z")

    static func refund(_ transaction: String? = "tx_1", at time: Int64? = refundTime, id: String = "evt_refund")
        -> RevenueCatEvent
    {
        event("CANCELLATION", id: id, transaction: transaction, price: "-4.99", at: time, reason: "CUSTOMER_SUPPORT")
    }

    static func reversal(_ transaction: String? = "tx_1", at time: Int64? = reversalTime, id: String = "evt_reversal")
        -> RevenueCatEvent
    {
        event("REFUND_REVERSED", id: id, transaction: transaction, price: "4.99", at: time)
    }

    /// `cust_1` paying, with `tx_1` paid and its commission `com_tx_1` pending.
    static var payingLedger: CommissionLedger {
        ledger(.paying, changedAt: eventTime, firstPaidAt: purchaseTime, [paid("tx_1")])
    }

    @Test func aRefundReversesTheCommission() {
        let plan = Self.plan(Self.refund(), Self.payingLedger)
        var expected = WebhookPlan(outcome: .refunded)
        // The transaction carries its commission's new status.
        expected.transactions = [
            Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.refundTime)
        ]
        expected.commissionStatuses = [.init(id: "com_tx_1", status: .reversed)]
        expected.customerStatus = .init(.refunded, at: Self.refundTime)
        #expect(plan == expected)
    }

    @Test(
        arguments: [
            ("CANCELLATION", "CUSTOMER_SUPPORT", "-4.99"), ("CANCELLATION", "CUSTOMER_SUPPORT", nil),
            ("CANCELLATION", "CUSTOMER_SUPPORT", "4.99"), ("CANCELLATION", "UNSUBSCRIBE", "-4.99"),
            ("CANCELLATION", nil, "-4.99"), ("RENEWAL", nil, "-4.99"), ("INITIAL_PURCHASE", nil, "-0.01"),
            ("NON_RENEWING_PURCHASE", nil, "-4.99"), ("EXPIRATION", nil, "-4.99"), ("PRODUCT_CHANGE", nil, "-1"),
            ("SOMETHING_NEW", nil, "-4.99"),
        ] as [(String, String?, String?)])
    func everyRefundReversesTheCommission(type: String, reason: String?, price: String?) {
        let event = Self.event(type, id: "evt_refund", price: price, at: Self.refundTime, reason: reason)
        let plan = Self.plan(event, Self.payingLedger)
        #expect(plan.outcome == .refunded)
        #expect(plan.commissionStatuses.map(\.id) == ["com_tx_1"])
        #expect(plan.commissionStatuses.map(\.status) == [.reversed])
        #expect(plan.transactions.map(\.refunded) == [true])
        #expect(plan.transactions.map(\.commission?.status) == [.reversed])
        #expect(plan.newCommission == nil)
        #expect(plan.lifecycle == nil)
    }

    @Test(arguments: ["UNSUBSCRIBE", "BILLING_ERROR", "DEVELOPER_INITIATED", "PRICE_INCREASE", "UNKNOWN", nil])
    func aCancellationForAnyOtherReasonKeepsTheCommission(reason: String?) {
        let plan = Self.plan(Self.event("CANCELLATION", at: Self.refundTime, reason: reason), Self.payingLedger)
        var expected = WebhookPlan(outcome: .statusChanged)
        expected.customerStatus = .init(.canceled, at: Self.refundTime)
        expected.lifecycle = .init(.canceled, at: Self.refundTime)
        #expect(plan == expected)
    }

    @Test func aReversalPutsTheCommissionBack() {
        var replay = CommissionReplay(ledger: Self.payingLedger, rule: Self.twentyPercent, now: Self.now)
        replay.play(Self.refund())
        #expect(replay.ledger.commissionStatus("tx_1") == .reversed)
        #expect(replay.status == .refunded)
        let plan = replay.play(Self.reversal())
        var expected = WebhookPlan(outcome: .refundReversed)
        expected.transactions = [Self.paid("tx_1", commission: .pending, refundChangedAt: Self.reversalTime)]
        expected.commissionStatuses = [.init(id: "com_tx_1", status: .pending)]
        expected.customerStatus = .init(.paying, at: Self.reversalTime)
        expected.tie(["user_1"], at: Self.reversalTime)
        #expect(plan == expected)
        #expect(replay.ledger.commissionStatus("tx_1") == .pending)
        #expect(replay.ledger.transaction("tx_1")?.refunded == false)
        #expect(replay.status == .paying)
    }

    @Test func refundReversalRefundAgain() {
        var replay = CommissionReplay(ledger: Self.payingLedger, rule: Self.twentyPercent, now: Self.now)
        let outcomes = replay.play([
            Self.refund(), Self.reversal(), Self.refund(at: Self.reversalTime + 1, id: "evt_refund_2"),
        ])
        #expect(outcomes == [.refunded, .refundReversed, .refunded])
        #expect(replay.ledger.commissionStatus("tx_1") == .reversed)
        #expect(replay.status == .refunded)
    }

    @Test func aRefundOfAPurchaseWithoutACommission() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1", commission: nil)])
        let plan = Self.plan(Self.refund(), ledger)
        #expect(plan.outcome == .refunded)
        #expect(plan.commissionStatuses.isEmpty)
        #expect(plan.transactions.map(\.refunded) == [true])
        #expect(plan.customerStatus?.status == .refunded)
    }

    @Test func aSecondRefundChangesNoCommission() {
        let ledger = Self.ledger(
            .refunded, changedAt: Self.refundTime, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.refundTime)])
        let plan = Self.plan(Self.refund(at: Self.reversalTime, id: "evt_refund_2"), ledger)
        var expected = WebhookPlan(outcome: .refunded)
        expected.transactions = [
            Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.reversalTime)
        ]
        #expect(plan == expected)
    }

    @Test func aReversalWithoutARefundChangesNoCommission() {
        let plan = Self.plan(Self.reversal(), Self.payingLedger)
        var expected = WebhookPlan(outcome: .refundReversed)
        expected.transactions = [Self.paid("tx_1", refundChangedAt: Self.reversalTime)]
        #expect(plan == expected)
    }

    @Test func aRefundWithoutATransactionIDIsIgnored() {
        #expect(Self.plan(Self.refund(nil), Self.payingLedger) == WebhookPlan(outcome: .ignored))
        #expect(Self.plan(Self.reversal(nil), Self.payingLedger) == WebhookPlan(outcome: .ignored))
    }

    @Test func aRefundWithoutAnEventTimeHappensNow() {
        let plan = Self.plan(Self.refund(at: nil), Self.payingLedger)
        #expect(plan.transactions.first?.refundChangedAt == Self.now)
        #expect(plan.customerStatus?.at == Self.now)
    }

    // MARK: - A refund before its purchase

    /// A refund whose ids lead to no claimed customer and whose purchase is unknown keeps nothing: no purchase
    /// of a user nobody claimed will pay later (a deliberate choice: unclaimed users are most users, and their
    /// refunds would otherwise pile up as rows that never serve).
    @Test func aRefundOfNobodysUnknownPurchaseKeepsNothing() {
        let plan = Self.plan(Self.refund(), CommissionLedger(customer: nil))
        #expect(plan == WebhookPlan(outcome: .unattributed))
    }

    @Test func aRefundBeforeItsPurchaseOfAKnownCustomerIsKeptForThem() {
        let plan = Self.plan(Self.refund(), Self.ledger(.trialing, changedAt: Self.purchaseTime))
        #expect(plan.outcome == .refunded)
        #expect(
            plan.transactions == [
                Transaction(
                    transactionID: "tx_1", customerID: Self.customerID, refunded: true, refundChangedAt: Self.refundTime
                )
            ])
        // No paid purchase is refunded yet: the customer is still trialing.
        #expect(plan.customerStatus == nil)
    }

    @Test func thePurchaseAfterItsRefundCreatesTheCommissionReversed() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        #expect(replay.play(Self.refund()).outcome == .refunded)
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
        expected.lifecycle = .init(.paying, at: Self.eventTime)
        expected.firstPaidAt = Self.purchaseTime
        expected.tie(["user_1"], at: Self.eventTime)
        #expect(plan == expected)
        #expect(replay.ledger.customer?.lifecycle == .paying)
        #expect(replay.ledger.commissionStatus("tx_1") == .reversed)
        #expect(replay.status == .refunded)
    }

    @Test func aRefundAndItsReversalBeforeThePurchase() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        #expect(replay.play([Self.refund(), Self.reversal()]) == [.refunded, .refundReversed])
        let plan = replay.play(Self.event("INITIAL_PURCHASE"))
        #expect(plan.newCommission?.status == .pending)
        #expect(replay.status == .paying)
    }

    @Test func aReversalBeforeTheRefundBeforeThePurchase() {
        // The reversal (later) arrives first, then the refund (earlier): the reversal wins.
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        #expect(replay.play([Self.reversal(), Self.refund()]) == [.refundReversed, .staleRefund])
        #expect(replay.play(Self.event("INITIAL_PURCHASE")).newCommission?.status == .pending)
    }

    @Test func aPurchaseAfterItsRefundWithoutARuleIsRecordedRefunded() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: nil, now: Self.now)
        replay.play(Self.refund())
        let plan = replay.play(Self.event("INITIAL_PURCHASE"))
        #expect(plan.outcome == .purchaseRecorded)
        #expect(plan.transactions.map(\.refunded) == [true])
        #expect(replay.status == .refunded)
    }

    // MARK: - The later event time wins

    @Test func anOlderReversalIsStale() {
        let ledger = Self.ledger(
            .refunded, changedAt: Self.reversalTime, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.reversalTime)])
        #expect(Self.plan(Self.reversal(at: Self.refundTime), ledger) == WebhookPlan(outcome: .staleRefund))
    }

    @Test func anOlderRefundIsStale() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.reversalTime, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", refundChangedAt: Self.reversalTime)])
        #expect(Self.plan(Self.refund(at: Self.refundTime), ledger) == WebhookPlan(outcome: .staleRefund))
    }

    @Test func theLaterEventWinsWhicheverArrivesFirst() {
        // Refund at 08:30 on the 20th, reversal at 08:30 on the 21st, delivered in both orders.
        var inOrder = CommissionReplay(ledger: Self.payingLedger, rule: Self.twentyPercent, now: Self.now)
        #expect(inOrder.play([Self.refund(), Self.reversal()]) == [.refunded, .refundReversed])
        var reordered = CommissionReplay(ledger: Self.payingLedger, rule: Self.twentyPercent, now: Self.now)
        #expect(reordered.play([Self.reversal(), Self.refund()]) == [.refundReversed, .staleRefund])
        #expect(inOrder.ledger.commissionStatus("tx_1") == .pending)
        #expect(reordered.ledger.commissionStatus("tx_1") == .pending)
        #expect(inOrder.ledger.transaction("tx_1")?.refunded == false)
        #expect(reordered.ledger.transaction("tx_1")?.refunded == false)

        // And the other way round: reversal first in time, refund last.
        var late = CommissionReplay(ledger: Self.payingLedger, rule: Self.twentyPercent, now: Self.now)
        late.play([
            Self.reversal(at: Self.refundTime), Self.refund(at: Self.reversalTime),
            Self.reversal(at: Self.refundTime + 1, id: "evt_reversal_2"),
        ])
        #expect(late.ledger.commissionStatus("tx_1") == .reversed)
        #expect(late.plans.last?.outcome == .staleRefund)
    }

    /// The specification is silent on two refund events at the same millisecond; the one that arrives last wins.
    @Test func ofTwoAtTheSameTimeTheLastArrivedWins() {
        var replay = CommissionReplay(ledger: Self.payingLedger, rule: Self.twentyPercent, now: Self.now)
        #expect(replay.play([Self.refund(), Self.reversal(at: Self.refundTime)]) == [.refunded, .refundReversed])
        #expect(replay.ledger.commissionStatus("tx_1") == .pending)
    }

    // MARK: - The customer's refunded status

    @Test func theCustomerIsRefundedWhenEveryPaidPurchaseIs() {
        let renewalTime = Self.time("2026-04-02T09:15:00Z")
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1"), Self.paid("tx_2", at: renewalTime), Transaction(transactionID: "tx_trial")])
        var replay = CommissionReplay(ledger: ledger, rule: Self.twentyPercent, now: Self.now)
        let first = replay.play(Self.refund("tx_2", at: renewalTime + 10_000))
        #expect(first.commissionStatuses.map(\.id) == ["com_tx_2"])
        #expect(first.customerStatus == nil)
        #expect(replay.status == .paying)
        let second = replay.play(Self.refund("tx_1", at: renewalTime + 20_000, id: "evt_refund_2"))
        #expect(second.customerStatus?.status == .refunded)
        #expect(replay.status == .refunded)
        let reversal = replay.play(Self.reversal("tx_2", at: renewalTime + 30_000))
        #expect(reversal.customerStatus?.status == .paying)
        #expect(replay.ledger.commissionStatus("tx_1") == .reversed)
        #expect(replay.ledger.commissionStatus("tx_2") == .pending)
    }

    @Test func aCanceledCustomerWhoseOnlyPurchaseIsRefundedIsRefunded() {
        let ledger = Self.ledger(
            .canceled, changedAt: Self.eventTime + 1_000, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let plan = Self.plan(Self.refund(), ledger)
        #expect(plan.customerStatus?.status == .refunded)
        #expect(plan.lifecycle == nil)
        // Reversed, the refund gives back the lifecycle underneath.
        let reversal = Self.plan(Self.reversal(), ledger.applying(plan))
        #expect(reversal.customerStatus?.status == .canceled)
        #expect(reversal.customerStatus?.at == Self.reversalTime)
        #expect(reversal.lifecycle == nil)
    }

    @Test func aRefundOfAnotherCustomersPurchaseLeavesThisCustomer() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1"), Self.paid("tx_9", customer: "cust_2")])
        let plan = Self.plan(Self.refund("tx_9"), ledger)
        #expect(plan.outcome == .refunded)
        #expect(plan.commissionStatuses.map(\.id) == ["com_tx_9"])
        #expect(plan.customerStatus == nil)
    }

    @Test func anUnattributedRefundOfAStoredPurchaseStillReversesItsCommission() {
        let stored = Self.paid("tx_1")
        let plan = Self.plan(Self.refund(), CommissionLedger(customer: nil, transactions: [stored]))
        #expect(plan.outcome == .refunded)
        #expect(plan.commissionStatuses.map(\.status) == [.reversed])
        #expect(plan.customerStatus == nil)
    }

    /// A refund is not ordered against lifecycle events: older than the cancellation that set the lifecycle, it
    /// still reverses the commission and the lists show refunded; the lifecycle stays canceled.
    @Test func anOlderRefundStillShowsOverANewerCancellation() {
        let ledger = Self.ledger(
            .canceled, changedAt: Self.reversalTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let plan = Self.plan(Self.refund(at: Self.refundTime), ledger)
        var expected = WebhookPlan(outcome: .refunded)
        expected.transactions = [
            Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.refundTime)
        ]
        expected.commissionStatuses = [.init(id: "com_tx_1", status: .reversed)]
        expected.customerStatus = .init(.refunded, at: Self.refundTime)
        #expect(plan == expected)
    }
}
