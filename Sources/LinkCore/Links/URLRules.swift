/// Checks shared by every URL the configuration holds, and by the server's public URL: each value here ends up in a
/// `Location` header or a page's `href`, where a browser follows it.
public enum URLRules {
    /// The longest URL accepted, in bytes.
    public static let maximumLength = 2048

    /// Schemes a browser runs or reads locally rather than navigates to: never a redirect or a badge.
    public static let refusedSchemes: Set<String> = ["javascript", "data", "vbscript", "file"]

    /// Whether `bytes` start with `scheme:` (RFC 3986: a letter, then letters, digits, `+ - .`).
    public static func hasScheme(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return false }
        let first = ASCII.lowercased(bytes[0])
        guard first >= 0x61 && first <= 0x7A else { return false }
        return bytes[1..<colon].allSatisfy { ASCII.isUnreserved($0) && $0 != 0x5F && $0 != 0x7E || $0 == 0x2B }
    }

    /// The scheme a browser reads in `bytes`, lower-cased, or `nil` when it reads none. Browsers (the WHATWG URL
    /// standard) first strip leading C0 controls and spaces and remove every tab, CR and LF, so
    /// ` JaVa\tScript:alert(1)` is a `javascript:` URL to them.
    public static func browserScheme(_ bytes: [UInt8]) -> String? {
        var scheme: [UInt8] = []
        var started = false
        for byte in bytes {
            if !started && byte <= 0x20 { continue }
            started = true
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == 0x3A { return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self) }
            let lower = ASCII.lowercased(byte)
            let isLetter = lower >= 0x61 && lower <= 0x7A
            let isOther = (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
            guard isLetter || (!scheme.isEmpty && isOther), scheme.count < 64 else { return nil }
            scheme.append(lower)
        }
        return nil
    }

    /// Throws when `bytes` use a scheme of ``refusedSchemes`` as a browser would read it.
    public static func refuseScriptSchemes(_ bytes: [UInt8]) throws(ConfigValidationError) {
        guard let scheme = browserScheme(bytes), refusedSchemes.contains(scheme) else { return }
        throw .invalid("must not be a \(scheme): URL (javascript, data, vbscript and file URLs are refused)")
    }

    /// Throws for characters no URL here may hold: spaces and ASCII controls, and the Unicode characters that are
    /// invisible or break lines: controls (C1 among them), format characters (the byte-order mark U+FEFF,
    /// zero-width and bidirectional marks), space separators (NBSP U+00A0 among them) and the line and
    /// paragraph separators U+2028 and U+2029. The error names the first one found.
    public static func refuseInvisibleCharacters(_ text: String) throws(ConfigValidationError) {
        for scalar in text.unicodeScalars {
            let refused: Bool
            switch scalar.properties.generalCategory {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate: refused = true
            default: refused = scalar.value == 0x7F
            }
            if refused {
                throw .invalid(
                    "must not contain spaces, control characters, invisible formatting characters or line separators"
                        + " (found \(codePoint(scalar)))")
            }
        }
    }

    /// Throws for a character above ASCII, naming it: a URL goes out in a `Location` header, which holds ASCII only
    /// (RFC 9110 §5.5), so the rest must be written percent-encoded (`ü` as `%C3%BC`, a host in its `xn--` form).
    public static func refuseNonASCII(_ text: String) throws(ConfigValidationError) {
        guard let scalar = text.unicodeScalars.first(where: { !$0.isASCII }) else { return }
        throw .invalid(
            "must hold only ASCII characters: percent-encode the others (found \(codePoint(scalar)); write ü as %C3%BC)"
        )
    }

    /// The first `%` of `bytes` that two hex digits do not follow (`%zz`, a `%` at the end), with up to the two
    /// characters after it; `nil` when every `%` starts an escape.
    public static func firstMalformedEscape(_ bytes: [UInt8]) -> String? {
        var index = 0
        while let percent = bytes[index...].firstIndex(of: 0x25) {
            if percent + 2 < bytes.count, ASCII.hexValue(bytes[percent + 1]) != nil,
                ASCII.hexValue(bytes[percent + 2]) != nil
            {
                index = percent + 3
                continue
            }
            return String(String(decoding: bytes[percent...], as: UTF8.self).prefix(3))
        }
        return nil
    }

    /// The refusal of a `%` that starts no escape, `found` being it and what follows (``firstMalformedEscape(_:)``):
    /// such a URL is not valid (RFC 3986 §2.1), and clients read it each their own way.
    public static func malformedEscapeError(_ found: String) -> ConfigValidationError {
        .invalid(
            "has a % that starts no escape (\(found)): a % must be followed by two hex digits"
                + " (write a percent sign as %25)")
    }

    /// Validates an `http://` or `https://` URL (either scheme, any case): at most 2048 bytes; no character
    /// ``refuseInvisibleCharacters(_:)`` refuses, nor `" < > \` or a backtick; a host of ASCII letters, digits,
    /// `-` and `.` (internationalized names in their `xn--` form) or a bracketed IPv6 address; an optional port
    /// from 1 to 65535; no user name or password (`https://apps.apple.com@evil.example/` goes to evil.example);
    /// then nothing, or a path, query or fragment. Only ASCII (``refuseNonASCII(_:)``), and every `%` followed by two
    /// hex digits (``malformedEscapeError(_:)``), so the URL goes into a `Location` as it is written.
    ///
    /// `asStored` leaves out those last two rules, for a value read back from the store, or left as it was stored
    /// by an import, that may have been written before them (or by another tool): it is still served, what it holds
    /// above ASCII percent-encoded where it goes into a `Location` (``LinkTarget/playPrefix``), rather than refused.
    public static func validateWebURL(_ text: String, asStored: Bool = false) throws(ConfigValidationError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumLength else { throw .invalid("must be at most \(maximumLength) bytes") }
        try refuseInvisibleCharacters(text)
        if !asStored {
            try refuseNonASCII(text)
            if let found = firstMalformedEscape(bytes) { throw malformedEscapeError(found) }
        }
        guard !bytes.contains(where: { $0 == 0x22 || $0 == 0x3C || $0 == 0x3E || $0 == 0x5C || $0 == 0x60 }) else {
            throw .invalid("must not contain quotes, angle brackets, backslashes or backticks")
        }
        guard let scheme = browserScheme(bytes), scheme == "http" || scheme == "https",
            bytes[(scheme.utf8.count + 1)...].starts(with: [0x2F, 0x2F])
        else { throw .invalid("must be an http:// or https:// URL") }
        let start = scheme.utf8.count + 3
        let end = bytes[start...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.count
        try validateAuthority(bytes[start..<end])
    }

    /// A URL a page shows (a store badge's link, an icon, a preview image): ``validateWebURL(_:asStored:)``, and at
    /// most `maximumPageLength` bytes once HTML-escaped on the page (`&` and `'` take 5 bytes there; quotes and angle
    /// brackets are refused), so that a page with every field at its longest stays within its size bound.
    public static func validatePageURL(
        _ text: String, maximumPageLength: Int = maximumLength, asStored: Bool = false
    ) throws(ConfigValidationError) {
        try validateWebURL(text, asStored: asStored)
        let onPage = text.utf8.reduce(0) { $0 + ($1 == 0x26 || $1 == 0x27 ? 5 : 1) }
        guard onPage <= maximumPageLength else {
            throw .invalid(
                "must take at most \(maximumPageLength) bytes on a page, where each & and ' takes 5 (it takes \(onPage))"
            )
        }
    }

    /// `host[:port]`, as ``validateWebURL(_:asStored:)`` describes.
    private static func validateAuthority(_ authority: ArraySlice<UInt8>) throws(ConfigValidationError) {
        guard !authority.contains(0x40) else { throw .invalid("must not hold a user name or password (@)") }
        var host = authority
        var port: ArraySlice<UInt8>?
        if authority.first == 0x5B {
            guard let close = authority.firstIndex(of: 0x5D) else { throw .invalid("has an unclosed [ in its host") }
            host = authority[authority.startIndex...close]
            let rest = authority[(close + 1)...]
            if let colon = rest.first {
                guard colon == 0x3A else { throw .invalid("must have a port after its IPv6 address, or nothing") }
                port = rest.dropFirst()
            }
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.contains(0x3A),
                inside.allSatisfy({ ASCII.hexValue($0) != nil || $0 == 0x3A || $0 == 0x2E })
            else { throw .invalid("must have a valid IPv6 address between [ and ]") }
        } else {
            if let colon = authority.firstIndex(of: 0x3A) {
                host = authority[..<colon]
                port = authority[(colon + 1)...]
            }
            let labels = host.split(separator: 0x2E, omittingEmptySubsequences: false)
            let valid =
                !host.isEmpty && host.count <= 253
                && labels.allSatisfy { label in
                    !label.isEmpty && label.count <= 63 && label.first != 0x2D && label.last != 0x2D
                        && label.allSatisfy { ASCII.isUnreserved($0) && $0 != 0x2E && $0 != 0x5F && $0 != 0x7E }
                }
            guard valid else {
                throw .invalid(
                    "must have a host name of ASCII letters, digits and hyphens, in dot-separated labels"
                        + " (internationalized names in their xn-- form)")
            }
        }
        if let port {
            guard (1...5).contains(port.count), port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let number = Int(String(decoding: port, as: UTF8.self)), (1...65535).contains(number)
            else { throw .invalid("must have a port from 1 to 65535 after its host's colon") }
        }
    }

    /// `U+00A0` for a scalar, in the form the Unicode standard names them.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
