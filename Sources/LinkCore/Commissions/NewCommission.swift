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
