/// A deep-link template such as `myapp://claim?tolt_code={code}&tolt_click={click_id}`.
///
/// Parsed once when the link table is built; the link path only concatenates precomputed pieces.
public struct DeepLinkTemplate: Sendable, Equatable {
    /// The longest template accepted, in bytes.
    public static let maximumLength = 2048

    enum Piece: Sendable, Equatable {
        case literal([UInt8])
        case code
        case clickID
    }

    let pieces: [Piece]

    /// Parses and validates a template: an absolute URL with a scheme, no whitespace or control characters.
    public init(_ text: String) throws(ConfigValidationError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength else {
            throw .invalid("must be 1–\(Self.maximumLength) bytes")
        }
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .invalid("must not contain spaces or control characters")
        }
        guard URLRules.hasScheme(bytes) else {
            throw .invalid("must start with a URL scheme such as myapp:// or https://")
        }
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var index = 0
        let codeToken = Array("{code}".utf8)
        let clickToken = Array("{click_id}".utf8)
        while index < bytes.count {
            if bytes[index...].starts(with: codeToken) {
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = []
                pieces.append(.code)
                index += codeToken.count
            } else if bytes[index...].starts(with: clickToken) {
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = []
                pieces.append(.clickID)
                index += clickToken.count
            } else {
                literal.append(bytes[index])
                index += 1
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// The template with `{code}` filled in (percent-encoded), split at each `{click_id}`: the link path
    /// writes piece, click id, piece, … so that only the click id is added per request.
    public func chunks(encodedCode: [UInt8]) -> [[UInt8]] {
        var chunks: [[UInt8]] = [[]]
        for piece in pieces {
            switch piece {
            case .literal(let bytes): chunks[chunks.count - 1].append(contentsOf: bytes)
            case .code: chunks[chunks.count - 1].append(contentsOf: encodedCode)
            case .clickID: chunks.append([])
            }
        }
        return chunks
    }
}

/// Checks shared by every URL the configuration holds.
public enum URLRules {
    /// Whether `bytes` start with `scheme:` (RFC 3986: a letter, then letters, digits, `+ - .`).
    public static func hasScheme(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return false }
        let first = ASCII.lowercased(bytes[0])
        guard first >= 0x61 && first <= 0x7A else { return false }
        return bytes[1..<colon].allSatisfy { ASCII.isUnreserved($0) && $0 != 0x5F && $0 != 0x7E || $0 == 0x2B }
    }

    /// Validates an http(s) store URL: at most 2048 bytes, no whitespace or control characters.
    public static func validateWebURL(_ text: String) throws(ConfigValidationError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= 2048 else { throw .invalid("must be at most 2048 bytes") }
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x3C || $0 == 0x3E }) else {
            throw .invalid("must not contain spaces, quotes, angle brackets or control characters")
        }
        let lower = ASCII.lowercased(text)
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), bytes.count > 8 else {
            throw .invalid("must be an http:// or https:// URL")
        }
    }
}
