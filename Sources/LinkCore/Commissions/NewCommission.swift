/// A commission a purchase earned.
public struct NewCommission: Sendable, Equatable {
    /// The new commission's id (`comm_…`).
    public var id: String
    /// RevenueCat's `transaction_id` of the purchase.
    public var transactionID: String
    /// RevenueCat's `product_id`, when the event had one.
    public var productID: String?
    /// The purchase's price, in US cents.
    public var revenueCents: Int64
    /// In US cents.
    public var amountCents: Int64
    /// `reversed` when the purchase's refund arrived first.
    public var status: CommissionStatus

    /// A value with every field given.
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
