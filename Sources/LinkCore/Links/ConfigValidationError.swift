/// A configuration value that breaks a rule; the importer prefixes the field's path.
public struct ConfigValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `must be 1–64 bytes`.
    public var reason: String

    public static func invalid(_ reason: String) -> ConfigValidationError { ConfigValidationError(reason: reason) }

    public var description: String { reason }
}

/// The rules for public and secret keys.
public enum KeyRules {
    /// The longest key accepted, in bytes.
    public static let maximumLength = 128
}

/// The rules for partner codes.
public enum CodeRules {
    /// The longest code accepted, in bytes.
    public static let maximumLength = 64

    /// Validates a code: 1–64 bytes of UTF-8 without ASCII whitespace (a new code without any:
    /// ``refuseWhitespace(_:)``), control characters or `/ ? # %`, which could not travel in a link's path segment as they are, and without the invisible characters a display text
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

    /// Refuses the codes `.` and `..`, which a link can never carry: browsers and messengers remove dot segments from
    /// a URL's path (RFC 3986 §5.2.4, and the WHATWG URL standard, which counts `%2e` as a dot too), so
    /// `https://<host>/a/<key>/..` opens `https://<host>/a/`, and a web template with `{code}` in its path opens
    /// another path of the app's site. The error names the code.
    ///
    /// Checked when a code is created (an import, the dashboard), not by ``validate(_:)``: a code stored before this
    /// rule (or by another tool) still loads, is still served to a client that sends it as it is, and imports again
    /// unchanged (an export, the dashboard's deactivate and reactivate).
    public static func refuseDotSegment(_ code: String) throws(ConfigValidationError) {
        guard isDotSegment(code) else { return }
        throw .invalid(
            "\(code) is a dot segment, which browsers and messengers remove from a link's path (/a/<public_key>/\(code)"
                + " opens another page): its link could never be opened; choose another code")
    }

    /// Refuses a code holding whitespace of any kind (Unicode's `White_Space`): a no-break, ideographic or other space
    /// that ``validate(_:)``'s byte check lets through (`JP21` and U+3000 from a spreadsheet cell). Claims and links
    /// drop whitespace pasted around a code, so a claim could never reach a code ending in one, and nobody can see or
    /// type one inside a code. The error names the code points.
    ///
    /// Checked when a code is created, as ``refuseDotSegment(_:)`` is: a code stored before this rule still loads, is
    /// still served as it is written, and imports again unchanged.
    public static func refuseWhitespace(_ code: String) throws(ConfigValidationError) {
        let spaces = code.unicodeScalars.filter(\.properties.isWhitespace)
        guard let first = spaces.first else { return }
        throw .invalid(
            "must not contain spaces: it holds \(DisplayTextRules.codePoint(first)), a space claims and links drop"
                + " around a code and nobody sees in one")
    }

    /// Whether `code` holds whitespace of any kind (``refuseWhitespace(_:)``).
    public static func containsWhitespace(_ code: String) -> Bool {
        code.unicodeScalars.contains(where: \.properties.isWhitespace)
    }

    /// Whether `code` is `.` or `..`, by its bytes.
    public static func isDotSegment(_ code: String) -> Bool {
        code.utf8.elementsEqual(".".utf8) || code.utf8.elementsEqual("..".utf8)
    }
}
