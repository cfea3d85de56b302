/// A duration as an option gives it: whole seconds (`3600`), or a number with a unit (`90s`, `30m`, `1h`).
public enum DurationText {
    /// The longest duration taken: a day.
    public static let maximumSeconds: Int64 = 86_400

    /// The duration in milliseconds, or `nil` for anything else: no number, another unit, a sign, spaces, a
    /// fraction, or more than ``maximumSeconds``.
    public static func milliseconds(parsing text: String) -> Int64? {
        var digits = Substring(text)
        var unit: Int64 = 1
        switch text.utf8.last {
        case UInt8(ascii: "s"): digits = digits.dropLast()
        case UInt8(ascii: "m"): (digits, unit) = (digits.dropLast(), 60)
        case UInt8(ascii: "h"): (digits, unit) = (digits.dropLast(), 3_600)
        default: break
        }
        guard !digits.isEmpty, digits.count <= 6, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int64(digits), number * unit <= maximumSeconds
        else { return nil }
        return number * unit * 1000
    }
}
