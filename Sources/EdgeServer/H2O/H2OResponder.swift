internal import CH2O
import EdgeStore

/// ``HTTPResponder`` for one h2o request, on the loop thread that received it.
///
/// Memory comes from the request's pool, which h2o frees with the request, so nothing built for a response needs
/// freeing. Header values must outlive the request: h2o keeps their pointers until the response is written.
struct H2OResponder: HTTPResponder {
    let request: UnsafeMutablePointer<h2o_req_t>
    /// The loop outlives every request it runs; unowned(unsafe) spares a retain and release per request.
    unowned(unsafe) let loop: H2OLoop
    /// The route the request took (``Router/routeIndex(of:)``) and when the loop took it (monotonic nanoseconds),
    /// for the loop's metrics.
    let route: Int
    let startedAt: UInt64

    @inline(__always)
    func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
        h2o_mem_alloc_pool(&request.pointee.pool, max(byteCount, 1))!
    }

    @inline(__always)
    func send(_ response: HTTPResponse) {
        writeHead(response)
        loop.metrics.answered(
            route: route, status: response.status, elapsed: Clock.monotonicNanoseconds() &- startedAt)
        tolt_h2o_send_whole(request, response.body.baseAddress, response.body.count, 0)
    }

    func send(_ response: APIResponse) {
        writeAPIHead(response)
        loop.metrics.answered(
            route: route, status: response.status, elapsed: Clock.monotonicNanoseconds() &- startedAt)
        response.body.withUnsafeBytes { tolt_h2o_send_whole(request, $0.baseAddress, $0.count, 1) }
    }

    @inline(__always)
    func hold(recording click: StagedClick) -> HeldResponse {
        loop.hold(request, recording: click, route: route, startedAt: startedAt)
    }

    @inline(__always)
    func sendHeld(_ held: HeldResponse, _ response: HTTPResponse) {
        writeHead(response)
        loop.release(held, body: response.body)
    }

    func respondOnWorker(_ work: @escaping @Sendable () -> APIResponse) {
        loop.respondOnWorker(request, route: route, startedAt: startedAt, work)
    }

    /// The status, length and headers of a response; the body goes out separately.
    @inline(__always)
    private func writeHead(_ response: HTTPResponse) {
        if let location = response.location, let base = location.baseAddress {
            addHeader(HeaderTokens.shared.location, base, location.count)
        }
        if let vary = response.vary { addHeader(HeaderTokens.shared.vary, vary.pointer, vary.length) }
        if let retryAfter = response.retryAfter {
            addHeader(HeaderTokens.shared.retryAfter, retryAfter.pointer, retryAfter.length)
        }
        writeHead(
            status: response.status, length: response.body.count, contentType: response.contentType,
            cacheControl: response.cacheControl)
    }

    @inline(__always)
    private func writeHead(status: Int, length: Int, contentType: StaticText?, cacheControl: StaticText?) {
        let tokens = HeaderTokens.shared
        request.pointee.res.status = Int32(status)
        request.pointee.res.reason = StaticText.reason(status).pointer
        request.pointee.res.content_length = length
        addHeader(tokens.server, H2OEngine.serverName.pointer, H2OEngine.serverName.length)
        if let contentType { addHeader(tokens.contentType, contentType.pointer, contentType.length) }
        if let cacheControl { addHeader(tokens.cacheControl, cacheControl.pointer, cacheControl.length) }
    }

    private func writeAPIHead(_ response: APIResponse) {
        for header in response.headers {
            let name = copy(header.name)
            let value = copy(header.value)
            h2o_add_header_by_str(
                &request.pointee.pool, &request.pointee.res.headers, name.baseAddress, name.count, 1, nil,
                value.baseAddress, value.count)
        }
        // A JSON answer may quote the request (an unknown path in a 404): never to be sniffed as a page. The dashboard's
        // pages name it themselves.
        if !response.body.isEmpty && !response.headers.contains(where: { $0.name == "x-content-type-options" }) {
            // h2o 2.2 has no token for this name: added by its (static) name.
            h2o_add_header_by_str(
                &request.pointee.pool, &request.pointee.res.headers, StaticText.contentTypeOptions.pointer,
                StaticText.contentTypeOptions.length, 0, nil, StaticText.noSniff.pointer, StaticText.noSniff.length)
        }
        // An empty answer (a preflight's 204) has no content to type.
        writeHead(
            status: response.status, length: response.body.count,
            contentType: response.body.isEmpty ? nil : response.contentType ?? .json,
            cacheControl: response.cacheControl ?? .noStore)
    }

    /// Adds a response header whose value lives at least as long as the request.
    @inline(__always)
    private func addHeader(_ token: UnsafePointer<h2o_token_t>, _ value: UnsafeRawPointer, _ length: Int) {
        h2o_add_header(
            &request.pointee.pool, &request.pointee.res.headers, token, nil, value.assumingMemoryBound(to: CChar.self),
            length)
    }

    /// Copies `text` into the request's pool, where h2o may keep pointing at it.
    private func copy(_ text: String) -> UnsafeMutableBufferPointer<CChar> {
        let bytes = Array(text.utf8)
        let memory = allocate(bytes.count)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { memory.copyMemory(from: base, byteCount: $0.count) } }
        return UnsafeMutableBufferPointer(start: memory.assumingMemoryBound(to: CChar.self), count: bytes.count)
    }
}
