import Testing

@testable import LinkCore

/// `CommissionPlanner.plan` against hand-built ledgers: what a purchase pays (percent, fixed, recurring,
/// duration), refunds, transfers, sandbox and ignored events, and the customer's status. The extensions in
/// `CommissionPlannerTests+….swift` hold the refunds, the statuses and the other event types.
@Suite struct CommissionPlannerTests {
    typealias Transaction = CommissionLedger.Transaction

    static let customerID = "cust_1"
    static func time(_ text: String) -> Int64 { Timestamp.parse(text)! }
    /// When the test purchases were made, and RevenueCat's event time for them (a few seconds later).
    static let purchaseTime = time("2026-03-02T09:15:00Z")
    static let eventTime = purchaseTime + 4_000
    /// The server's clock, which stands in for a missing event time.
    static let now = time("2026-06-01T12:00:00Z")
    static let twentyPercent = CommissionRule(amount: .percent(basisPoints: 2_000))

    /// A production event of `user_1` for transaction `tx_1`, 4.99 USD, by default.
    static func event(
        _ type: String, id: String = "evt_1", transaction: String? = "tx_1", price: String? = "4.99",
        at time: Int64? = eventTime, purchasedAt: Int64? = purchaseTime, period: String? = "NORMAL",
        reason: String? = nil, environment: String? = "PRODUCTION", product: String? = "pro.monthly"
    ) -> RevenueCatEvent {
        var event = RevenueCatEvent(id: id, type: type)
        event.environment = environment
        event.appUserID = "user_1"
        event.transactionID = transaction
        event.originalTransactionID = transaction
        event.productID = product
        event.periodType = period
        event.cancelReason = reason
        event.price = price.map { USDAmount(parsing: $0)! }
        event.purchasedAt = purchasedAt
        event.timestamp = time
        return event
    }

    /// The ledger of the claimed customer `cust_1`, shown as `status`. Its lifecycle is `lifecycle`, by default
    /// `status` (`paying` for a refunded customer), set at `changedAt`; claimed at `claimedAt` (by default no
    /// claim time, so that purchases of any time count).
    static func ledger(
        _ status: CustomerStatus = .lead, lifecycle: CustomerStatus? = nil, changedAt: Int64? = nil,
        firstPaidAt: Int64? = nil, claimedAt: Int64? = nil, _ transactions: [Transaction] = []
    ) -> CommissionLedger {
        CommissionLedger(
            customer: .init(
                id: customerID, partnerID: "part_sam", programID: "prg_1", status: status, lifecycle: lifecycle,
                statusChangedAt: changedAt, firstPaidAt: firstPaidAt, claimedAt: claimedAt),
            transactions: transactions)
    }

    /// A paid purchase of `cust_1` already stored, with its commission `com_<id>` unless `commission` is nil.
    static func paid(
        _ id: String, at purchasedAt: Int64 = purchaseTime, cents: Int64 = 499,
        commission: CommissionStatus? = .pending, refunded: Bool = false, refundChangedAt: Int64? = nil,
        customer: String = customerID
    ) -> Transaction {
        Transaction(
            transactionID: id, customerID: customer, revenueCents: cents, purchasedAt: purchasedAt, refunded: refunded,
            refundChangedAt: refundChangedAt, commission: commission.map { .init(id: "com_\(id)", status: $0) })
    }

    /// The plan, naming new commissions `com_1`, `com_2`, …. Without `ties`, the user ids it ties to a customer are
    /// checked here against the rule every event but a `TRANSFER` follows, then left out, so that the tests of the
    /// money and status rules compare whole plans and still fail on a tie where none belongs (no customer, sandbox, a
    /// family member's ids with nowhere to lead), a missing one, or one to the wrong customer or time; the tests of
    /// ties pass `true` and compare the tie themselves. A `TRANSFER`'s plan is returned whole.
    static func plan(
        _ event: RevenueCatEvent, _ ledger: CommissionLedger, rule: CommissionRule? = twentyPercent,
        now: Int64 = now, ties: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) -> WebhookPlan {
        var count = 0
        var plan = CommissionPlanner.plan(event, ledger: ledger, rule: rule, now: now) {
            count += 1
            return "com_\(count)"
        }
        guard !ties, event.type != "TRANSFER" else { return plan }
        // README: a production event of a claimed customer ties its ids to the customer they lead to, else to the
        // event's customer, unless it is family-shared; as of the event's time.
        var tie: (ids: [String], customer: String?, at: Int64) = ([], nil, 0)
        if event.isProduction, let customer = ledger.customer,
            let tiedTo = ledger.userIDsCustomerID ?? (event.isFamilyShare ? nil : customer.id)
        {
            tie = (event.customerLookupIDs, tiedTo, event.timestamp ?? now)
        }
        #expect(
            (plan.aliases, plan.aliasesCustomerID, plan.aliasesChangedAt) == tie, "the ids' tie",
            sourceLocation: sourceLocation)
        plan.aliases = []
        plan.aliasesCustomerID = nil
        plan.aliasesChangedAt = 0
        return plan
    }

    // MARK: - What a purchase pays

    @Test func aPaidPurchaseEarnsItsShare() {
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), Self.ledger())
        var expected = WebhookPlan(outcome: .commissionCreated)
        expected.transactions = [
            Transaction(
                transactionID: "tx_1", customerID: Self.customerID, revenueCents: 499, purchasedAt: Self.purchaseTime)
        ]
        expected.newCommission = NewCommission(
            id: "com_1", transactionID: "tx_1", productID: "pro.monthly", revenueCents: 499, amountCents: 100,
            status: .pending)
        expected.customerStatus = .init(.paying, at: Self.eventTime)
        expected.lifecycle = .init(.paying, at: Self.eventTime)
        expected.firstPaidAt = Self.purchaseTime
        #expect(plan == expected)
    }

    @Test(arguments: [
        // 20 % of 4.99 is 99.8 cents, 15 % of 3.33 is 49.95, 12.5 % of 9.99 is 124.875: half up.
        ("4.99", 2_000, Int64(100)), ("3.33", 1_500, 50), ("9.99", 1_250, 125), ("49.99", 3_000, 1_500),
        ("4.99", 10_000, 499), ("0.05", 1_000, 1), ("4.99E0", 2_000, 100), ("1e2", 2_500, 2_500),
        ("3.876543219", 2_000, 78), ("10000000", 10_000, 1_000_000_000),
    ])
    func percentOfThePriceRoundedHalfUp(price: String, basisPoints: Int, cents: Int64) {
        let plan = Self.plan(
            Self.event("INITIAL_PURCHASE", price: price), Self.ledger(),
            rule: CommissionRule(amount: .percent(basisPoints: basisPoints)))
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.amountCents == cents)
        #expect(plan.newCommission?.revenueCents == USDAmount(parsing: price)!.cents)
    }

    /// 20 % of 4.9749999997 USD is 99.49999999 cents, so 99 when rounded once.
    @Test func percentIsRoundedOnce() {
        let plan = Self.plan(Self.event("INITIAL_PURCHASE", price: "4.9749999997"), Self.ledger())
        #expect(plan.newCommission?.amountCents == 99)
    }

    @Test(arguments: [("4.99", 250), ("99.99", 250), ("0.01", 250), ("1000", 250), ("4.99", 1)])
    func aFixedAmountWhateverThePrice(price: String, cents: Int) {
        let plan = Self.plan(
            Self.event("INITIAL_PURCHASE", price: price), Self.ledger(),
            rule: CommissionRule(amount: .fixedCents(cents)))
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.amountCents == Int64(cents))
    }

    @Test(arguments: ["INITIAL_PURCHASE", "NON_RENEWING_PURCHASE", "RENEWAL"])
    func everyPurchaseTypePays(type: String) {
        let ledger = Self.ledger(.paying, changedAt: Self.purchaseTime - 1_000, firstPaidAt: Self.purchaseTime - 1_000)
        let plan = Self.plan(Self.event(type, transaction: "tx_2"), ledger)
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.transactionID == "tx_2")
        #expect(plan.newCommission?.amountCents == 100)
        #expect(plan.customerStatus == nil)
        #expect(plan.lifecycle?.status == .paying)
        #expect(plan.lifecycle?.at == Self.eventTime)
        #expect(plan.firstPaidAt == nil)
    }

    @Test func aRenewalPaysAgainWhenTheRuleIsRecurring() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let renewalTime = Self.time("2026-04-02T09:15:00Z")
        let plan = Self.plan(
            Self.event("RENEWAL", id: "evt_2", transaction: "tx_2", at: renewalTime + 3_000, purchasedAt: renewalTime),
            ledger)
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.amountCents == 100)
        #expect(plan.transactions.map(\.transactionID) == ["tx_2"])
    }

    @Test func theCommissionNamesTheProduct() {
        let plan = Self.plan(Self.event("NON_RENEWING_PURCHASE", product: "lifetime"), Self.ledger())
        #expect(plan.newCommission?.productID == "lifetime")
        let anonymous = Self.plan(Self.event("NON_RENEWING_PURCHASE", product: nil), Self.ledger())
        #expect(anonymous.outcome == .commissionCreated)
        #expect(anonymous.newCommission?.productID == nil)
    }

    @Test func withoutARuleThePurchaseIsRecorded() {
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), Self.ledger(), rule: nil)
        var expected = WebhookPlan(outcome: .purchaseRecorded)
        expected.transactions = [
            Transaction(
                transactionID: "tx_1", customerID: Self.customerID, revenueCents: 499, purchasedAt: Self.purchaseTime)
        ]
        expected.customerStatus = .init(.paying, at: Self.eventTime)
        expected.lifecycle = .init(.paying, at: Self.eventTime)
        expected.firstPaidAt = Self.purchaseTime
        #expect(plan == expected)
    }

    @Test(arguments: [
        (CommissionRule(amount: .percent(basisPoints: 1)), "4.99"),
        (CommissionRule(amount: .percent(basisPoints: 99)), "0.05"),
        (CommissionRule(amount: .fixedCents(0)), "4.99"),
    ])
    func anAmountThatRoundsToZeroPaysNothing(rule: CommissionRule, price: String) {
        let plan = Self.plan(Self.event("INITIAL_PURCHASE", price: price), Self.ledger(), rule: rule)
        #expect(plan.outcome == .purchaseRecorded)
        #expect(plan.newCommission == nil)
        #expect(plan.transactions.count == 1)
        #expect(plan.customerStatus?.status == .paying)
        #expect(plan.lifecycle?.status == .paying)
    }

    // MARK: - recurring: false

    @Test func notRecurringPaysTheFirstPaidPurchase() {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), recurring: false)
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), Self.ledger(), rule: rule)
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.amountCents == 100)
    }

    @Test(arguments: ["RENEWAL", "NON_RENEWING_PURCHASE", "INITIAL_PURCHASE"])
    func notRecurringPaysNothingAfterTheFirstPaidPurchase(type: String) {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), recurring: false)
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let renewalTime = Self.time("2026-04-02T09:15:00Z")
        let plan = Self.plan(
            Self.event(type, id: "evt_2", transaction: "tx_2", at: renewalTime + 3_000, purchasedAt: renewalTime),
            ledger, rule: rule)
        var expected = WebhookPlan(outcome: .purchaseRecorded)
        expected.transactions = [
            Transaction(transactionID: "tx_2", customerID: Self.customerID, revenueCents: 499, purchasedAt: renewalTime)
        ]
        // Already paying: the lifecycle keeps its value but takes the renewal's time, so older events are refused.
        expected.lifecycle = .init(.paying, at: renewalTime + 3_000)
        #expect(plan == expected)
    }

    /// README: `recurring: false` pays the first paid purchase that is not refunded. A first purchase taken back
    /// (its commission reversed) leaves the partner's one commission to the next.
    @Test func notRecurringPaysTheNextPurchaseWhenTheFirstWasRefunded() {
        let rule = CommissionRule(amount: .fixedCents(300), recurring: false)
        let ledger = Self.ledger(
            .refunded, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: Self.eventTime)])
        let plan = Self.plan(Self.event("RENEWAL", transaction: "tx_2", at: Self.now), ledger, rule: rule)
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.amountCents == 300)
        #expect(plan.customerStatus?.status == .paying)
        #expect(plan.lifecycle?.status == .paying)
        // Counted rather than listed (a long history): one paid and refunded is no paid purchase either.
        let counted = CommissionLedger(
            customer: ledger.customer, otherPaid: CommissionLedger.PaidSummary(count: 1, refunded: 1))
        #expect(
            Self.plan(Self.event("RENEWAL", transaction: "tx_2"), counted, rule: rule).outcome == .commissionCreated)
        let kept = CommissionLedger(
            customer: ledger.customer, otherPaid: CommissionLedger.PaidSummary(count: 2, refunded: 1))
        #expect(Self.plan(Self.event("RENEWAL", transaction: "tx_2"), kept, rule: rule).outcome == .purchaseRecorded)
    }

    /// A free trial is no paid purchase: the renewal that converts it is the first one, and pays.
    @Test func notRecurringPaysTheRenewalThatEndsAFreeTrial() {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), recurring: false)
        var replay = CommissionReplay(ledger: Self.ledger(), rule: rule, now: Self.now)
        let trialTime = Self.time("2026-02-23T09:15:00Z")
        replay.play(Self.event("INITIAL_PURCHASE", price: "0", at: trialTime, purchasedAt: trialTime, period: "TRIAL"))
        let plan = replay.play(Self.event("RENEWAL", id: "evt_2", transaction: "tx_2"))
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.amountCents == 100)
        let next = replay.play(
            Self.event("RENEWAL", id: "evt_3", transaction: "tx_3", at: Self.now, purchasedAt: Self.now))
        #expect(next.outcome == .purchaseRecorded)
    }

    @Test func notRecurringIgnoresOtherCustomersPurchases() {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), recurring: false)
        let ledger = Self.ledger(
            .lead, [Self.paid("tx_other", customer: "cust_2"), Transaction(transactionID: "tx_x")])
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), ledger, rule: rule)
        #expect(plan.outcome == .commissionCreated)
    }

    /// When a renewal's webhook arrives before the initial purchase's (RevenueCat retries failed webhooks for
    /// hours), the renewal is the first paid purchase to arrive and is the one paid; the initial purchase, older
    /// but later to arrive, is recorded, earns nothing and moves the first paid time back.
    @Test func notRecurringPaysTheFirstPaidPurchaseToArrive() {
        // Deliberate: the partner was already paid on the first to arrive; reversing a paid commission because
        // of delivery order would be worse.
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), recurring: false)
        let renewalTime = Self.time("2026-04-02T09:15:00Z")
        let ledger = Self.ledger(
            .paying, changedAt: renewalTime + 3_000, firstPaidAt: renewalTime, [Self.paid("tx_2", at: renewalTime)])
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), ledger, rule: rule)
        var expected = WebhookPlan(outcome: .purchaseRecorded)
        expected.transactions = [
            Transaction(
                transactionID: "tx_1", customerID: Self.customerID, revenueCents: 499, purchasedAt: Self.purchaseTime)
        ]
        // Older than the renewal: recorded, but the lifecycle and its time stay.
        expected.firstPaidAt = Self.purchaseTime
        #expect(plan == expected)
    }

    /// The same two purchases played in arrival order: the renewal pays, the initial purchase does not.
    @Test func notRecurringPaysTheRenewalThatArrivesBeforeTheInitialPurchase() {
        // Deliberate: `recurring: false` pays the first paid purchase to arrive, not the earliest one.
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), recurring: false)
        let renewalTime = Self.time("2026-04-02T09:15:00Z")
        var replay = CommissionReplay(ledger: Self.ledger(), rule: rule, now: Self.now)
        let outcomes = replay.play([
            Self.event("RENEWAL", id: "evt_2", transaction: "tx_2", at: renewalTime + 3_000, purchasedAt: renewalTime),
            Self.event("INITIAL_PURCHASE"),
        ])
        #expect(outcomes == [.commissionCreated, .purchaseRecorded])
        #expect(replay.ledger.commissionStatus("tx_2") == .pending)
        #expect(replay.ledger.commissionStatus("tx_1") == nil)
        #expect(replay.ledger.customer?.firstPaidAt == Self.purchaseTime)
        #expect(replay.ledger.customer?.lifecycle == .paying)
        #expect(replay.ledger.customer?.statusChangedAt == renewalTime + 3_000)
        #expect(replay.status == .paying)
    }

    // MARK: - duration_months

    /// A rule of one month from Jan 31 ends on Feb 28 at the same time: a purchase then pays nothing, one
    /// millisecond earlier pays.
    @Test(arguments: [
        (1, "2026-01-31T10:00:00Z", "2026-02-28T10:00:00Z"), (1, "2024-01-31T10:00:00Z", "2024-02-29T10:00:00Z"),
        (12, "2026-01-31T10:00:00Z", "2027-01-31T10:00:00Z"), (12, "2024-02-29T10:00:00Z", "2025-02-28T10:00:00Z"),
        (3, "2026-03-02T09:15:00Z", "2026-06-02T09:15:00Z"), (24, "2026-03-31T23:59:59Z", "2028-03-31T23:59:59Z"),
    ])
    func durationEndsExactlyThatManyMonthsAfterTheFirstPaidPurchase(months: Int, first: String, end: String) {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), durationMonths: months)
        let firstPaid = Self.time(first)
        let ledger = Self.ledger(
            .paying, changedAt: firstPaid, firstPaidAt: firstPaid, [Self.paid("tx_1", at: firstPaid)])
        let endTime = Self.time(end)
        func renewal(at purchasedAt: Int64) -> WebhookPlan {
            Self.plan(
                Self.event(
                    "RENEWAL", id: "evt_2", transaction: "tx_2", at: purchasedAt + 1_000, purchasedAt: purchasedAt),
                ledger, rule: rule)
        }
        let justBefore = renewal(at: endTime - 1)
        #expect(justBefore.outcome == .commissionCreated)
        #expect(justBefore.newCommission?.amountCents == 100)
        let atTheEnd = renewal(at: endTime)
        #expect(atTheEnd.outcome == .purchaseRecorded)
        #expect(atTheEnd.newCommission == nil)
        #expect(atTheEnd.transactions.first?.revenueCents == 499)
        let after = renewal(at: Timestamp.adding(months: 1, to: endTime))
        #expect(after.outcome == .purchaseRecorded)
    }

    @Test func durationCountsFromThePurchaseTimeNotTheEventTime() {
        let rule = CommissionRule(amount: .fixedCents(100), durationMonths: 1)
        let firstPaid = Self.time("2026-01-31T10:00:00Z")
        let ledger = Self.ledger(
            .paying, changedAt: firstPaid, firstPaidAt: firstPaid, [Self.paid("tx_1", at: firstPaid)])
        // Bought a millisecond before the end, delivered a day after it.
        let late = Self.event(
            "RENEWAL", transaction: "tx_2", at: Self.time("2026-03-01T10:00:00Z"),
            purchasedAt: Self.time("2026-02-28T09:59:59.999Z"))
        #expect(Self.plan(late, ledger, rule: rule).outcome == .commissionCreated)
    }

    @Test func theFirstPaidPurchaseStartsTheDuration() {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), durationMonths: 1)
        var replay = CommissionReplay(ledger: Self.ledger(), rule: rule, now: Self.now)
        let first = replay.play(Self.event("INITIAL_PURCHASE"))
        #expect(first.outcome == .commissionCreated)
        #expect(first.firstPaidAt == Self.purchaseTime)
        #expect(replay.ledger.customer?.firstPaidAt == Self.purchaseTime)
        let oneMonth = Self.time("2026-04-02T09:15:00Z")
        let second = replay.play(
            Self.event("RENEWAL", id: "evt_2", transaction: "tx_2", at: oneMonth - 1, purchasedAt: oneMonth - 1))
        #expect(second.outcome == .commissionCreated)
        #expect(second.firstPaidAt == nil)
        let third = replay.play(
            Self.event("RENEWAL", id: "evt_3", transaction: "tx_3", at: oneMonth, purchasedAt: oneMonth))
        #expect(third.outcome == .purchaseRecorded)
    }

    /// A trial is not paid: the duration starts at the first paid purchase after it.
    @Test func aTrialDoesNotStartTheDuration() {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), durationMonths: 1)
        var replay = CommissionReplay(ledger: Self.ledger(), rule: rule, now: Self.now)
        let trialTime = Self.time("2026-02-01T09:15:00Z")
        let trial = replay.play(
            Self.event("INITIAL_PURCHASE", price: "0", at: trialTime, purchasedAt: trialTime, period: "TRIAL"))
        #expect(trial.firstPaidAt == nil)
        #expect(replay.play(Self.event("RENEWAL", transaction: "tx_2")).outcome == .commissionCreated)
        #expect(replay.ledger.customer?.firstPaidAt == Self.purchaseTime)
    }

    @Test func anEarlierPurchaseArrivingLateMovesTheFirstPaidTimeBack() {
        let rule = CommissionRule(amount: .percent(basisPoints: 2_000), durationMonths: 12)
        let later = Self.time("2026-04-02T09:15:00Z")
        let ledger = Self.ledger(.paying, changedAt: later, firstPaidAt: later, [Self.paid("tx_2", at: later)])
        let plan = Self.plan(Self.event("INITIAL_PURCHASE"), ledger, rule: rule)
        #expect(plan.firstPaidAt == Self.purchaseTime)
        #expect(plan.newCommission?.amountCents == 100)
    }

    @Test func aPurchaseLaterThanTheFirstLeavesTheFirstPaidTime() {
        let earlier = Self.time("2026-01-02T09:15:00Z")
        let ledger = Self.ledger(.paying, changedAt: earlier, firstPaidAt: earlier, [Self.paid("tx_0", at: earlier)])
        #expect(Self.plan(Self.event("RENEWAL"), ledger).firstPaidAt == nil)
    }

    // MARK: - Times, ids and duplicates

    @Test func aMissingPurchaseTimeIsTheEventTime() {
        var event = Self.event("INITIAL_PURCHASE")
        event.purchasedAt = nil
        let plan = Self.plan(event, Self.ledger())
        #expect(plan.transactions.first?.purchasedAt == Self.eventTime)
        #expect(plan.firstPaidAt == Self.eventTime)
        #expect(plan.customerStatus?.at == Self.eventTime)
        #expect(plan.lifecycle?.at == Self.eventTime)
    }

    @Test func aMissingEventTimeIsNow() {
        var event = Self.event("INITIAL_PURCHASE")
        event.purchasedAt = nil
        event.timestamp = nil
        let plan = Self.plan(event, Self.ledger())
        #expect(plan.transactions.first?.purchasedAt == Self.now)
        #expect(plan.customerStatus?.at == Self.now)
        #expect(plan.lifecycle?.at == Self.now)
    }

    @Test func aPurchaseWithoutATransactionIDIsKnownByItsEventID() {
        let plan = Self.plan(Self.event("NON_RENEWING_PURCHASE", id: "evt_9", transaction: nil), Self.ledger())
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.transactions.map(\.transactionID) == ["event:evt_9"])
        #expect(plan.newCommission?.transactionID == "event:evt_9")
        let ledger = Self.ledger().applying(plan)
        let again = Self.plan(Self.event("NON_RENEWING_PURCHASE", id: "evt_9", transaction: nil), ledger)
        #expect(again.outcome == .duplicateTransaction)
    }

    @Test func aTransactionIsPaidOnce() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let plan = Self.plan(Self.event("RENEWAL", id: "evt_2", at: Self.now), ledger)
        #expect(plan == WebhookPlan(outcome: .duplicateTransaction))
    }

    @Test func aTransactionRecordedWithoutACommissionIsStillADuplicate() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1", commission: nil)])
        #expect(
            Self.plan(Self.event("INITIAL_PURCHASE", id: "evt_2"), ledger)
                == WebhookPlan(outcome: .duplicateTransaction))
    }

    @Test func replayingTheSamePurchaseTwice() {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        let outcomes = replay.play([
            Self.event("INITIAL_PURCHASE"), Self.event("INITIAL_PURCHASE", id: "evt_2"),
            Self.event("RENEWAL", id: "evt_3"),
        ])
        #expect(outcomes == [.commissionCreated, .duplicateTransaction, .duplicateTransaction])
        #expect(replay.ledger.transactions.count == 1)
        #expect(replay.ledger.commissionStatus("tx_1") == .pending)
    }

    // MARK: - Free purchases

    @Test(
        arguments: [
            ("INITIAL_PURCHASE", "0", "NORMAL"), ("INITIAL_PURCHASE", nil, "NORMAL"),
            ("INITIAL_PURCHASE", "0", "INTRO"),
            ("INITIAL_PURCHASE", "0", nil), ("RENEWAL", "0", "PROMOTIONAL"),
            ("NON_RENEWING_PURCHASE", "0.00", "NORMAL"),
            ("INITIAL_PURCHASE", "0", "trial"),
        ] as [(String, String?, String?)])
    func aFreePurchasePaysNothing(type: String, price: String?, period: String?) {
        let plan = Self.plan(Self.event(type, price: price, period: period), Self.ledger())
        #expect(plan == WebhookPlan(outcome: .freePurchase))
    }

    /// 0.004 USD is more than zero but less than half a cent: no transaction, no revenue, and no commission even
    /// with a fixed rule, which does not depend on the price.
    @Test(arguments: ["0.004", "0.0049999", "1e-18", "0.000000000000000000001"])
    func aPriceThatRoundsToNoCentIsFree(price: String) {
        // Deliberate: a price that rounds to 0 cents is treated as free.
        let plan = Self.plan(
            Self.event("INITIAL_PURCHASE", price: price), Self.ledger(),
            rule: CommissionRule(amount: .fixedCents(100)))
        #expect(plan == WebhookPlan(outcome: .freePurchase))
    }

    /// Half a cent rounds up to a cent: that is paid.
    @Test func halfACentIsPaid() {
        let plan = Self.plan(
            Self.event("INITIAL_PURCHASE", price: "0.005"), Self.ledger(),
            rule: CommissionRule(amount: .fixedCents(100)))
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.transactions.map(\.revenueCents) == [1])
        #expect(plan.newCommission?.amountCents == 100)
    }

    // MARK: - Who pays

    @Test(arguments: [
        "INITIAL_PURCHASE", "NON_RENEWING_PURCHASE", "RENEWAL", "CANCELLATION", "EXPIRATION", "UNCANCELLATION",
        "TRANSFER",
    ])
    func anUnclaimedCustomerIsUnattributed(type: String) {
        let plan = Self.plan(Self.event(type), CommissionLedger(customer: nil))
        #expect(plan == WebhookPlan(outcome: .unattributed))
    }

    @Test func anUnclaimedTrialIsUnattributed() {
        let plan = Self.plan(
            Self.event("INITIAL_PURCHASE", price: "0", period: "TRIAL"), CommissionLedger(customer: nil))
        #expect(plan == WebhookPlan(outcome: .unattributed))
    }

    @Test(arguments: [
        "INITIAL_PURCHASE", "NON_RENEWING_PURCHASE", "RENEWAL", "CANCELLATION", "EXPIRATION", "UNCANCELLATION",
        "TRANSFER", "REFUND_REVERSED", "TEST", "BILLING_ISSUE",
    ])
    func sandboxEventsChangeNothing(type: String) {
        let ledger = Self.ledger(
            .canceled, changedAt: 0, firstPaidAt: Self.purchaseTime,
            [Self.paid("tx_1", commission: .reversed, refunded: true, refundChangedAt: 0)])
        for environment in ["SANDBOX", nil, "production", "Production", "STAGING"] as [String?] {
            let plan = Self.plan(Self.event(type, transaction: "tx_2", environment: environment), ledger)
            #expect(plan == WebhookPlan(outcome: .sandbox), "\(type) in \(environment ?? "no environment")")
        }
    }

    @Test func sandboxRefundsChangeNothing() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let cancellation = Self.event(
            "CANCELLATION", price: "-4.99", at: Self.now, reason: "CUSTOMER_SUPPORT", environment: "SANDBOX")
        #expect(Self.plan(cancellation, ledger) == WebhookPlan(outcome: .sandbox))
        let negative = Self.event("RENEWAL", price: "-4.99", at: Self.now, environment: "SANDBOX")
        #expect(Self.plan(negative, ledger) == WebhookPlan(outcome: .sandbox))
    }

    @Test func aSandboxPurchaseOfAnUnclaimedCustomerIsSandbox() {
        let plan = Self.plan(Self.event("INITIAL_PURCHASE", environment: "SANDBOX"), CommissionLedger(customer: nil))
        #expect(plan == WebhookPlan(outcome: .sandbox))
    }
}

extension WebhookPlan {
    /// Expects the plan to tie `ids` to `customer` as of `time`: every event of a claimed customer ties its ids.
    mutating func tie(_ ids: [String], to customer: String = CommissionPlannerTests.customerID, at time: Int64) {
        aliases = ids
        aliasesCustomerID = customer
        aliasesChangedAt = time
    }
}
