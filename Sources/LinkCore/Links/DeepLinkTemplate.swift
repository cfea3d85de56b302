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

    /// The template's pieces; a literal's bytes above ASCII already percent-encoded.
    let pieces: [Piece]
    /// The first `%` of the template's text that starts no escape (`%zz`, `%` at the end), with what follows it, for
    /// ``validateLiteralText()``; `nil` when every `%` is followed by two hex digits.
    let malformedEscape: String?
    /// Whether the template is a web address (`http` or `https`: a universal or app link, which a browser without the
    /// app opens as a page) rather than a scheme only the app opens (`myapp://`).
    public let isWebAddress: Bool

    /// Parses and validates a template: an absolute URL with a scheme, which is not `javascript`, `data`, `vbscript`
    /// or `file` as a browser would read it (``URLRules/refuseScriptSchemes(_:)``), without whitespace, control
    /// or invisible characters (``URLRules/refuseInvisibleCharacters(_:)``); an `http(s)` template must also be a
    /// valid web URL once its placeholders are filled (``URLRules/validateWebURL(_:asStored:)``).
    ///
    /// Bytes above ASCII in the template's own text (`myapp://ü/{code}`) are percent-encoded here, as a browser's URL
    /// parser encodes them, so that a `Location` holds only ASCII (RFC 9110 §10.2.2): a client that reads header
    /// bytes as Latin-1 would otherwise follow `myapp://Ã¼/…`. This runs when the link table is built, never per tap.
    public init(_ text: String) throws(ConfigValidationError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength else {
            throw .invalid("must be 1–\(Self.maximumLength) bytes")
        }
        try URLRules.refuseScriptSchemes(bytes)
        try URLRules.refuseInvisibleCharacters(text)
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
                PercentEncoding.appendEncodingNonASCII(bytes[index], to: &literal)
                index += 1
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
        malformedEscape = URLRules.firstMalformedEscape(bytes)
        let scheme = URLRules.browserScheme(bytes)
        isWebAddress = scheme == "http" || scheme == "https"
        if isWebAddress {
            let sample = Array(chunks(encodedCode: Array("CODE".utf8)).joined(separator: "clk_".utf8))
            // As stored: its text above ASCII is encoded already, and its `%` escapes are for
            // ``validateLiteralText()``, which a template stored before that rule does not have to pass.
            try URLRules.validateWebURL(String(decoding: sample, as: UTF8.self), asStored: true)
        }
    }

    /// Refuses what the template's own text may not hold, naming it:
    ///
    /// - a `{` or `}` outside the two placeholders, `{code}` and `{click_id}` (in lowercase, as written here): a
    ///   misspelt one (`{clickid}`, `{Code}`, `{nope}`) would be sent as it is in every redirect, and the app's claim
    ///   would fail without a word;
    /// - a `%` not followed by two hex digits (`%zz`, a `%` at the end or before a placeholder): such a URL is not
    ///   valid (RFC 3986 §2.1), and clients read it each their own way.
    ///
    /// Checked when a template is written (an import, the dashboard), not by ``init(_:)``: a template stored before
    /// these rules (or by another tool) is still served as it was, its braces and `%` sent as they are.
    public func validateLiteralText() throws(ConfigValidationError) {
        func isBrace(_ byte: UInt8) -> Bool { byte == 0x7B || byte == 0x7D }
        for case .literal(let bytes) in pieces {
            guard let brace = bytes.firstIndex(where: isBrace) else { continue }
            // `{name}`: up to the next brace, which must close it.
            guard bytes[brace] == 0x7B, let close = bytes[(brace + 1)...].firstIndex(where: isBrace),
                bytes[close] == 0x7D
            else {
                throw .invalid(
                    "has a lone { or }: only {code} and {click_id} are filled in (write a brace as %7B or %7D)")
            }
            // Quoted as errors quote input (``QuotedText``): a brace can enclose most of the template's 2,048 bytes.
            let placeholder = QuotedText.shown(String(decoding: bytes[brace...close], as: UTF8.self))
            throw .invalid("has an unknown placeholder \(placeholder): only {code} and {click_id} are filled in")
        }
        if let malformedEscape { throw URLRules.malformedEscapeError(malformedEscape) }
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
