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
    public var commissionStatuses: [CommissionStatusChange] = []
    /// The customer's new status (what the lists show) and the event time that set it.
    public var customerStatus: StatusChange?
    /// The customer's new ``CommissionLedger/Customer/lifecycle`` and the event time that set it: recorded even
    /// when it does not change, so that older events arriving later are ignored.
    public var lifecycle: StatusChange?
    /// The customer's first paid purchase time, when this event sets or moves it earlier.
    public var firstPaidAt: Int64?
    /// User ids that now lead to ``aliasesCustomerID``, for claims and later events: a `TRANSFER`'s new ids, or
    /// the ids any other event names together (`app_user_id`, `original_app_user_id`, `aliases`).
    public var aliases: [String] = []
    /// The customer (`cust_…`) ``aliases`` are tied to: the event's customer for a `TRANSFER`; for another event
    /// the customer its ids lead to, else the customer of its purchase. Set whenever ``aliases`` is not empty.
    public var aliasesCustomerID: String?
    /// The event time that tied ``aliases`` to the customer: an id keeps the customer of the newest event that
    /// tied it, whatever order the events arrive in.
    public var aliasesChangedAt: Int64 = 0

    /// A value with every field given.
    public init(outcome: WebhookOutcome) { self.outcome = outcome }

    /// A customer status (or lifecycle) and the event time that set it.
    public struct StatusChange: Sendable, Equatable {
        /// The new status.
        public var status: CustomerStatus
        /// Milliseconds since 1970: the event's time, which orders it against other events.
        public var at: Int64

        /// A value with every field given.
        public init(_ status: CustomerStatus, at: Int64) {
            self.status = status
            self.at = at
        }
    }

    /// A commission's new status.
    public struct CommissionStatusChange: Sendable, Equatable {
        /// The commission's id (`comm_…`).
        public var id: String
        /// The new status.
        public var status: CommissionStatus

        /// A value with every field given.
        public init(id: String, status: CommissionStatus) {
            self.id = id
            self.status = status
        }
    }
}
