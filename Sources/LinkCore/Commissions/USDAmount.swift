/// An exact amount of US dollars, parsed from the text of a JSON number so that `4.99` stays 4.99 rather than
/// the nearest binary fraction, and rounded once, to cents, where money is paid.
///
///     USDAmount(parsing: "4.99")?.cents  // 499
public struct USDAmount: Sendable, Equatable, Comparable {
    /// The amount in 10⁻¹⁸ dollars, negative for refunds. Digits past the eighteenth decimal are dropped: they
    /// cannot move a cent.
    private var attos: Int128

    private static let attosPerMicro: Int128 = 1_000_000_000_000
    private static let attosPerCent: Int128 = 10_000_000_000_000_000

    /// The largest magnitude accepted, in millionths of a dollar: ten million dollars. Larger prices are not
    /// prices.
    public static let maximumMicros: Int64 = 10_000_000 * 1_000_000
    private static let maximumAttos = Int128(maximumMicros) * attosPerMicro

    /// An amount of `micros` millionths of a dollar.
    public init(micros: Int64) { attos = Int128(micros) * Self.attosPerMicro }

    /// Parses a JSON number (`-12.5`, `4.99`, `1e2`) exactly. `nil` when the text is not a number or its
    /// magnitude is above ten million dollars.
    public init?(parsing text: String) {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == 0x2D
        if negative { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        while let byte = bytes.first {
            if byte >= 0x30 && byte <= 0x39 {
                digits.append(byte - 0x30)
            } else if byte == 0x2E, pointPosition == nil, !digits.isEmpty {
                pointPosition = digits.count
            } else if (byte == 0x65 || byte == 0x45), !digits.isEmpty {
                let rest = bytes.dropFirst()
                guard let sign = rest.first, sign == 0x2B || sign == 0x2D || (sign >= 0x30 && sign <= 0x39),
                    rest.dropFirst(sign >= 0x30 ? 0 : 1).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    rest.count > (sign >= 0x30 ? 0 : 1)
                else { return nil }
                // Exponents beyond ±400 either overflow the range or leave nothing: clamp before converting.
                let magnitude = rest.dropFirst(sign >= 0x30 ? 0 : 1).drop { $0 == 0x30 }
                let value = magnitude.count > 4 ? 99_999 : Int(String(decoding: magnitude, as: UTF8.self)) ?? 0
                exponent = sign == 0x2D ? -value : value
                bytes = []
                break
            } else {
                return nil
            }
            bytes = bytes.dropFirst()
        }
        guard !digits.isEmpty, pointPosition != digits.count else { return nil }
        // The value is digits × 10^(exponent − fraction digits); scale to 10⁻¹⁸ dollars.
        let shift = exponent - (digits.count - (pointPosition ?? digits.count)) + 18
        var attos: Int128 = 0
        for (index, digit) in digits.enumerated() {
            let place = digits.count - 1 - index + shift  // the power of ten this digit stands for
            guard place >= 0, digit != 0 else { continue }
            guard place <= 25 else { return nil }
            var value = Int128(digit)
            for _ in 0..<place { value *= 10 }
            attos += value
            if attos > Self.maximumAttos { return nil }
        }
        self.attos = negative ? -attos : attos
    }

    /// The amount in millionths of a dollar, rounded half up (away from zero for refunds).
    public var micros: Int64 { Int64(Self.rounded(attos, per: Self.attosPerMicro)) }

    /// Whole cents, rounded half up (away from zero for refunds).
    public var cents: Int64 { Int64(Self.rounded(attos, per: Self.attosPerCent)) }

    /// `basisPoints` hundredths of a percent of the amount, in cents, rounded half up once.
    public func cents(timesBasisPoints basisPoints: Int) -> Int64 {
        Int64(Self.rounded(attos * Int128(basisPoints), per: Self.attosPerCent * 10_000))
    }

    /// Whether the amount is above zero, however little.
    public var isPositive: Bool { attos > 0 }
    /// Whether the amount is below zero: a refund.
    public var isNegative: Bool { attos < 0 }

    private static func rounded(_ value: Int128, per unit: Int128) -> Int128 {
        let magnitude = (value.magnitude + UInt128(unit / 2)) / UInt128(unit)
        return value < 0 ? -Int128(magnitude) : Int128(magnitude)
    }

    public static func < (lhs: USDAmount, rhs: USDAmount) -> Bool { lhs.attos < rhs.attos }
}
