import LinkCore

/// What an organization's Overview shows besides its clicks: how many customers its partners brought (claims), how
/// many are in each status, and what its commissions add up to in each status. Counted by the store from its
/// customers and commissions (never from clicks: those come from ``Store/clickCounts(_:)``).
public struct OrganizationSummary: Sendable, Equatable {
    /// Every customer a claim created: one per app user id.
    public var claims: Int64
    /// Customers per status (``CustomerRecord/status``: `lead`, `trialing`, `paying`, `canceled`, `refunded`).
    /// A status no customer has is absent.
    public var customersByStatus: [String: Int64]
    /// Commissions per status: how many, and their amounts summed in cents (always USD). A status no commission
    /// has is absent.
    public var commissionsByStatus: [CommissionStatus: CommissionTotal]

    /// A value with every field given.
    public init(
        claims: Int64, customersByStatus: [String: Int64], commissionsByStatus: [CommissionStatus: CommissionTotal]
    ) {
        self.claims = claims
        self.customersByStatus = customersByStatus
        self.commissionsByStatus = commissionsByStatus
    }

    /// How many customers have `status`; 0 when none has.
    public func customers(withStatus status: CustomerStatus) -> Int64 {
        customersByStatus[status.rawValue] ?? 0
    }

    /// The commissions with `status`: zero count and cents when there are none.
    public func commissions(withStatus status: CommissionStatus) -> CommissionTotal {
        commissionsByStatus[status] ?? CommissionTotal()
    }
}

/// How many commissions, and their amounts summed in cents (USD, as every commission is).
public struct CommissionTotal: Sendable, Equatable {
    public var count: Int64
    public var amountCents: Int64

    /// A value with every field given (none: nothing).
    public init(count: Int64 = 0, amountCents: Int64 = 0) {
        self.count = count
        self.amountCents = amountCents
    }
}

/// One partner's commissions in one status: the Commissions page's totals per partner.
public struct PartnerCommissionTotal: Sendable, Equatable {
    /// The partner (`part_…`) credited.
    public var partnerID: String
    public var status: CommissionStatus
    /// How many commissions, and their amounts summed in cents (USD).
    public var total: CommissionTotal

    /// A value with every field given.
    public init(partnerID: String, status: CommissionStatus, total: CommissionTotal) {
        self.partnerID = partnerID
        self.status = status
        self.total = total
    }

    /// How many commissions.
    public var count: Int64 { total.count }
    /// Their amounts summed, in cents.
    public var amountCents: Int64 { total.amountCents }
}
