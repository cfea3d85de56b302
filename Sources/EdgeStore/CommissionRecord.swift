import LinkCore

/// What a partner earned on one purchase of a customer they brought.
public struct CommissionRecord: Sendable, Equatable {
    /// `comm_…`.
    public var id: String
    /// Milliseconds since 1970: when the commission was created, as the purchase's event arrived or, for an event
    /// stored `unattributed` and applied later, at the claim or the tie that applied it (never before the customer's
    /// claim).
    public var createdAt: Int64
    /// The organization (`org_…`).
    public var organizationID: String
    /// The partner (`part_…`) credited.
    public var partnerID: String
    /// The partner's program (`prg_…`).
    public var programID: String
    /// The customer's id (`cust_…`).
    public var customer: String
    /// The customer's app user id, as it was claimed.
    public var customerID: String
    /// The RevenueCat event that made the purchase known.
    public var eventID: String
    /// RevenueCat's `transaction_id` of the purchase; for Stripe, whose id repeats for every period, with the period
    /// (`sub_1PxYz#3`), or bare when its event had none or the store recorded it before periods were keyed.
    public var transactionID: String
    /// RevenueCat's `product_id`, when the event had one.
    public var productID: String?
    /// The purchase's price, in cents.
    public var revenueCents: Int64
    /// The commission, in cents of `currency`.
    public var amountCents: Int64
    /// Always `USD`: RevenueCat reports prices in US dollars.
    public var currency: String
    /// `pending` (owed) or `reversed` (its purchase was refunded).
    public var status: CommissionStatus
    /// The payout (`pay_…`) that paid it; nil while none has.
    public var payoutID: String?
    /// The payout that took it back, once it turned `reversed` after ``payoutID`` paid it; nil while none has.
    public var reversalPayoutID: String?

    /// A value with every field given.
    public init(
        id: String, createdAt: Int64, organizationID: String, partnerID: String, programID: String, customer: String,
        customerID: String, eventID: String, transactionID: String, productID: String?, revenueCents: Int64,
        amountCents: Int64, currency: String = "USD", status: CommissionStatus, payoutID: String? = nil,
        reversalPayoutID: String? = nil
    ) {
        self.payoutID = payoutID
        self.reversalPayoutID = reversalPayoutID
        self.id = id
        self.createdAt = createdAt
        self.organizationID = organizationID
        self.partnerID = partnerID
        self.programID = programID
        self.customer = customer
        self.customerID = customerID
        self.eventID = eventID
        self.transactionID = transactionID
        self.productID = productID
        self.revenueCents = revenueCents
        self.amountCents = amountCents
        self.currency = currency
        self.status = status
    }
}
