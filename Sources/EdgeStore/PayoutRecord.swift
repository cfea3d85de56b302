import LinkCore

/// A payment the app's team made to a partner outside the edge, and what it settled: the commissions it paid, less
/// the paid commissions turned `reversed` that it took back.
public struct PayoutRecord: Sendable, Equatable {
    /// `pay_…`.
    public var id: String
    /// The organization (`org_…`).
    public var organizationID: String
    /// The partner (`part_…`) paid.
    public var partnerID: String
    /// Milliseconds since 1970: when it was recorded.
    public var createdAt: Int64
    /// Milliseconds since 1970: it took the commissions created before this time.
    public var createdBefore: Int64
    /// The payment's own id (a bank transfer's, PayPal's), as the team gave it; nil without.
    public var reference: String?
    /// What was paid, in cents of `currency`: ``commissionCents`` less ``reversalCents``, never negative.
    public var amountCents: Int64
    /// Always `USD`, as commissions are.
    public var currency: String
    /// How many commissions it paid, and their sum in cents.
    public var commissionCount: Int64
    public var commissionCents: Int64
    /// How many reversed commissions (paid by earlier payouts) it took back, and their sum in cents.
    public var reversalCount: Int64
    public var reversalCents: Int64

    /// A value with every field given.
    public init(
        id: String, organizationID: String, partnerID: String, createdAt: Int64, createdBefore: Int64,
        reference: String?, amountCents: Int64, currency: String = "USD", commissionCount: Int64,
        commissionCents: Int64, reversalCount: Int64, reversalCents: Int64
    ) {
        self.id = id
        self.organizationID = organizationID
        self.partnerID = partnerID
        self.createdAt = createdAt
        self.createdBefore = createdBefore
        self.reference = reference
        self.amountCents = amountCents
        self.currency = currency
        self.commissionCount = commissionCount
        self.commissionCents = commissionCents
        self.reversalCount = reversalCount
        self.reversalCents = reversalCents
    }
}

/// What ``Store/createPayout(_:)`` did.
public enum PayoutOutcome: Sendable, Equatable {
    /// The payout was recorded, and its commissions marked.
    case created(PayoutRecord)
    /// A payout of the partner with the same reference was recorded before (a retry whose answer was lost): that one,
    /// with nothing written.
    case existing(PayoutRecord)
    /// The partner had no commission to pay and none to take back: nothing was written (a retry of a payout already
    /// recorded without a reference ends here).
    case nothingToPay
    /// What it would take back is more than what it would pay (by `cents`): nothing was written, and the reversals
    /// wait for later commissions to be netted against.
    case negativeBalance(cents: Int64)
}

/// A page request for an organization's payouts, newest first.
public struct PayoutQuery: Sendable, Equatable {
    /// The organization (`org_…`).
    public var organizationID: String
    /// The most items on a page (1 to 100).
    public var limit: Int = 20
    /// Only payouts listed after this payout id (`pay_…`, the last of the previous page).
    public var startingAfter: String?
    /// The partner (`part_…`) paid.
    public var partnerID: String?

    /// A value with every field given.
    public init(organizationID: String, limit: Int = 20, startingAfter: String? = nil, partnerID: String? = nil) {
        self.organizationID = organizationID
        self.limit = limit
        self.startingAfter = startingAfter
        self.partnerID = partnerID
    }
}

/// What a partner is owed and was paid, in cents: what a payout script reads to know whom to pay.
public struct PartnerBalance: Sendable, Equatable {
    /// Pending commissions no payout paid (or that a payout took back and are owed again).
    public var unpaidCents: Int64 = 0
    /// Commissions a payout paid that turned `reversed` and no payout has taken back yet.
    public var owedBackCents: Int64 = 0
    /// The sum of the partner's payouts.
    public var paidCents: Int64 = 0

    /// A value with every field given.
    public init(unpaidCents: Int64 = 0, owedBackCents: Int64 = 0, paidCents: Int64 = 0) {
        self.unpaidCents = unpaidCents
        self.owedBackCents = owedBackCents
        self.paidCents = paidCents
    }
}
