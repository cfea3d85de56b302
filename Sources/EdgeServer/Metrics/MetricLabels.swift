import LinkCore

/// The fixed label values of the metrics. Every label takes its value from one of these lists (or from the route
/// table, which is fixed at start-up), never from a request: a label whose values a client could choose would let
/// it grow the scrape, and the monitoring system's memory, without bound.
enum MetricLabels {
    /// The status codes counted by name; any other is counted as `other`. Every status the server's own code
    /// answers is here, `POST /v1/payouts`' 201, the dashboard's 303 after a form and its 308 to a canonical path
    /// among them (h2o's own 400, 413 and 417 are answered before any route, and are not counted).
    static let statusCodes: [Int] = [
        200, 201, 204, 302, 303, 308, 400, 401, 403, 404, 405, 409, 413, 415, 417, 429, 500, 503,
    ]

    /// The slot of `status` in a route's status counters: its place in ``statusCodes``, or the last slot.
    @inline(__always)
    static func statusSlot(_ status: Int) -> Int {
        switch status {
        case 200: return 0
        case 201: return 1
        case 204: return 2
        case 302: return 3
        case 303: return 4
        case 308: return 5
        case 400: return 6
        case 401: return 7
        case 403: return 8
        case 404: return 9
        case 405: return 10
        case 409: return 11
        case 413: return 12
        case 415: return 13
        case 417: return 14
        case 429: return 15
        case 500: return 16
        case 503: return 17
        default: return 18
        }
    }

    static var statusSlots: Int { statusCodes.count + 1 }

    /// A status slot's label value.
    static func statusLabel(_ slot: Int) -> String { slot < statusCodes.count ? String(statusCodes[slot]) : "other" }

    /// Upper bounds of the latency histogram's buckets, in nanoseconds: from 10 µs (a link answered from memory and
    /// its journal write) to 10 s (a webhook waiting on a busy store). The last bucket, `+Inf`, is implied.
    static let latencyBounds: [UInt64] = [
        10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000,
        50_000_000, 100_000_000, 250_000_000, 500_000_000, 1_000_000_000, 2_500_000_000, 5_000_000_000,
        10_000_000_000,
    ]

    /// A bucket bound in seconds, as the `le` label writes it (`0.00001`, `2.5`).
    static func latencyLabel(_ slot: Int) -> String {
        guard slot < latencyBounds.count else { return "+Inf" }
        return Exposition.decimal(nanoseconds: latencyBounds[slot])
    }

    /// RevenueCat's event types, as it spells them; any other type is counted as `OTHER`.
    static let webhookTypes: [String] = [
        "INITIAL_PURCHASE", "RENEWAL", "NON_RENEWING_PURCHASE", "PRODUCT_CHANGE", "CANCELLATION", "UNCANCELLATION",
        "EXPIRATION", "BILLING_ISSUE", "SUBSCRIPTION_PAUSED", "SUBSCRIPTION_EXTENDED", "TRANSFER", "REFUND_REVERSED",
        "TEMPORARY_ENTITLEMENT_GRANT", "INVOICE_ISSUANCE", "VIRTUAL_CURRENCY_TRANSACTION", "EXPERIMENT_ENROLLMENT",
        "TEST", "OTHER",
    ]

    /// The slot of an event type in ``webhookTypes``.
    static func webhookTypeSlot(_ type: String) -> Int {
        webhookTypes.firstIndex(of: type) ?? webhookTypes.count - 1
    }
}

/// What a link request was answered with (`tolt_edge_link_answers_total{answer}`).
enum LinkAnswer: Int, CaseIterable {
    case redirect, play, page, preview, notFound

    var label: String {
        switch self {
        case .redirect: return "redirect"
        case .play: return "play"
        case .page: return "page"
        case .preview: return "preview"
        case .notFound: return "not_found"
        }
    }
}

/// How a claim ended (`tolt_edge_claims_total{outcome}`): the status of a success, or the error code.
enum ClaimOutcome: String, CaseIterable, Sendable {
    case claimed
    case alreadyClaimed = "already_claimed"
    case rateLimited = "rate_limited"
    case invalidRequest = "invalid_request"
    case unsupportedMediaType = "unsupported_media_type"
    case payloadTooLarge = "payload_too_large"
    case unknownPublicKey = "unknown_public_key"
    case unknownCode = "unknown_code"
    case unknownClick = "unknown_click"
    case codeConflict = "code_conflict"
    case claimWindowClosed = "claim_window_closed"
    /// Anything else: an internal error, or a code added later and not listed here.
    case error

    /// The outcome of an error answer, by its code.
    init(errorCode: String) { self = ClaimOutcome(rawValue: errorCode) ?? .error }
}

/// A refused authentication (`tolt_edge_authentication_failures_total{outcome}`): a wrong key counted against its
/// client (`/v1`'s `401` with an `Authorization`, a failed dashboard sign-in, the webhook's wrong authorization), or a
/// client refused `429` for its
/// failures before its key was read (``APIHandler/refuseIfFailingTooOften(_:)``).
enum AuthenticationFailure: String, CaseIterable, Sendable {
    case wrongKey = "wrong_key"
    case rateLimited = "rate_limited"
}

/// What a worker did that a counter keeps, carried back to the loop with its answer (``APIResponse/tally``): the
/// loop that owns the request counts it, so workers share no counter.
enum WorkerTally: Sendable {
    /// A claim's outcome, and what each event of its user stored `unattributed` before it did when the claim applied
    /// it (``EdgeStore/Store/claim(_:replaying:)``).
    case claim(ClaimOutcome, replayed: [WebhookOutcome] = [])
    /// A webhook event stored (or found a redelivery): its type's slot in ``MetricLabels/webhookTypes``, what it
    /// did, and what each event stored `unattributed` under ids it tied to a customer did when it applied them
    /// (``EdgeStore/Store/recordWebhookEvent(_:plan:)``).
    case webhook(typeSlot: Int, outcome: WebhookOutcome, replayed: [WebhookOutcome] = [])
    /// An authentication refused.
    case authentication(AuthenticationFailure)
}
