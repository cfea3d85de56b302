/// What the store knows about the customer an event concerns, read in the transaction that will apply the
/// event: the input of ``CommissionPlanner``.
public struct CommissionLedger: Sendable, Equatable {
    /// The claimed customer the event's user ids lead to; `nil` when none does (the event is unattributed).
    public var customer: Customer?
    /// The event's own transaction when the store has it (a refund that arrived before its purchase may have no
    /// customer yet); a store may list more of the customer's transactions here instead of counting them in
    /// ``otherPaid``.
    public var transactions: [Transaction]

    /// The customer's other paid purchases, counted rather than listed: a store need not read a long history
    /// for each event. The planner counts these with the paid purchases in ``transactions``.
    public var otherPaid: PaidSummary
    /// The customer (`cust_…`) the event's user ids lead to, as a claim finds an id's owner (of the customers
    /// claimed with one of them or tied to one, the one claimed first); `nil` when they lead to none. It is
    /// ``customer`` when the event was found by its user ids, and may be another one when it was found as the
    /// customer of its transaction or subscription: RevenueCat says the ids are one user, and that user is this
    /// customer, whoever's subscription the event is about.
    public var userIDsCustomerID: String?

    /// A value with every field given.
    public init(
        customer: Customer?, transactions: [Transaction] = [], otherPaid: PaidSummary = PaidSummary(),
        userIDsCustomerID: String? = nil
    ) {
        self.customer = customer
        self.transactions = transactions
        self.otherPaid = otherPaid
        self.userIDsCustomerID = userIDsCustomerID
    }

    /// How many paid purchases, and how many of them refunded.
    public struct PaidSummary: Sendable, Equatable {
        /// Paid purchases.
        public var count: Int
        /// Of those, the refunded ones.
        public var refunded: Int

        /// A value with every field given.
        public init(count: Int = 0, refunded: Int = 0) {
            self.count = count
            self.refunded = refunded
        }
    }

    /// A claimed customer.
    public struct Customer: Sendable, Equatable {
        /// The customer's id (`cust_…`).
        public var id: String
        /// The partner (`part_…`) credited.
        public var partnerID: String
        /// The partner's program (`prg_…`).
        public var programID: String
        /// What the lists show: ``lifecycle``, or `refunded` once every paid purchase was refunded.
        public var status: CustomerStatus
        /// Where the subscription stands by the newest event that spoke of it: `lead`, `trialing`, `paying` or
        /// `canceled`. Kept apart from refunds, which are facts about money whatever their order, so that a
        /// reversed refund brings back the right status.
        public var lifecycle: CustomerStatus
        /// The event time of the event that last set `lifecycle`, so that an older event arriving late does not
        /// undo a newer one.
        public var statusChangedAt: Int64?
        /// When the customer first paid (purchase time), the start of a rule's `duration_months`.
        public var firstPaidAt: Int64?
        /// When the claim tied the customer to the partner (milliseconds since 1970, the server's clock): purchases
        /// made before it are not the partner's. `nil` only where no claim time is known (tests of other rules).
        public var claimedAt: Int64?

        /// A value with every field given.
        public init(
            id: String, partnerID: String, programID: String, status: CustomerStatus, lifecycle: CustomerStatus? = nil,
            statusChangedAt: Int64? = nil, firstPaidAt: Int64? = nil, claimedAt: Int64? = nil
        ) {
            self.id = id
            self.partnerID = partnerID
            self.programID = programID
            self.status = status
            self.lifecycle = lifecycle ?? (status == .refunded ? .paying : status)
            self.statusChangedAt = statusChangedAt
            self.firstPaidAt = firstPaidAt
            self.claimedAt = claimedAt
        }
    }

    /// A store transaction (RevenueCat's `transaction_id`): its purchase, its refund state and its commission.
    public struct Transaction: Sendable, Equatable {
        /// RevenueCat's `transaction_id` of the purchase.
        public var transactionID: String
        /// The customer (`cust_…`) that made the purchase; `nil` for a refund whose purchase has not arrived.
        public var customerID: String?
        /// The purchase's price in cents; `nil` until the purchase arrives (0 when its price is unknown).
        public var revenueCents: Int64?
        /// Whether the purchase was paid at a price RevenueCat did not know (`price: null`).
        public var priceUnknown: Bool
        /// Milliseconds since 1970.
        public var purchasedAt: Int64?
        /// Whether the purchase is refunded (or its refund arrived first).
        public var refunded: Bool
        /// The event time of the refund or reversal that last set `refunded`.
        public var refundChangedAt: Int64?
        /// The commission the purchase earned, when it earned one.
        public var commission: Commission?

        /// A value with every field given.
        public init(
            transactionID: String, customerID: String? = nil, revenueCents: Int64? = nil, purchasedAt: Int64? = nil,
            refunded: Bool = false, refundChangedAt: Int64? = nil, commission: Commission? = nil,
            priceUnknown: Bool = false
        ) {
            self.transactionID = transactionID
            self.priceUnknown = priceUnknown
            self.customerID = customerID
            self.revenueCents = revenueCents
            self.purchasedAt = purchasedAt
            self.refunded = refunded
            self.refundChangedAt = refundChangedAt
            self.commission = commission
        }

        /// Whether the customer paid for this transaction (at a known price or an unknown one).
        public var isPaidPurchase: Bool { (revenueCents ?? 0) > 0 || priceUnknown }
    }

    /// A commission's id and status.
    public struct Commission: Sendable, Equatable {
        /// The commission's id (`comm_…`).
        public var id: String
        /// `pending` (owed) or `reversed` (its purchase was refunded).
        public var status: CommissionStatus

        /// A value with every field given.
        public init(id: String, status: CommissionStatus) {
            self.id = id
            self.status = status
        }
    }

    /// The transaction with this id.
    public func transaction(_ id: String) -> Transaction? {
        transactions.first { $0.transactionID == id }
    }
}
