/// A parsed, validated `POST /client/claims` body.
public struct ClaimRequest: Sendable, Equatable {
    /// The largest body accepted, in bytes.
    public static let maximumBodySize = 16 * 1024
    /// The longest app user id accepted, in characters.
    public static let maximumUserIDLength = 256

    public var publicID: String
    public var appUserID: String
    public var code: String?
    public var clickID: String?
    /// Milliseconds since 1970.
    public var firstSeenAt: Int64?

    /// Parses a body; the error names the field or rule that failed.
    public init(body: [UInt8]) throws(ClaimFailure) {
        let root: JSONValue
        do { root = try JSONParser.parse(body) } catch { throw .invalidRequest("The body is not valid JSON: \(error)") }
        guard case .object = root else { throw .invalidRequest("The body must be a JSON object") }
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
        publicID = try text("public_id", required: true)!
        appUserID = try text("app_user_id", required: true)!
        guard appUserID.count <= Self.maximumUserIDLength else {
            throw .invalidRequest("app_user_id must be 1–\(Self.maximumUserIDLength) characters")
        }
        code = try text("code", required: false)
        clickID = try text("click_id", required: false)
        guard code != nil || clickID != nil else { throw .invalidRequest("Send code or click_id") }
        if let code, code.utf8.count > 256 { throw .invalidRequest("code is longer than 256 bytes") }
        if case .string("")? = root["first_seen_at"] {
            throw .invalidRequest("first_seen_at must be an ISO 8601 time such as 2026-01-31T12:00:00Z, not empty")
        }
        if let seen = try text("first_seen_at", required: false) {
            guard let millis = Timestamp.parse(seen) else {
                throw .invalidRequest("first_seen_at must be an ISO 8601 time such as 2026-01-31T12:00:00Z")
            }
            firstSeenAt = millis
        }
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
