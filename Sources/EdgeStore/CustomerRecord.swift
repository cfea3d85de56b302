/// A user of the app that a partner brought: created by a claim, status `lead` until they pay.
public struct CustomerRecord: Sendable, Equatable {
    public var id: String
    public var organizationID: String
    /// The app's user id (RevenueCat's `app_user_id`).
    public var customerID: String
    public var partnerID: String
    public var programID: String
    public var code: String
    /// The click the claim came from, for a click claim.
    public var clickID: String?
    /// `lead`, `trialing`, `paying`, `canceled` or `refunded` (``CustomerStatus``).
    public var status: String
    /// Milliseconds since 1970.
    public var claimedAt: Int64
    /// Milliseconds since 1970, as the app reported it.
    public var firstSeenAt: Int64?
    /// What the customer paid, in cents: their purchases less refunds.
    public var revenueCents: Int64
    /// What their partner earned on them, in cents: pending commissions.
    public var commissionCents: Int64
    /// The other app user ids RevenueCat tied to the customer (`customer_aliases`: a `TRANSFER`'s new ids, the ids
    /// an event named beside one of the customer's), not its own ``customerID``, in byte order: the first
    /// ``maximumAliases``. Read by ``Store/customers(_:)``, for a whole page at once; empty from the other reads.
    public var aliases: [String]
    /// Whether the customer has more tied ids than ``aliases`` lists.
    public var aliasesTruncated: Bool

    /// The most tied ids a customer lists (``aliases``): a page of 100 customers stays bounded however many ids
    /// RevenueCat tied to one of them.
    public static let maximumAliases = 100

    public init(
        id: String, organizationID: String, customerID: String, partnerID: String, programID: String, code: String,
        clickID: String?, status: String, claimedAt: Int64, firstSeenAt: Int64?, revenueCents: Int64 = 0,
        commissionCents: Int64 = 0, aliases: [String] = [], aliasesTruncated: Bool = false
    ) {
        self.id = id
        self.organizationID = organizationID
        self.customerID = customerID
        self.partnerID = partnerID
        self.programID = programID
        self.code = code
        self.clickID = clickID
        self.status = status
        self.claimedAt = claimedAt
        self.firstSeenAt = firstSeenAt
        self.revenueCents = revenueCents
        self.commissionCents = commissionCents
        self.aliases = aliases
        self.aliasesTruncated = aliasesTruncated
    }
}

/// A page request for an organization's customers.
public struct CustomerQuery: Sendable, Equatable {
    public var organizationID: String
    public var limit: Int = 20
    /// Only customers listed after this customer id (`cust_…`, the last of the previous page).
    public var startingAfter: String?
    public var partnerID: String?
    public var status: String?
    /// The app user id, or the customer's own id (`cust_…`), as ``CommissionQuery/customerID`` takes it.
    public var customerID: String?

    public init(
        organizationID: String, limit: Int = 20, startingAfter: String? = nil, partnerID: String? = nil,
        status: String? = nil, customerID: String? = nil
    ) {
        self.organizationID = organizationID
        self.limit = limit
        self.startingAfter = startingAfter
        self.partnerID = partnerID
        self.status = status
        self.customerID = customerID
    }
}
