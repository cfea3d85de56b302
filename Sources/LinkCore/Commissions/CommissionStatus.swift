/// A commission is `pending` (owed) or `reversed` (its purchase was refunded).
public enum CommissionStatus: String, Sendable, CaseIterable {
    case pending, reversed
}
