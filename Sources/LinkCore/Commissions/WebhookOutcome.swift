/// What an event did, in one word: stored with the event and returned in the webhook's answer.
public enum WebhookOutcome: String, Sendable, CaseIterable {
    /// A paid purchase earned a commission.
    case commissionCreated = "commission_created"
    /// A paid purchase was recorded but earns nothing: no rule, `recurring: false`, past `duration_months`,
    /// or an amount that rounds to zero.
    case purchaseRecorded = "purchase_recorded"
    /// A purchase whose transaction was already recorded by another event.
    case duplicateTransaction = "duplicate_transaction"
    /// A purchase (or the refund of one) made before the customer's claim: not the partner's, not recorded.
    case beforeClaim = "before_claim"
    /// A free trial started.
    case trialStarted = "trial_started"
    /// A purchase with no price (a free offer): no money.
    case freePurchase = "free_purchase"
    /// A paid purchase whose price RevenueCat does not know (`price: null`): recorded, the customer paying, but
    /// no revenue and no commission (a percentage of an unknown price); a fixed amount is paid
    /// (`commission_created`).
    case priceUnknown = "price_unknown"
    /// A purchase (or its refund) shared through Apple's Family Sharing (`is_family_share`): the buyer's payment
    /// seen again from a family member, which RevenueCat counts in no revenue. No money, no status change.
    case familyShare = "family_share"
    /// A refund took a purchase back (or is kept until its purchase arrives).
    case refunded
    /// A refund was reversed.
    case refundReversed = "refund_reversed"
    /// A refund or reversal older than the one already applied.
    case staleRefund = "stale_refund"
    /// The customer's status changed (cancellation, expiration, uncancellation).
    case statusChanged = "status_changed"
    /// A cancellation, expiration or uncancellation older than the event that last set the status.
    case staleStatus = "stale_status"
    /// A `TRANSFER` moved the customer to new user ids.
    case transferred
    /// A sandbox (or unknown environment) event: stored, nothing else.
    case sandbox
    /// No claimed customer has the event's user ids.
    case unattributed
    /// An event type that changes nothing here.
    case ignored
    /// A redelivery of an event already stored.
    case duplicate
}
