internal import CH2O
import EdgeStore
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// The state of one loop thread: its journal writer, its copy of the link table, and the requests it has
/// handed to workers. Used only on its own thread.
final class LoopContext {
    let application: EdgeApplication
    let index: Int
    let loop: UnsafeMutablePointer<tolt_h2o_loop>
    let journal: JournalWriter
    let random = RandomPool()
    let userAgents: UserAgentCache
    /// This loop's count of link requests, for the load gauge.
    let linkRequests: LoadGauge.Counter
    let tokens = HeaderTokens.shared
    private(set) var table: LinkTable
    private var generation: UInt64
    /// Requests handed to workers and not yet answered.
    var pendingCount = 0
    /// Requests this loop took in its current event-loop iteration; the engine reads and resets it.
    var iterationRequests = 0
    /// Link responses held until the journal holding their clicks is written.
    var held: [HeldResponse] = []
    var sending: [HeldResponse] = []
    /// Whether the next response of the current request is held.
    var holdsNextResponse = false
    /// Bumped each time held responses are taken for sending, so a late dispose callback touches nothing.
    var holdGeneration: UInt64 = 0

    init(application: EdgeApplication, index: Int, loop: UnsafeMutablePointer<tolt_h2o_loop>) {
        self.application = application
        self.index = index
        self.loop = loop
        journal = application.journal.makeWriter(stream: index)
        userAgents = UserAgentCache(classifier: application.classifier)
        linkRequests = application.load.counters[index]
        generation = application.watcher.generation
        table = application.watcher.table
    }

    /// Takes a new link table when the watcher swapped one in: one atomic load per call.
    @inline(__always)
    func refreshTable() {
        let current = application.watcher.generation
        if current != generation {
            generation = current
            table = application.watcher.table
        }
    }

    /// Seals the journal: called as the loop exits.
    func close() { journal.close() }

    /// Routes a request. Returns 0, as h2o expects from a handler that answered.
    func handle(_ request: UnsafeMutablePointer<h2o_req_t>) -> Int32 {
        iterationRequests &+= 1
        let path = request.pointee.path
        let queryAt = request.pointee.query_at
        let pathLength = queryAt >= 0 && queryAt < path.len ? queryAt : path.len
        let bytes = UnsafeRawBufferPointer(start: path.base, count: pathLength)
        if bytes.count > 3, bytes[0] == 0x2F, bytes[1] == 0x61, bytes[2] == 0x2F {
            handleLink(request, rest: UnsafeRawBufferPointer(rebasing: bytes[3...]))
            return 0
        }
        switch String(decoding: bytes, as: UTF8.self) {
        case "/healthz":
            respond(request, status: 200, contentType: .plain, body: Self.ok.bytes, bodyOutlivesRequest: true)
        case "/client/claims" where method(request) == "OPTIONS":
            respondToPreflight(request)
        case "/v1/clicks", "/v1/customers", "/client/claims":
            dispatch(request, path: String(decoding: bytes, as: UTF8.self))
        default:
            respond(
                request,
                APIResponse.error(.notFound("No such path: \(String(decoding: bytes.prefix(200), as: UTF8.self))")))
        }
        return 0
    }

    static let ok = StaticText("ok\n")

    func method(_ request: UnsafeMutablePointer<h2o_req_t>) -> String {
        let method = request.pointee.method
        return String(decoding: UnsafeRawBufferPointer(start: method.base, count: method.len), as: UTF8.self)
    }

    /// A request header's value as bytes (empty when absent), valid for the request's lifetime.
    @inline(__always)
    func header(_ request: UnsafeMutablePointer<h2o_req_t>, _ token: UnsafePointer<h2o_token_t>)
        -> UnsafeRawBufferPointer
    {
        let value = tolt_h2o_header(request, token)
        return UnsafeRawBufferPointer(start: value.base, count: value.len)
    }

    /// Adds a response header whose value lives at least as long as the request.
    @inline(__always)
    func addHeader(
        _ request: UnsafeMutablePointer<h2o_req_t>, _ token: UnsafePointer<h2o_token_t>, _ value: UnsafeRawPointer,
        _ length: Int
    ) {
        h2o_add_header(
            &request.pointee.pool, &request.pointee.res.headers, token, nil, value.assumingMemoryBound(to: CChar.self),
            length)
    }

    /// Copies `text` into the request's pool, where h2o may keep pointing at it.
    func poolCopy(_ request: UnsafeMutablePointer<h2o_req_t>, _ text: String) -> (UnsafeMutableRawPointer, Int) {
        let copy = Array(text.utf8).withUnsafeBytes { poolCopy(request, $0) }
        return (UnsafeMutableRawPointer(mutating: copy.baseAddress!), copy.count)
    }

    /// Copies `bytes` into the request's pool.
    func poolCopy(_ request: UnsafeMutablePointer<h2o_req_t>, _ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer
    {
        let memory = h2o_mem_alloc_pool(&request.pointee.pool, max(1, bytes.count))!
        if let base = bytes.baseAddress { memory.copyMemory(from: base, byteCount: bytes.count) }
        return UnsafeRawBufferPointer(start: memory, count: bytes.count)
    }

    /// Sends a whole response. The body is copied unless `bodyOutlivesRequest` says it is in the request's
    /// pool or static; a held response's body must be one of those.
    @inline(__always)
    func respond(
        _ request: UnsafeMutablePointer<h2o_req_t>, status: Int, contentType: StaticText?, body: UnsafeRawBufferPointer,
        cacheControl: StaticText? = .noStore, bodyOutlivesRequest: Bool = false
    ) {
        request.pointee.res.status = Int32(status)
        request.pointee.res.reason = StaticText.reason(status).pointer
        request.pointee.res.content_length = body.count
        addHeader(request, tokens.server, H2OEngine.serverName.pointer, H2OEngine.serverName.length)
        if let contentType { addHeader(request, tokens.contentType, contentType.pointer, contentType.length) }
        if let cacheControl { addHeader(request, tokens.cacheControl, cacheControl.pointer, cacheControl.length) }
        if holdsNextResponse {
            holdsNextResponse = false
            held[held.count - 1].body = bodyOutlivesRequest ? body : poolCopy(request, body)
            return
        }
        tolt_h2o_send_whole(request, body.baseAddress, body.count, bodyOutlivesRequest ? 0 : 1)
    }

    /// Sends an API answer computed anywhere.
    func respond(_ request: UnsafeMutablePointer<h2o_req_t>, _ response: APIResponse) {
        for header in response.headers {
            let name = poolCopy(request, header.name)
            let value = poolCopy(request, header.value)
            h2o_add_header_by_str(
                &request.pointee.pool, &request.pointee.res.headers, name.0.assumingMemoryBound(to: CChar.self), name.1,
                1, nil, value.0.assumingMemoryBound(to: CChar.self), value.1)
        }
        response.body.withUnsafeBytes { respond(request, status: response.status, contentType: .json, body: $0) }
    }
}
