internal import CH2O
import LinkCore

/// The errors h2o answers itself, before any handler has the request, sent in the API's one error shape.
///
/// h2o reads a request's whole body before it calls the handler, and refuses a body above ``maximumBodySize`` with its
/// own `413` and plain text: from the Content-Length before reading any of it, or as soon as a chunked body reaches
/// the limit. h2o still decides, stops reading and closes the connection afterwards; only what it writes changes
/// (`errors.c` in the `CH2O` target).
extension H2OEngine {
    /// The largest request body h2o reads; handlers apply their own, smaller limits.
    static let maximumBodySize = 1 << 20

    /// What a request whose body is above ``maximumBodySize`` gets, on every path.
    static let bodyTooLarge = APIResponse.error(APIError.payloadTooLarge(limit: maximumBodySize))

    /// The paths whose bodies h2o refuses above a smaller limit than ``maximumBodySize``, as it refuses a body above
    /// that one (before reading it from its Content-Length, or once a chunked body passes the limit: `bodylimit.c`):
    /// a claim, which would otherwise be read up to 1 MiB, or waited for until h2o's request timeout when its
    /// Content-Length says more than the client sends, before its handler could refuse it. HTTP/1 only; the handler
    /// still checks the size (an HTTP/2 body).
    static let smallerBodyLimits = [(path: APIHandler.claimsPath, limit: ClaimRequest.maximumBodySize)]

    /// What a request h2o cannot read gets: a broken Content-Length, an unknown Transfer-Encoding, broken chunks,
    /// a folded header line, not exactly one Host line, a malformed HTTP/2 header. h2o does not pass the cause on
    /// to this page (one page stands for every 400 it sends), so the message names the usual causes together.
    static let malformedRequest = APIResponse.error(
        APIError(
            status: 400, code: "bad_request",
            message:
                "The request is malformed: its framing or headers could not be read (for example two different "
                + "Content-Length values, more than one Transfer-Encoding, a bad chunk, a folded header line, or an "
                + "HTTP/1.1 request without exactly one Host line)"
        ))

    /// What a request with an `Expect` other than `100-continue` gets.
    static let unknownExpectation = APIResponse.error(
        APIError(
            status: 417, code: "expectation_failed", message: "Only 'Expect: 100-continue' is understood"))

    /// Makes h2o send ``bodyTooLarge``, ``malformedRequest`` and ``unknownExpectation`` in place of its own
    /// plain-text 413, 400 and 417.
    static func replaceOwnErrors(in config: UnsafeMutablePointer<h2o_globalconf_t>) {
        replaceError(bodyTooLarge, in: config)
        replaceError(malformedRequest, in: config)
        replaceError(unknownExpectation, in: config)
        // A path's own 413 after the general one: h2o runs the filters last added first, and the first replacement
        // that matches a request is the one it gets.
        for (path, limit) in smallerBodyLimits {
            tolt_h2o_body_limit(path, limit)
            replaceError(APIResponse.error(APIError.payloadTooLarge(limit: limit)), path: path, in: config)
        }
    }

    /// How many claims h2o refused with its `413` before any route (a body over the claim's limit, from its head or
    /// as a chunked one grew past it): the route never counted them, so the metrics add them
    /// (``ServerMetrics/setRefusedBeforeRouting(_:)``).
    static func claimsRefusedBeforeRouting(in config: UnsafeMutablePointer<h2o_globalconf_t>) -> Int {
        var path = Array(APIHandler.claimsPath.utf8)
        return path.withUnsafeMutableBytes { buffer in
            let text = h2o_iovec_t(base: buffer.baseAddress!.assumingMemoryBound(to: CChar.self), len: buffer.count)
            return Int(clamping: tolt_h2o_config_replaced_errors(config, 413, text))
        }
    }

    /// Makes h2o's own error with `response.status` (for requests to `path` alone, unless it is empty) go out as
    /// `response`, with the reason phrase and headers
    /// ``H2OResponder`` gives every API answer. h2o answers before the path is routed, so the headers a route
    /// promises on every answer go on all of them: `Access-Control-Allow-Origin: *`, as every `/client/claims`
    /// answer has, and the dashboard's security headers (no framing, no sniffing, a policy that loads nothing),
    /// harmless on a JSON error anywhere else.
    private static func replaceError(
        _ response: APIResponse, path: String = "", in config: UnsafeMutablePointer<h2o_globalconf_t>
    ) {
        var headers: [(name: [UInt8], value: [UInt8])] = response.headers.map {
            (Array($0.name.lowercased().utf8), Array($0.value.utf8))
        }
        headers.append((Array("access-control-allow-origin".utf8), Array("*".utf8)))
        headers += DashboardHandler.securityHeaders(nonce: nil).map { (Array($0.name.utf8), Array($0.value.utf8)) }
        headers.append((Array("server".utf8), Array(serverName.bytes)))
        headers.append((Array("content-type".utf8), Array(StaticText.json.bytes)))
        headers.append((Array("cache-control".utf8), Array(StaticText.noStore.bytes)))

        // Every text in one buffer, so that one pointer covers them all while h2o copies them.
        var storage: [UInt8] = []
        var ranges: [Range<Int>] = []
        func append(_ bytes: some Collection<UInt8>) {
            ranges.append(storage.count..<storage.count + bytes.count)
            storage += bytes
        }
        append(path.utf8)
        append(StaticText.reason(response.status).bytes)
        for header in headers {
            append(header.name)
            append(header.value)
        }
        append(response.body)
        storage.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            let texts = ranges.map { h2o_iovec_t(base: base + $0.lowerBound, len: $0.count) }
            tolt_h2o_config_replace_error(
                config, Int32(response.status), texts[0], texts[1], Array(texts[2..<texts.count - 1]), headers.count,
                texts[texts.count - 1])
        }
    }
}
