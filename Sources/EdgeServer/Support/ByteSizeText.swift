/// A size as an option gives it: bytes (`1048576`), or a whole number with a binary unit (`64KiB`, `512MiB`, `4GiB`,
/// `1TiB`).
public enum ByteSizeText {
    /// The largest size taken: 1 PiB, far beyond any volume a journal lives on.
    public static let maximumBytes = 1 << 50

    /// The size in bytes, or `nil` for anything else: no number, another unit (decimal `MB` included, so that no
    /// one gets 5% less than they meant), a sign, spaces, a fraction, 0, or more than ``maximumBytes``.
    public static func bytes(parsing text: String) -> Int? {
        let units: [(suffix: String, shift: Int)] = [("KiB", 10), ("MiB", 20), ("GiB", 30), ("TiB", 40)]
        var digits = Substring(text)
        var shift = 0
        if let unit = units.first(where: { text.hasSuffix($0.suffix) }) {
            digits = digits.dropLast(unit.suffix.count)
            shift = unit.shift
        }
        guard !digits.isEmpty, digits.count <= 16, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int(digits), number > 0, number <= maximumBytes >> shift
        else { return nil }
        return number << shift
    }

    /// `bytes` in the largest binary unit it reaches, to a tenth, for the log: `536870912` → `512 MiB`,
    /// `41355233280` → `38.5 GiB`, `1572864` → `1.5 MiB`, `1000` → `1000 bytes`.
    public static func text(_ bytes: Int) -> String {
        for (suffix, shift) in [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift {
            let tenths = (bytes * 10 + (1 << (shift - 1))) >> shift
            let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
            return "\(number) \(suffix)"
        }
        return "\(bytes) bytes"
    }
}
