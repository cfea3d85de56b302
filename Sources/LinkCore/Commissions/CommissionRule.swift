/// What a program pays its partners for a customer's purchases: a share of the price or a fixed amount,
/// on the first purchase only or on renewals too, optionally for a limited number of months.
///
///     CommissionRule(amount: .percent(basisPoints: 2000), recurring: true, durationMonths: 12)  // 20 %, a year
public struct CommissionRule: Sendable, Equatable {
    /// How much one purchase pays.
    public enum Amount: Sendable, Equatable {
        /// A share of the price in hundredths of a percent (20 % is 2000), 1 to 10000.
        case percent(basisPoints: Int)
        /// A fixed amount in US cents, whatever the price.
        case fixedCents(Int)
    }

    /// How much one purchase pays.
    public var amount: Amount
    /// `false` pays the customer's first paid purchase only.
    public var recurring: Bool
    /// When set, purchases made this many calendar months or more after the customer's first paid purchase
    /// pay nothing.
    public var durationMonths: Int?

    /// The largest fixed amount, in cents (100,000 USD).
    public static let maximumFixedCents = 10_000_000
    /// The longest duration, in months.
    public static let maximumDurationMonths = 1200

    /// A value with every field given.
    public init(amount: Amount, recurring: Bool = true, durationMonths: Int? = nil) {
        self.amount = amount
        self.recurring = recurring
        self.durationMonths = durationMonths
    }

    /// The commission on a purchase at `price`, in cents, rounded half up; for an unknown price (`nil`), a fixed
    /// amount, and `nil` for a percentage.
    public func cents(of price: USDAmount?) -> Int64? {
        switch amount {
        case .fixedCents(let cents): return Int64(cents)
        case .percent(let basisPoints): return price?.cents(timesBasisPoints: basisPoints)
        }
    }
}
