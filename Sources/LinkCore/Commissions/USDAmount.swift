/// An exact amount of US dollars in millionths, parsed from the text of a JSON number so that `4.99`
/// stays 4.99 rather than the nearest binary fraction.
///
///     USDAmount(parsing: "4.99")?.cents  // 499
public struct USDAmount: Sendable, Equatable, Comparable {
    /// Millionths of a dollar; negative for refunds.
    public var micros: Int64

    /// The largest magnitude accepted: ten million dollars. Larger prices are not prices.
    public static let maximumMicros: Int64 = 10_000_000 * 1_000_000

    public init(micros: Int64) { self.micros = micros }

    /// Parses a JSON number (`-12.5`, `4.99`, `1e2`), rounding half up past the sixth decimal. `nil` when the
    /// text is not a number or its magnitude is above ``maximumMicros``.
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
            } else if byte == 0x2E, pointPosition == nil {
                pointPosition = digits.count
            } else if byte == 0x65 || byte == 0x45 {
                guard let value = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)), abs(value) <= 400 else {
                    return nil
                }
                exponent = value
                bytes = []
                break
            } else {
                return nil
            }
            bytes = bytes.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        // The value is digits × 10^(exponent − fraction digits); scale to millionths.
        let shift = exponent - (digits.count - (pointPosition ?? digits.count)) + 6
        var micros: Int64 = 0
        var roundUp = false
        for (index, digit) in digits.enumerated() {
            let place = digits.count - 1 - index + shift  // the power of ten this digit stands for
            if place == -1 { roundUp = digit >= 5 }
            guard place >= 0, digit != 0 else { continue }
            guard place <= 13 else { return nil }
            var value = Int64(digit)
            for _ in 0..<place { value *= 10 }
            micros += value
            if micros > Self.maximumMicros { return nil }
        }
        if roundUp { micros += 1 }
        guard micros <= Self.maximumMicros else { return nil }
        self.micros = negative ? -micros : micros
    }

    /// Whole cents, rounded half up (away from zero for refunds).
    public var cents: Int64 {
        let magnitude = (abs(micros) + 5_000) / 10_000
        return micros < 0 ? -magnitude : magnitude
    }

    /// `basisPoints` hundredths of a percent of the amount, in cents, rounded half up.
    public func cents(timesBasisPoints basisPoints: Int) -> Int64 {
        // micros × bp / 10^8 cents; the bounds keep the product below 2^63.
        let product = abs(micros) * Int64(basisPoints)
        let magnitude = (product + 50_000_000) / 100_000_000
        return micros < 0 ? -magnitude : magnitude
    }

    public static func < (lhs: USDAmount, rhs: USDAmount) -> Bool { lhs.micros < rhs.micros }
}
