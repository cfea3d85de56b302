/// What one webhook event changes, decided by ``CommissionPlanner`` and applied by the store in the same
/// transaction that stored the event.
public struct WebhookPlan: Sendable, Equatable {
    /// What the event did, stored with it and answered to RevenueCat.
    public var outcome: WebhookOutcome
    /// Transactions to create or replace (by `transactionID`).
    public var transactions: [CommissionLedger.Transaction] = []
    /// A commission to create.
    public var newCommission: NewCommission?
    /// Existing commissions whose status changes.
    public var commissionStatuses: [(id: String, status: CommissionStatus)] = []
    /// The customer's new status (what the lists show) and the event time that set it.
    public var customerStatus: (status: CustomerStatus, at: Int64)?
    /// The customer's new ``CommissionLedger/Customer/lifecycle`` and the event time that set it: recorded even
    /// when it does not change, so that older events arriving later are ignored.
    public var lifecycle: (status: CustomerStatus, at: Int64)?
    /// The customer's first paid purchase time, when this event sets or moves it earlier.
    public var firstPaidAt: Int64?
    /// User ids that now lead to the customer (a `TRANSFER`'s new ids).
    public var aliases: [String] = []

    public init(outcome: WebhookOutcome) { self.outcome = outcome }

    public static func == (lhs: WebhookPlan, rhs: WebhookPlan) -> Bool {
        lhs.outcome == rhs.outcome && lhs.transactions == rhs.transactions && lhs.newCommission == rhs.newCommission
            && lhs.commissionStatuses.map(\.id) == rhs.commissionStatuses.map(\.id)
            && lhs.commissionStatuses.map(\.status) == rhs.commissionStatuses.map(\.status)
            && lhs.customerStatus?.status == rhs.customerStatus?.status
            && lhs.customerStatus?.at == rhs.customerStatus?.at && lhs.lifecycle?.status == rhs.lifecycle?.status
            && lhs.lifecycle?.at == rhs.lifecycle?.at && lhs.firstPaidAt == rhs.firstPaidAt
            && lhs.aliases == rhs.aliases
    }
}

/// A commission a purchase earned.
public struct NewCommission: Sendable, Equatable {
    public var id: String
    public var transactionID: String
    public var productID: String?
    public var revenueCents: Int64
    /// In US cents.
    public var amountCents: Int64
    /// `reversed` when the purchase's refund arrived first.
    public var status: CommissionStatus

    public init(
        id: String, transactionID: String, productID: String?, revenueCents: Int64, amountCents: Int64,
        status: CommissionStatus
    ) {
        self.id = id
        self.transactionID = transactionID
        self.productID = productID
        self.revenueCents = revenueCents
        self.amountCents = amountCents
        self.status = status
    }
}

/// What an event did, in one word: stored with the event and returned in the webhook's answer.
public enum WebhookOutcome: String, Sendable, CaseIterable {
    /// A paid purchase earned a commission.
    case commissionCreated = "commission_created"
    /// A paid purchase was recorded but earns nothing: no rule, `recurring: false`, past `duration_months`,
    /// or an amount that rounds to zero.
    case purchaseRecorded = "purchase_recorded"
    /// A purchase whose transaction was already recorded by another event.
    case duplicateTransaction = "duplicate_transaction"
    /// A free trial started.
    case trialStarted = "trial_started"
    /// A purchase with no price (a free offer): no money.
    case freePurchase = "free_purchase"
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
