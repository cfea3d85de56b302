/// Turns one RevenueCat event into what it changes: the rules of the webhook, pure, so that they are tested
/// without a store or a socket. The store reads the ``CommissionLedger`` and applies the ``WebhookPlan`` in
/// one transaction.
///
/// - A paid production `INITIAL_PURCHASE`, `NON_RENEWING_PURCHASE` or `RENEWAL` of a claimed customer records
///   its transaction and, when the program's rule allows, earns a commission (`reversed` at once when the
///   purchase's refund arrived first). One made before the claim (``claimTolerance``) is not the partner's and
///   changes nothing (`before_claim`), and nor does its refund.
/// - A refund (`CANCELLATION` by `CUSTOMER_SUPPORT`, or a price of −0.005 USD or less) reverses the whole
///   commission of its transaction; `REFUND_REVERSED` puts it back. Both are kept on the transaction when its
///   purchase has not arrived, and the later of two refund events (by event time) wins.
/// - A family-shared purchase (`is_family_share`) and its refund change nothing (`family_share`).
/// - `TRANSFER` makes the customer of the old ids answer for the new ones. Any other event of a claimed customer
///   ties its user ids together (``tiedCustomer(_:ledger:)``).
/// - Sandbox events, unknown types and the rest change nothing.
///
/// An event that arrived before the claim of its user (`unattributed`) is planned again when the claim lands, or when
/// a later event ties one of its ids to a customer (``claimReplayLimit``), with the same rules, so that the order of
/// arrival does not change what is paid.
///
/// Events may arrive in any order. A customer's lifecycle (trialing, paying, canceled) follows the newest
/// event by event time; `refunded` is a fact about money (every paid purchase refunded) and shows over it.
public enum CommissionPlanner {
    /// The plan for `event`. `rule` is the customer's program's rule (`nil`: the program pays nothing);
    /// `now` stands in for a missing event time; `makeID` names a new commission.
    public static func plan(
        _ event: RevenueCatEvent, ledger: CommissionLedger, rule: CommissionRule?, now: Int64,
        makeID: () -> String
    ) -> WebhookPlan {
        guard event.isProduction else { return WebhookPlan(outcome: .sandbox) }
        let time = event.timestamp ?? now
        var plan = decide(event, ledger: ledger, rule: rule, time: time, makeID: makeID)
        if event.type != "TRANSFER", let customer = tiedCustomer(event, ledger: ledger) {
            plan.aliases = event.customerLookupIDs
            plan.aliasesCustomerID = customer
            plan.aliasesChangedAt = time
        }
        return plan
    }

    /// The customer an event's user ids become, for claims and later events, or `nil` when they stay as they are.
    ///
    /// RevenueCat says the ids of one event are one user, so that a login (an anonymous id aliased into a known
    /// one) cannot make a second customer of them, whichever way the event was found: a renewal, found by the
    /// subscription it renews, names the `$RCAnonymousID` of the device it was made on too. They become the
    /// customer they lead to (the one claimed first), and when they lead to none, the customer of the event's
    /// purchase, unless the event is family-shared: its ids are then the family member's, another person than the
    /// buyer whose purchase it is. A `TRANSFER` ties its own way: its new ids, to the customer of its old ones.
    static func tiedCustomer(_ event: RevenueCatEvent, ledger: CommissionLedger) -> String? {
        guard let customer = ledger.customer else { return nil }
        return ledger.userIDsCustomerID ?? (event.isFamilyShare ? nil : customer.id)
    }

    private static func decide(
        _ event: RevenueCatEvent, ledger: CommissionLedger, rule: CommissionRule?, time: Int64, makeID: () -> String
    ) -> WebhookPlan {
        let moneyTypes: Set<String> = ["INITIAL_PURCHASE", "NON_RENEWING_PURCHASE", "RENEWAL", "REFUND_REVERSED"]
        if event.isFamilyShare, event.isRefund || moneyTypes.contains(event.type) {
            // The buyer's payment seen again from a family member: RevenueCat counts it in no revenue, and it
            // neither pays nor takes back a commission.
            return WebhookPlan(outcome: ledger.customer == nil ? .unattributed : .familyShare)
        }
        if event.isRefund {
            return refund(event, ledger: ledger, refunded: true, time: time)
        }
        switch event.type {
        case "REFUND_REVERSED":
            return refund(event, ledger: ledger, refunded: false, time: time)
        case "INITIAL_PURCHASE", "NON_RENEWING_PURCHASE", "RENEWAL":
            return purchase(event, ledger: ledger, rule: rule, time: time, makeID: makeID)
        case "TRANSFER":
            guard let customer = ledger.customer else { return WebhookPlan(outcome: .unattributed) }
            var plan = WebhookPlan(outcome: .transferred)
            // By bytes, in one pass over each list (up to ``RevenueCatEvent/maximumIDCount`` ids each).
            let from = Set(event.transferredFrom.map { Array($0.utf8) })
            plan.aliases = event.transferredTo.filter { !from.contains(Array($0.utf8)) }
            if !plan.aliases.isEmpty {
                plan.aliasesCustomerID = customer.id
                plan.aliasesChangedAt = time
            }
            return plan
        case "CANCELLATION", "EXPIRATION":
            guard let customer = ledger.customer else { return WebhookPlan(outcome: .unattributed) }
            return lifecycleEvent(customer, to: .canceled, at: time, ledger: ledger)
        case "UNCANCELLATION":
            guard let customer = ledger.customer else { return WebhookPlan(outcome: .unattributed) }
            let paid =
                ledger.otherPaid.count > 0
                || ledger.transactions.contains { $0.customerID == customer.id && $0.isPaidPurchase }
            return lifecycleEvent(customer, to: paid ? .paying : .trialing, at: time, ledger: ledger)
        default:
            return WebhookPlan(outcome: .ignored)
        }
    }

    private static func purchase(
        _ event: RevenueCatEvent, ledger: CommissionLedger, rule: CommissionRule?, time: Int64, makeID: () -> String
    ) -> WebhookPlan {
        guard let customer = ledger.customer else { return WebhookPlan(outcome: .unattributed) }
        // A price that rounds to no cent is free: there is no revenue to share. An unknown price (null) is a
        // payment of an amount nobody told us, unless the event is a trial.
        let price = event.price.flatMap { $0.cents > 0 ? $0 : nil }
        let priceUnknown = event.priceIsUnknown && event.periodType != "TRIAL"
        guard price != nil || priceUnknown else {
            guard event.periodType == "TRIAL" else { return WebhookPlan(outcome: .freePurchase) }
            // A trial does not take a paying customer back to trialing.
            guard customer.lifecycle != .paying else { return WebhookPlan(outcome: .trialStarted) }
            var plan = lifecycleEvent(customer, to: .trialing, at: time, ledger: ledger)
            if plan.lifecycle != nil { plan.outcome = .trialStarted }
            return plan
        }
        // A purchase without a transaction id cannot be matched with its refund; its event id stands in.
        let transactionID = event.transactionID ?? "event:" + event.id
        let stored = ledger.transaction(transactionID)
        if stored?.revenueCents != nil { return WebhookPlan(outcome: .duplicateTransaction) }
        // A missing or implausible purchase time (read as absent) is the event's time, which is never earlier.
        let purchasedAt = event.purchasedAt ?? time
        // Not the partner's: not recorded, so it is not the first paid purchase either, and the customer's
        // status stays. A renewal made after the claim is a purchase of its own, and counts.
        if isBeforeClaim(purchasedAt, customer: customer) { return WebhookPlan(outcome: .beforeClaim) }
        let transaction = CommissionLedger.Transaction(
            transactionID: transactionID, customerID: customer.id, revenueCents: price?.cents ?? 0,
            purchasedAt: purchasedAt, refunded: stored?.refunded ?? false, refundChangedAt: stored?.refundChangedAt,
            priceUnknown: price == nil)
        let firstPaidAt = min(customer.firstPaidAt ?? purchasedAt, purchasedAt)
        // `recurring: false` pays the customer's first paid purchase to arrive that is not refunded: a purchase
        // taken back (its commission reversed) leaves the partner's one commission to the next.
        let earlierPaid =
            ledger.otherPaid.count > ledger.otherPaid.refunded
            || ledger.transactions.contains {
                $0.customerID == customer.id && $0.isPaidPurchase && !$0.refunded && $0.transactionID != transactionID
            }
        var after = ledger.transactions.filter { $0.transactionID != transactionID }
        after.append(transaction)
        var plan = lifecycleEvent(
            customer, to: .paying, at: time,
            ledger: CommissionLedger(customer: customer, transactions: after, otherPaid: ledger.otherPaid))
        if plan.lifecycle == nil {
            // Older than the last lifecycle event, which stands, except that a newer trial or uncancellation
            // said `trialing` only because this payment had not arrived: the customer has paid.
            var lifecycle = customer.lifecycle
            if lifecycle == .trialing, let changedAt = customer.statusChangedAt {
                lifecycle = .paying
                plan.lifecycle = .init(.paying, at: changedAt)
            }
            let status = shownStatus(lifecycle, transactions: after, otherPaid: ledger.otherPaid, customer: customer.id)
            if status != customer.status { plan.customerStatus = .init(status, at: time) }
        }
        plan.outcome = price == nil ? .priceUnknown : .purchaseRecorded
        plan.transactions = [transaction]
        if firstPaidAt != customer.firstPaidAt { plan.firstPaidAt = firstPaidAt }
        if let rule, rule.recurring || !earlierPaid,
            rule.durationMonths.map({ purchasedAt < Timestamp.adding(months: $0, to: firstPaidAt) }) ?? true
        {
            // A fixed amount does not depend on the price; a share of an unknown price is unknown, and not paid.
            let amount = rule.cents(of: price) ?? 0
            if amount > 0 {
                let status: CommissionStatus = transaction.refunded ? .reversed : .pending
                plan.newCommission = NewCommission(
                    id: makeID(), transactionID: transactionID, productID: event.productID,
                    revenueCents: transaction.revenueCents ?? 0, amountCents: amount, status: status)
                plan.outcome = .commissionCreated
            }
        }
        return plan
    }

    private static func refund(_ event: RevenueCatEvent, ledger: CommissionLedger, refunded: Bool, time: Int64)
        -> WebhookPlan
    {
        guard let transactionID = event.transactionID else { return WebhookPlan(outcome: .ignored) }
        // A refund of a purchase nobody claimed and no customer to wait for: nothing to keep.
        if ledger.customer == nil, ledger.transaction(transactionID) == nil {
            return WebhookPlan(outcome: .unattributed)
        }
        // A refund of a purchase made before the claim (by the purchase time the refund event carries): that
        // purchase is never recorded, so there is nothing to take back and nothing to keep for it. Without a
        // purchase time the refund is kept as usual; its purchase, if it was before the claim, never uses it.
        if ledger.transaction(transactionID)?.revenueCents == nil, let customer = ledger.customer,
            let purchasedAt = event.purchasedAt, isBeforeClaim(purchasedAt, customer: customer)
        {
            return WebhookPlan(outcome: .beforeClaim)
        }
        var transaction =
            ledger.transaction(transactionID)
            ?? CommissionLedger.Transaction(transactionID: transactionID, customerID: ledger.customer?.id)
        if let changed = transaction.refundChangedAt, changed > time { return WebhookPlan(outcome: .staleRefund) }
        transaction.refunded = refunded
        transaction.refundChangedAt = time
        if var commission = transaction.commission {
            commission.status = refunded ? .reversed : .pending
            transaction.commission = commission
        }
        var plan = WebhookPlan(outcome: refunded ? .refunded : .refundReversed)
        plan.transactions = [transaction]
        if let commission = transaction.commission, commission != ledger.transaction(transactionID)?.commission {
            plan.commissionStatuses = [.init(id: commission.id, status: commission.status)]
        }
        // The customer is the one that made the purchase; before the purchase arrives, whoever the ids lead to.
        guard let customer = ledger.customer, transaction.customerID == nil || transaction.customerID == customer.id
        else { return plan }
        var after = ledger.transactions.filter { $0.transactionID != transactionID }
        after.append(transaction)
        let status = shownStatus(
            customer.lifecycle, transactions: after, otherPaid: ledger.otherPaid, customer: customer.id)
        if status != customer.status { plan.customerStatus = .init(status, at: time) }
        return plan
    }

    /// How long before the claim a purchase may be made and still count as made after it, in milliseconds: two
    /// minutes. The purchase time is the store's clock (Apple's, Google's) and the claim time ours, and the SDK
    /// retries a claim for up to 90 s, so a purchase made while the claim was on its way can carry an earlier
    /// time; a purchase made more than two minutes before it is one the partner did not bring.
    public static let claimTolerance: Int64 = 120_000

    /// The most stored `unattributed` events a claim, or an event that ties ids to a customer, plans again (those of
    /// the ids whose event time is at most ``claimTolerance`` before the claim, oldest first, with those of the ids
    /// they tie in turn): a user has one or two within two minutes of a claim, so the bound only keeps a flood of
    /// events for one id from holding the store's lock.
    public static let claimReplayLimit = 50

    /// Whether a purchase made at `purchasedAt` was made before the customer's claim (beyond the tolerance).
    static func isBeforeClaim(_ purchasedAt: Int64, customer: CommissionLedger.Customer) -> Bool {
        guard let claimedAt = customer.claimedAt else { return false }
        return purchasedAt < claimedAt - claimTolerance
    }

    /// A cancellation, expiration, uncancellation, trial or purchase: the lifecycle moves to `target` unless
    /// a newer event already spoke; the time is recorded even when the lifecycle stays, to order later events.
    private static func lifecycleEvent(
        _ customer: CommissionLedger.Customer, to target: CustomerStatus, at time: Int64, ledger: CommissionLedger
    ) -> WebhookPlan {
        guard time >= (customer.statusChangedAt ?? .min) else { return WebhookPlan(outcome: .staleStatus) }
        var plan = WebhookPlan(outcome: .statusChanged)
        plan.lifecycle = .init(target, at: time)
        let status = shownStatus(
            target, transactions: ledger.transactions, otherPaid: ledger.otherPaid, customer: customer.id)
        if status != customer.status { plan.customerStatus = .init(status, at: time) }
        return plan
    }

    /// `refunded` when the customer paid at least once and every paid purchase was refunded; else the lifecycle.
    private static func shownStatus(
        _ lifecycle: CustomerStatus, transactions: [CommissionLedger.Transaction],
        otherPaid: CommissionLedger.PaidSummary, customer: String
    ) -> CustomerStatus {
        let paid = transactions.filter { $0.customerID == customer && $0.isPaidPurchase }
        let count = paid.count + otherPaid.count
        let refunded = paid.filter(\.refunded).count + otherPaid.refunded
        return count > 0 && refunded == count ? .refunded : lifecycle
    }
}
