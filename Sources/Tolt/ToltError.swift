import Foundation

/// Why a claim failed: a refusal by the edge (its machine code, such as `unknown_code`), a network failure, a
/// server error, or a claim made before ``Tolt/configure(publicId:)``.
///
/// Match a kind with `catch` or `==` against the static members; two errors are equal when they are of one
/// kind, whatever their message and details. New kinds never break callers.
///
/// ```swift
/// do {
///     _ = try await Tolt.claim(code: code, appUserId: Purchases.shared.appUserID)
/// } catch ToltError.unknownCode {
///     showMessage("That code does not exist")
/// } catch let error as ToltError where error == .rateLimited {
///     retryLater(after: error.retryAfter ?? 60)
/// }
/// ```
public struct ToltError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    private enum Kind: Sendable, Equatable {
        case notConfigured, unknownPublicKey, unknownCode, unknownClick, codeConflict, claimWindowClosed
        case invalidRequest, rateLimited, network, server, unexpectedResponse
    }

    private let kind: Kind
    /// What happened, for people: the edge's message for a refusal, the system's for a network failure.
    public let message: String
    /// The edge's machine code (`unknown_code`, `rate_limited`, …) when the edge answered with one.
    public let code: String?
    /// The HTTP status of the edge's answer, when there was one.
    public let httpStatus: Int?
    /// For ``rateLimited`` (and a `5xx` that says so): how many seconds the edge asked the app to wait, at most a
    /// day (86,400); `nil` when the answer had no `Retry-After` that RFC 9110 reads (whole seconds or an HTTP date).
    public let retryAfter: TimeInterval?
    /// For ``network``: the `URLError` code of the last attempt.
    public let urlErrorCode: URLError.Code?
    /// Whether trying again can help: network failures, `429` and `5xx`. The SDK has already retried these.
    let isTransient: Bool

    private init(
        _ kind: Kind, _ message: String, code: String? = nil, httpStatus: Int? = nil, retryAfter: TimeInterval? = nil,
        urlErrorCode: URLError.Code? = nil, isTransient: Bool = false
    ) {
        self.kind = kind
        self.message = message
        self.code = code
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
        self.urlErrorCode = urlErrorCode
        self.isTransient = isTransient
    }

    /// `claim` was called before ``Tolt/configure(publicId:)``.
    public static let notConfigured = ToltError(
        .notConfigured, "Call Tolt.configure(publicId:) once at launch, before Tolt.claim")
    /// `unknown_public_key` (404): the public key names no organization; check the key in `configure`.
    public static let unknownPublicKey = ToltError(.unknownPublicKey, "The public key names no organization")
    /// `unknown_code` (404): the code is unknown or inactive, or its partner is inactive.
    public static let unknownCode = ToltError(.unknownCode, "The code is unknown or inactive")
    /// `unknown_click` (404): the click id is not a click of this organization.
    public static let unknownClick = ToltError(.unknownClick, "The click is not a click of this organization")
    /// `code_conflict` (409): two partners hold the code, so it cannot be claimed until one gives it up.
    public static let codeConflict = ToltError(.codeConflict, "The code is held by more than one partner")
    /// `claim_window_closed` (409): the app's first open is longer ago than the program's claim window.
    public static let claimWindowClosed = ToltError(
        .claimWindowClosed, "The first open is outside the program's claim window")
    /// `invalid_request` (400): the edge refused the request as sent, for example an app user id longer than 256
    /// characters or 1,024 bytes, or an empty code. Also its HTTP layer's refusals: `bad_request` (400), `payload_too_large` (413),
    /// `unsupported_media_type` (415) and `expectation_failed` (417); ``code`` says which.
    public static let invalidRequest = ToltError(.invalidRequest, "The edge refused the request")
    /// `rate_limited` (429): too many claims from this address; ``retryAfter`` says how long to wait. Thrown
    /// when waiting that long is beyond what the SDK retries by itself: a wait ending more than a minute after the
    /// claim began, or after its last attempt.
    public static let rateLimited = ToltError(.rateLimited, "Too many claims from this address", isTransient: true)
    /// The edge could not be reached (no network, refused, timed out) on every attempt.
    public static let network = ToltError(.network, "The edge could not be reached", isTransient: true)
    /// The edge answered `5xx` on every attempt.
    public static let server = ToltError(.server, "The edge had an error", isTransient: true)
    /// The edge answered something the SDK does not understand: a body that is not the edge's JSON, or a
    /// machine code newer than this SDK (``code`` holds it).
    public static let unexpectedResponse = ToltError(.unexpectedResponse, "The edge's answer was not understood")

    /// An edge refusal: its machine code mapped to a kind (an unknown code to ``unexpectedResponse``).
    static func refusal(code: String, message: String, httpStatus: Int, retryAfter: TimeInterval?) -> ToltError {
        let kind: Kind
        switch code {
        case "unknown_public_key": kind = .unknownPublicKey
        case "unknown_code": kind = .unknownCode
        case "unknown_click": kind = .unknownClick
        case "code_conflict": kind = .codeConflict
        case "claim_window_closed": kind = .claimWindowClosed
        // The request as sent: its fields (`invalid_request`), or what the edge's HTTP layer refused before the
        // claim was read (framing, size, media type, an `Expect` header).
        case "invalid_request", "bad_request", "payload_too_large", "unsupported_media_type", "expectation_failed":
            kind = .invalidRequest
        case "rate_limited": kind = .rateLimited
        default: kind = httpStatus >= 500 ? .server : .unexpectedResponse
        }
        return ToltError(
            kind, message, code: code, httpStatus: httpStatus, retryAfter: retryAfter,
            isTransient: kind == .rateLimited || httpStatus >= 500)
    }

    /// A `5xx` answer, with or without the edge's JSON error shape.
    static func server(httpStatus: Int, message: String, code: String?, retryAfter: TimeInterval?) -> ToltError {
        ToltError(
            .server, message, code: code, httpStatus: httpStatus, retryAfter: retryAfter, isTransient: true)
    }

    /// An answer the SDK does not understand; never retried.
    static func unexpectedResponse(_ message: String, httpStatus: Int?) -> ToltError {
        ToltError(.unexpectedResponse, message, httpStatus: httpStatus)
    }

    /// A failed exchange; transient unless retrying cannot help (a bad URL, a certificate the system refused).
    static func network(_ error: URLError) -> ToltError {
        let permanent: Set<URLError.Code> = [
            .badURL, .unsupportedURL, .cancelled, .userAuthenticationRequired, .secureConnectionFailed,
            .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired,
            .appTransportSecurityRequiresSecureConnection,
        ]
        return ToltError(
            .network, "The edge could not be reached: \(error.localizedDescription) (URLError \(error.code.rawValue))",
            urlErrorCode: error.code, isTransient: !permanent.contains(error.code))
    }

    /// Whether two errors are of one kind, whatever their messages and details.
    public static func == (lhs: ToltError, rhs: ToltError) -> Bool { lhs.kind == rhs.kind }

    /// Lets `catch ToltError.unknownCode { … }` match any error of that kind.
    public static func ~= (pattern: ToltError, error: any Error) -> Bool {
        (error as? ToltError).map { $0 == pattern } ?? false
    }

    /// ``message``, so that `localizedDescription` gives it too.
    public var errorDescription: String? { message }

    /// The message, with the edge's code and status when it answered.
    public var description: String {
        var text = "ToltError: \(message)"
        if let code {
            text += " (\(code)" + (httpStatus.map { ", HTTP \($0))" } ?? ")")
        } else if let httpStatus {
            text += " (HTTP \(httpStatus))"
        }
        if let retryAfter { text += "; retry after \(Self.wholeSeconds(retryAfter)) s" }
        return text
    }

    /// `seconds` rounded up, as a whole number when it is one an `Int` holds: never a trap, whatever the value (the
    /// SDK reads at most a day from `Retry-After`, but this text is what a crash reporter reads).
    private static func wholeSeconds(_ seconds: TimeInterval) -> String {
        let rounded = seconds.rounded(.up)
        return Int(exactly: rounded).map(String.init) ?? "\(rounded)"
    }
}
