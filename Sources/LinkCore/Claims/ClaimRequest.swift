/// A parsed, validated `POST /client/claims` body.
public struct ClaimRequest: Sendable, Equatable {
    /// The largest body accepted, in bytes.
    public static let maximumBodySize = 16 * 1024
    /// The longest app user id accepted, in characters.
    public static let maximumUserIDLength = 256
    /// The longest app user id accepted, in UTF-8 bytes: the longest user id a RevenueCat event is read with
    /// (``RevenueCatEvent/maximumIDLength``), so every claimed user is one a webhook can credit. 256 characters can
    /// be far more (an emoji with modifiers is up to 35 bytes, a letter with combining marks has no bound).
    public static let maximumUserIDBytes = RevenueCatEvent.maximumIDLength

    public var publicID: String
    public var appUserID: String
    public var code: String?
    public var clickID: String?
    /// Milliseconds since 1970.
    public var firstSeenAt: Int64?

    /// Parses a body; the error names the field or rule that failed.
    ///
    /// A member named twice is refused rather than read as its last value (a front end that reads the first would see
    /// another claim), and so are identifiers (`public_id`, `app_user_id`, `code`, `click_id`) that are blank or hold
    /// control characters or line separators: no configured value holds them, and no app needs them in an id. A
    /// `code` is read without the whitespace around it first (``pastedCode(_:)``): a person pastes or types it.
    public init(body: [UInt8]) throws(ClaimFailure) {
        let root: JSONValue
        do { root = try JSONParser.parse(body) } catch { throw .invalidRequest("The body is not valid JSON: \(error)") }
        guard case .object(let members) = root else { throw .invalidRequest("The body must be a JSON object") }
        // By code points, as JSON compares names (not by `String`'s canonical equivalence).
        var names = Set<[UInt8]>()
        for member in members where !names.insert(Array(member.key.utf8)).inserted {
            let shown = member.key.unicodeScalars.count <= 64 ? member.key : "a member"
            throw .invalidRequest("The body names \(shown) more than once")
        }
        func text(_ name: String, required: Bool) throws(ClaimFailure) -> String? {
            switch root[name] {
            case nil, .null?:
                if required { throw .invalidRequest("\(name) is required") }
                return nil
            case .string(let value)?:
                if value.isEmpty {
                    if required { throw .invalidRequest("\(name) must not be empty") }
                    return nil
                }
                return value
            case let other?:
                throw .invalidRequest("\(name) must be a string, not \(other.typeName)")
            }
        }
        func identifier(_ name: String, required: Bool) throws(ClaimFailure) -> String? {
            guard let value = try text(name, required: required) else { return nil }
            try Self.checkIdentifier(value, name: name)
            return value
        }
        publicID = try identifier("public_id", required: true)!
        appUserID = try identifier("app_user_id", required: true)!
        guard appUserID.count <= Self.maximumUserIDLength else {
            throw .invalidRequest("app_user_id must be 1–\(Self.maximumUserIDLength) characters")
        }
        guard appUserID.utf8.count <= Self.maximumUserIDBytes else {
            throw .invalidRequest(
                "app_user_id must be at most \(Self.maximumUserIDBytes) bytes in UTF-8 (it is \(appUserID.utf8.count)),"
                    + " the longest user id a RevenueCat webhook is read with")
        }
        code = try Self.pastedCode(text("code", required: false))
        clickID = try identifier("click_id", required: false)
        guard code != nil || clickID != nil else { throw .invalidRequest("Send code or click_id") }
        if let code, code.utf8.count > 256 { throw .invalidRequest("code is longer than 256 bytes") }
        // The forms it takes are named: a date alone, or a time without an offset, is what a client most often
        // sends wrong.
        let firstSeenForms =
            "first_seen_at must be an ISO 8601 time with its offset, such as 2026-01-31T12:00:00Z or"
            + " 2026-01-31T13:00:00+01:00"
        if case .string("")? = root["first_seen_at"] {
            throw .invalidRequest(firstSeenForms + ", not empty")
        }
        if let seen = try text("first_seen_at", required: false) {
            guard let millis = Timestamp.parse(seen) else {
                throw .invalidRequest(firstSeenForms + " (not a date alone, nor a time without an offset)")
            }
            firstSeenAt = millis
        }
    }
}

extension ClaimRequest {
    /// Refuses a value that shows nothing, by the rule display texts follow (``DisplayTextRules/isBlank(_:)``: only
    /// whitespace, such as spaces, tabs and NBSP, and characters drawn as nothing, such as the zero-width space U+200B
    /// or the byte-order mark U+FEFF), or that holds a control character (C0, DEL, C1) or a line or paragraph
    /// separator (U+2028, U+2029). An invisible `app_user_id` would be a customer nobody can tell from another in a
    /// list, a filter or a support request.
    static func checkIdentifier(_ value: String, name: String) throws(ClaimFailure) {
        if DisplayTextRules.isBlank(value) {
            throw .invalidRequest("\(name) must not be blank (it shows no visible character)")
        }
        if let problem = controlCharacterProblem(value, name: name) { throw .invalidRequest(problem) }
    }

    /// Why `value` (the field `name`) may not be taken when it holds a C0, DEL or C1 control or a line or paragraph
    /// separator, naming the first one's code point; `nil` when it holds none.
    public static func controlCharacterProblem(_ value: String, name: String) -> String? {
        guard let scalar = value.unicodeScalars.first(where: isForbidden) else { return nil }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\(name) must not hold control characters or line separators (it holds U+"
            + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ")"
    }

    /// A code as a person pasted or typed it: without the whitespace around it (spaces, tabs, a line break copied
    /// with it) and the invisible formatting characters a copy brings along (a zero-width space, word joiner,
    /// byte-order mark or bidirectional mark from a bio, a chat or a web page), which no new code may hold, then checked
    /// like any identifier. What is "around a code" is ``InvisibleCharacters``, the link path's own definition, so a
    /// claim and a link of the same pasted text find the same code.
    static func pastedCode(_ value: String?) throws(ClaimFailure) -> String? {
        guard var value else { return nil }
        let code = value.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[InvisibleCharacters.trimmed(bytes)]), as: UTF8.self)
        }
        guard !code.isEmpty else { throw .invalidRequest("code must not be blank") }
        try checkIdentifier(code, name: "code")
        return code
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// Refuses a body that does not say it is JSON: its `Content-Type` must be `application/json` (any case, with or
    /// without parameters such as `; charset=utf-8`). A missing one is refused too: the SDK and every JSON client
    /// send it, while an HTML form (`application/x-www-form-urlencoded`, `multipart/form-data`) or a plain `text/plain`
    /// post, which a browser sends to any origin without asking first, never carries it.
    public static func checkContentType(_ value: String?) throws(ClaimFailure) {
        guard let value, JSONContentType.matches(value) else { throw .unsupportedMediaType }
    }
}

/// Why a claim failed: an HTTP status, a stable machine code and a message naming the rule.
public struct ClaimFailure: Error, Sendable, Equatable {
    public var status: Int
    public var code: String
    public var message: String

    public static func invalidRequest(_ message: String) -> ClaimFailure {
        ClaimFailure(status: 400, code: "invalid_request", message: message)
    }
    public static let unsupportedMediaType = ClaimFailure(
        status: 415, code: "unsupported_media_type",
        message: "Send the body as JSON, with 'Content-Type: application/json'")
    public static let unknownPublicKey = ClaimFailure(
        status: 404, code: "unknown_public_key", message: "public_id does not name an organization")
    public static let unknownCode = ClaimFailure(
        status: 404, code: "unknown_code", message: "code is unknown, inactive, or its partner is inactive")
    public static let unknownClick = ClaimFailure(
        status: 404, code: "unknown_click", message: "click_id is not a click of this organization")
    public static let codeConflict = ClaimFailure(
        status: 409, code: "code_conflict", message: "code is held by more than one partner; it cannot be claimed")
    public static func claimWindowClosed(days: Int) -> ClaimFailure {
        ClaimFailure(
            status: 409, code: "claim_window_closed",
            message: "first_seen_at is more than \(days) days ago, outside this program's claim window")
    }
    public static func firstSeenRequired(days: Int) -> ClaimFailure {
        .invalidRequest("first_seen_at is required: this program accepts claims for \(days) days after it")
    }
}
