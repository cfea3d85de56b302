internal import CH2O
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// Hands API requests to workers and writes their answers back on the loop thread.
extension LoopContext {
    /// Copies what the API needs out of the request and runs it on a worker; the answer comes back through
    /// the loop's receiver. If the client goes away first, the request's pool tells the pending record so.
    func dispatch(_ request: UnsafeMutablePointer<h2o_req_t>, path: String) {
        let query =
            request.pointee.query_at >= 0 && request.pointee.query_at < request.pointee.path.len
            ? UnsafeRawBufferPointer(
                start: request.pointee.path.base + request.pointee.query_at + 1,
                count: request.pointee.path.len - request.pointee.query_at - 1)
            : UnsafeRawBufferPointer(start: nil, count: 0)
        let entity = request.pointee.entity
        let authorization = header(request, tokens.authorization)
        let ip = withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { buffer in
            String(decoding: buffer[..<clientAddress(request, into: buffer)], as: UTF8.self)
        }
        let apiRequest = APIRequest(
            method: method(request), path: path, query: QueryString.parse(query),
            authorization: authorization.count > 0 ? String(decoding: authorization, as: UTF8.self) : nil,
            body: entity.base == nil ? [] : Array(UnsafeRawBufferPointer(start: entity.base, count: entity.len)),
            clientIP: ip)
        let pending = PendingRequest(request)
        let slot = tolt_h2o_alloc_watch(request, MemoryLayout<UnsafeRawPointer>.size) { slot in
            let pending = Unmanaged<PendingRequest>.fromOpaque(slot!.load(as: UnsafeRawPointer.self))
                .takeRetainedValue()
            pending.request = nil
        }!
        slot.storeBytes(of: Unmanaged.passRetained(pending).toOpaque(), as: UnsafeMutableRawPointer.self)
        pendingCount += 1
        let receiver = Receiver(pointer: tolt_h2o_loop_receiver(loop))
        let api = application.api
        application.workers.async {
            let response = api.handle(apiRequest)
            let message = UnsafeMutablePointer<tolt_h2o_message>.allocate(capacity: 1)
            message.initialize(to: tolt_h2o_message())
            message.pointee.payload = Unmanaged.passRetained(Reply(pending: pending, response: response)).toOpaque()
            h2o_multithread_send_message(receiver.pointer, &message.pointee.super)
        }
    }

    /// Writes a worker's answer, unless the request is gone.
    func deliver(_ message: UnsafeMutablePointer<tolt_h2o_message>) {
        let reply = Unmanaged<Reply>.fromOpaque(message.pointee.payload).takeRetainedValue()
        message.deinitialize(count: 1)
        message.deallocate()
        pendingCount -= 1
        guard let request = reply.pending.request else { return }
        respond(request, reply.response)
    }

    /// `OPTIONS /client/claims`: web and React Native apps call claims from other origins.
    func respondToPreflight(_ request: UnsafeMutablePointer<h2o_req_t>) {
        respond(request, APIResponse(status: 204, body: [], headers: CORS.preflightHeaders))
    }

    /// The client's address as text: the socket peer, or with a trusted proxy in front, the hop of
    /// `X-Forwarded-For` just before the first trusted one. Returns the length written.
    func clientAddress(_ request: UnsafeMutablePointer<h2o_req_t>, into output: UnsafeMutableRawBufferPointer) -> Int {
        var storage = sockaddr_storage()
        guard tolt_h2o_peer(request, &storage) > 0 else { return 0 }
        let length = SocketAddress.text(&storage, into: output)
        let proxies = application.configuration.trustedProxies
        if proxies.isEmpty { return length }
        let forwarded = header(request, tokens.xForwardedFor)
        guard forwarded.count > 0 else { return length }
        let peer = String(decoding: output[..<length], as: UTF8.self)
        let client = Array(
            proxies.clientAddress(peer: peer, forwardedFor: String(decoding: forwarded, as: UTF8.self)).utf8)
        let count = min(client.count, output.count)
        output.copyBytes(from: client[..<count])
        return count
    }
}

/// A request waiting for a worker. `@unchecked Sendable`: a worker only carries it back; `request` is read
/// and cleared on the loop thread alone (by `deliver` and by the pool's dispose callback).
final class PendingRequest: @unchecked Sendable {
    var request: UnsafeMutablePointer<h2o_req_t>?
    init(_ request: UnsafeMutablePointer<h2o_req_t>) { self.request = request }
}

/// A worker's answer on its way back to the loop.
final class Reply: @unchecked Sendable {
    let pending: PendingRequest
    let response: APIResponse
    init(pending: PendingRequest, response: APIResponse) {
        self.pending = pending
        self.response = response
    }
}

/// A loop's receiver. `@unchecked Sendable`: h2o_multithread_send_message is the one call made on it from
/// other threads, and it is thread-safe.
struct Receiver: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<h2o_multithread_receiver_t>
}

/// Cross-origin headers for the client API.
enum CORS {
    static let preflightHeaders: [(name: String, value: String)] = [
        ("access-control-allow-origin", "*"),
        ("access-control-allow-methods", "POST, OPTIONS"),
        ("access-control-allow-headers", "content-type"),
        ("access-control-max-age", "86400"),
    ]
    static let responseHeaders: [(name: String, value: String)] = [("access-control-allow-origin", "*")]
}
