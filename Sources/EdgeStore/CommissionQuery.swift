import LinkCore

/// A page request for an organization's commissions, newest first.
public struct CommissionQuery: Sendable, Equatable {
    /// The organization (`org_…`).
    public var organizationID: String
    /// The most items on a page (1 to 100).
    public var limit: Int = 20
    /// Only commissions listed after this commission id (`comm_…`, the last of the previous page).
    public var startingAfter: String?
    /// The partner (`part_…`) credited.
    public var partnerID: String?
    /// The customer: its app user id, or its id (`cust_…`).
    public var customerID: String?
    /// `pending` (owed) or `reversed` (its purchase was refunded).
    public var status: CommissionStatus?
    /// Milliseconds since 1970: only commissions created at or after this time.
    public var createdSince: Int64?
    /// Milliseconds since 1970: only commissions created before this time.
    public var createdBefore: Int64?
    /// Only commissions a payout settled (`true`: paid, or paid and taken back) or none holds now (`false`: never
    /// paid, or owed again after a payout took it back: what a payout may take).
    public var paid: Bool?
    /// Only the commissions a payout (`pay_…`) paid or took back: its statement. A payout of another organization, or
    /// none, is ``StoreError/unknownFilter(_:)``.
    public var payoutID: String?

    /// A value with every field given.
    public init(
        organizationID: String, limit: Int = 20, startingAfter: String? = nil, partnerID: String? = nil,
        customerID: String? = nil, status: CommissionStatus? = nil, createdSince: Int64? = nil,
        createdBefore: Int64? = nil, paid: Bool? = nil, payoutID: String? = nil
    ) {
        self.payoutID = payoutID
        self.createdSince = createdSince
        self.createdBefore = createdBefore
        self.paid = paid
        self.organizationID = organizationID
        self.limit = limit
        self.startingAfter = startingAfter
        self.partnerID = partnerID
        self.customerID = customerID
        self.status = status
    }
}
