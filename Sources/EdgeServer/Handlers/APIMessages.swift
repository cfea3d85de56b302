import EdgeStore
import LinkCore

/// A request copied off the loop thread, so that a worker can answer it.
struct APIRequest: Sendable {
    var method: HTTPMethod
    var path: String
    /// Query parameters, percent-decoded; a repeated name keeps its last value (and is in ``repeatedQueryNames``).
    var query: [String: String]
    /// The query's names given more than once, which the `/v1` lists refuse.
    var repeatedQueryNames: Set<String> = []
    /// What of the query was left out of ``query`` (``QueryString/parse(_:)``), which the `/v1` lists refuse.
    var queryProblem: String?
    /// The query's bytes as they came, after the `?` (not decoded), for an answer that sends it on unchanged.
    var rawQuery: [UInt8] = []
    /// The headers the server reads (``HTTPHeaderName``) that the request carries.
    var headers: [HTTPHeaderName: String]
    /// The headers read once (``HTTPHeaderName/isReadOnce``) that the request has several lines of, and so are not
    /// in ``headers``.
    var repeatedHeaders: Set<HTTPHeaderName> = []
    var body: [UInt8]
    /// The client's address (``ClientAddress``).
    var clientIP: String

    var authorization: String? { headers[.authorization] }

    /// Refuses a JSON post (a claim, a webhook event) with more than one `Content-Type` line: which type its body
    /// has cannot be told, and neither line is chosen (the first used to be, so the order decided between `200` and
    /// `415`), as neither of two `Authorization` lines is.
    func requireOneContentType() throws(APIError) {
        guard repeatedHeaders.contains(.contentType) else { return }
        throw .invalidRequest(
            "The request has more than one Content-Type line: send one, Content-Type: application/json")
    }
}

extension APIRequest {
    /// Copies what a worker may read out of a request whose memory belongs to the loop.
    init(_ request: HTTPRequest, clientIP: String) {
        var headers: [HTTPHeaderName: String] = [:]
        var repeatedHeaders: Set<HTTPHeaderName> = []
        for name in HTTPHeaderName.allCases {
            let value = request.header(name)
            if value.count > 0 {
                headers[name] = String(decoding: value, as: UTF8.self)
            } else if name.isReadOnce, request.hasSeveralLines(name) {
                repeatedHeaders.insert(name)
            }
        }
        let query = QueryString.parse(request.query)
        self.init(
            method: request.method, path: String(decoding: request.path, as: UTF8.self), query: query.values,
            repeatedQueryNames: query.repeated, queryProblem: query.problem,
            rawQuery: Array(request.query), headers: headers,
            repeatedHeaders: repeatedHeaders, body: Array(request.body), clientIP: clientIP)
    }
}

/// An answer computed by a worker, written back on the loop thread.
struct APIResponse: Sendable {
    var status: Int
    var body: [UInt8]
    var headers: [(name: String, value: String)] = []
    /// The body's type, when it is not JSON.
    var contentType: StaticText? = nil
    /// `Cache-Control`, when it is not `no-store` (the association files, which phones' systems and caches may keep).
    var cacheControl: StaticText? = nil
    /// What the loop counts in its metrics when this answer comes back from a worker (even if the client left).
    var tally: WorkerTally? = nil

    /// `{"success":false,"message":…,"error":…}`, the one error shape of the API, with the error's tally.
    static func error(_ error: APIError) -> APIResponse {
        var json = JSONWriter()
        json.object {
            $0.raw("success", "false")
            $0.string("message", error.message)
            $0.string("error", error.code)
        }
        return APIResponse(status: error.status, body: json.bytes + [0x0A], headers: error.headers, tally: error.tally)
    }

    /// `{"success":true,…}` with the members `body` writes.
    static func success(_ body: (inout JSONWriter.ObjectWriter) -> Void) -> APIResponse {
        var json = JSONWriter()
        json.object {
            $0.raw("success", "true")
            body(&$0)
        }
        return APIResponse(status: 200, body: json.bytes + [0x0A])
    }
}

/// An error that reaches HTTP: its status, a stable machine code and a message naming what failed.
struct APIError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var headers: [(name: String, value: String)] = []
    /// What the metrics count for this answer (``APIResponse/tally``), when a counter keeps it.
    var tally: WorkerTally? = nil

    static func invalidRequest(_ message: String) -> APIError {
        APIError(status: 400, code: "invalid_request", message: message)
    }
    static let unauthorized = APIError(
        status: 401, code: "unauthorized", message: "Send your secret key as 'Authorization: Bearer <secret_key>'")
    static func notFound(_ message: String, code: String = "not_found") -> APIError {
        APIError(status: 404, code: code, message: message)
    }
    static func methodNotAllowed(_ allowed: String) -> APIError {
        APIError(
            status: 405, code: "method_not_allowed", message: "Use \(allowed) on this path",
            headers: [("allow", allowed)])
    }
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(status: 413, code: "payload_too_large", message: "The request body is larger than \(limit) bytes")
    }
    /// The node has not loaded its configuration yet (its store has been down since start-up).
    static let noConfiguration = APIError(
        status: 503, code: "unavailable", message: "This node has not loaded its configuration yet; try again shortly",
        headers: [("retry-after", "5")])

    /// The store cannot be reached now (a shared PostgreSQL store that is down or restarting): the client retries
    /// after `Retry-After` seconds, by which time the store's connection has tried again (its back-off tops out at
    /// 2 s). Nothing was stored, so a retry is safe.
    static let storeUnavailable = APIError(
        status: 503, code: "unavailable", message: "The store is unavailable right now; retry shortly",
        headers: [("retry-after", "2")])

    /// The answer for an error a handler did not turn into an ``APIError`` itself: `503` for a store that cannot be
    /// reached, `500` for anything else.
    static func answering(_ error: any Error) -> APIError {
        if let error = error as? StoreError, error.isUnavailable { return storeUnavailable }
        return internalError
    }

    static let internalError = APIError(
        status: 500, code: "internal_error", message: "The server could not complete the request; try again")
}

// In an extension, so that the memberwise initializer stays.
extension APIError {
    /// A claim rule's refusal (``LinkCore/ClaimFailure``), answered as it says; the other JSON posts apply the
    /// claims' rules for what they share (the `Content-Type`, the text of an id).
    init(_ failure: ClaimFailure) {
        self.init(status: failure.status, code: failure.code, message: failure.message)
    }
}
