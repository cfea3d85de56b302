import LinkCore

/// The rules for the RevenueCat fields of an import: a program's commission and an organization's webhook
/// authorization.
extension ConfigMerge {
    /// Turns a `commission` object into a rule, naming the first invalid field under `path`.
    static func validCommission(_ commission: ConfigDocument.Commission, path: String) throws -> CommissionRule {
        let amount: CommissionRule.Amount
        switch (commission.percent, commission.fixedCents) {
        case (let percent?, nil):
            guard let basisPoints = basisPoints(percent: percent) else {
                throw StoreError.invalidConfig(
                    "\(path).percent: must be a number from 0.01 to 100 with at most two decimals")
            }
            amount = .percent(basisPoints: basisPoints)
        case (nil, let cents?):
            guard (1...CommissionRule.maximumFixedCents).contains(cents) else {
                throw StoreError.invalidConfig(
                    "\(path).fixed_cents: must be an integer from 1 to \(CommissionRule.maximumFixedCents)")
            }
            amount = .fixedCents(cents)
        default:
            throw StoreError.invalidConfig("\(path): must have exactly one of percent and fixed_cents")
        }
        if let months = commission.durationMonths, !(1...CommissionRule.maximumDurationMonths).contains(months) {
            throw StoreError.invalidConfig(
                "\(path).duration_months: must be an integer from 1 to \(CommissionRule.maximumDurationMonths), "
                    + "or null for no limit")
        }
        return CommissionRule(
            amount: amount, recurring: commission.recurring ?? true, durationMonths: commission.durationMonths)
    }

    /// A percentage written as a JSON number (`20`, `12.5`, `0.01`, `1.25e1`) in basis points (hundredths of a
    /// percent), read from its text so that no floating point rounds it; `nil` unless it is more than 0, at
    /// most 100, and exact in hundredths (`12.50` is 1250; `12.505` is refused).
    static func basisPoints(percent text: String) -> Int? {
        var rest = Array(text.utf8)[...]
        guard rest.count <= 64 else { return nil }
        func takeDigits() -> [Int] {
            let taken = rest.prefix { (0x30...0x39).contains($0) }
            rest = rest.dropFirst(taken.count)
            return taken.map { Int($0 - UInt8(ascii: "0")) }
        }
        var digits = takeDigits()
        guard !digits.isEmpty else { return nil }  // also a minus sign
        var fractionDigits = 0
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let fraction = takeDigits()
            guard !fraction.isEmpty else { return nil }
            digits += fraction
            fractionDigits = fraction.count
        }
        var exponent = 0
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            let negative = rest.first == UInt8(ascii: "-")
            if negative || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
            let exponentDigits = takeDigits()
            guard (1...4).contains(exponentDigits.count) else { return nil }
            exponent = exponentDigits.reduce(0) { $0 * 10 + $1 } * (negative ? -1 : 1)
        }
        guard rest.isEmpty else { return nil }
        // The value is digits × 10^(exponent − fractionDigits) percent, so digits × 10^shift basis points.
        var shift = exponent - fractionDigits + 2
        while shift < 0, digits.last == 0 {
            digits.removeLast()
            shift += 1
        }
        guard shift >= 0 else { return nil }
        let significant = digits.drop { $0 == 0 }
        guard significant.count + shift <= 6 else { return nil }  // at least 100,000 basis points; no overflow
        let basisPoints = significant.reduce(0) { $0 * 10 + $1 } * Self.powerOfTen(shift)
        return (1...10_000).contains(basisPoints) ? basisPoints : nil
    }

    /// Checks the value RevenueCat is to send in the webhook's `Authorization` header. It is compared verbatim
    /// with the header, and HTTP drops a header value's outer spaces, so those could never match. The message
    /// never repeats the value: it is a secret.
    static func validRevenueCatAuthorization(_ authorization: String, path: String) throws {
        let bytes = authorization.utf8
        guard (8...512).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) }),
            bytes.first != 0x20, bytes.last != 0x20
        else {
            throw StoreError.invalidConfig(
                "\(path): must be 8–512 printable ASCII characters, without leading or trailing spaces")
        }
    }

    private static func powerOfTen(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
