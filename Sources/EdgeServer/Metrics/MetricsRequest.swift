/// The one request the metrics listener understands, `GET /metrics` (or `HEAD`), read from a request head, and the
/// answer to anything else: `405` for another method on `/metrics`, `404` for another path, `400` for a head that
/// is not HTTP/1.x. Pure: no socket, so the rules are tested alone.
enum MetricsRequest {
    struct Answer {
        var status: Int
        var reason: String
        var contentType = "application/json"
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        /// `GET` or `HEAD /metrics`: the body is the scrape.
        var isScrape = false
        var isHead = false
    }

    /// Whether `head` holds a whole request head (up to its empty line).
    static func isComplete(_ head: [UInt8]) -> Bool {
        guard head.count >= 4 else { return false }
        for index in 3..<head.count
        where head[index] == 0x0A && head[index - 1] == 0x0D && head[index - 2] == 0x0A && head[index - 3] == 0x0D {
            return true
        }
        return false
    }

    /// The answer to the request whose head is `head`.
    static func answer(to head: [UInt8]) -> Answer {
        guard let lineEnd = head.firstIndex(of: 0x0D) else { return badRequest }
        let parts = head[..<lineEnd].split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8),
            !parts[0].isEmpty, parts[0].allSatisfy({ (0x41...0x5A).contains($0) }), parts[1].first == 0x2F
        else { return badRequest }
        let target = parts[1]
        let path = target.prefix { $0 != 0x3F }
        guard path.elementsEqual("/metrics".utf8) else {
            return error(404, "Not Found", code: "not_found", message: "This listener serves /metrics only")
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard method == "GET" || method == "HEAD" else {
            var answer = error(
                405, "Method Not Allowed", code: "method_not_allowed", message: "Use GET, HEAD on this path")
            answer.headers = [("Allow", "GET, HEAD")]
            return answer
        }
        return Answer(
            status: 200, reason: "OK", contentType: "text/plain; version=0.0.4; charset=utf-8", isScrape: true,
            isHead: method == "HEAD")
    }

    static let tooLarge = error(
        431, "Request Header Fields Too Large", code: "request_too_large",
        message: "The request head is larger than \(MetricsListener.headLimit) bytes or took too long")

    private static let badRequest = error(400, "Bad Request", code: "bad_request", message: "Not an HTTP/1 request")

    /// The API's error shape.
    private static func error(_ status: Int, _ reason: String, code: String, message: String) -> Answer {
        let body = "{\"success\":false,\"message\":\"\(message)\",\"error\":\"\(code)\"}\n"
        return Answer(status: status, reason: reason, body: Array(body.utf8))
    }
}
