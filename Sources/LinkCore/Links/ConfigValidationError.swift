/// A configuration value that breaks a rule; the importer prefixes the field's path.
public struct ConfigValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `must be 1–64 bytes`.
    public var reason: String

    public static func invalid(_ reason: String) -> ConfigValidationError { ConfigValidationError(reason: reason) }

    public var description: String { reason }
}

/// The rules for partner codes.
public enum CodeRules {
    /// The longest code accepted, in bytes.
    public static let maximumLength = 64

    /// Validates a code: 1–64 bytes of UTF-8 without whitespace, control characters or `/ ? # %`, which
    /// could not travel in a link's path segment as they are, and without the invisible characters a display text
    /// may not hold (``DisplayTextRules``): a code is read, typed and shown, so `SAM\u{200B}20` or a code reversed
    /// by a bidirectional override would look like another code than it is.
    public static func validate(_ code: String) throws(ConfigValidationError) {
        let bytes = Array(code.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else {
            throw .invalid("must be 1–\(maximumLength) bytes")
        }
        guard
            !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == 0x2F || $0 == 0x3F || $0 == 0x23 || $0 == 0x25 })
        else { throw .invalid("must not contain spaces, control characters or / ? # %") }
        try DisplayTextRules.validate(code)
    }
}
