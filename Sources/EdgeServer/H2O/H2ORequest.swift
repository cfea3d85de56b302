internal import CH2O

#if canImport(Glibc)
    import Glibc
#endif

extension HTTPRequest {
    /// The engine-neutral view of an h2o request: byte views into h2o's request, header values and the peer read
    /// on demand through ``HTTPRequestSource``.
    @inline(__always)
    init(h2o request: UnsafeMutablePointer<h2o_req_t>) {
        // Field by field: `request.pointee` as a whole would copy h2o's large request struct.
        let path = request.pointee.path
        let queryAt = request.pointee.query_at
        let hasQuery = queryAt >= 0 && queryAt < path.len
        let pathLength = hasQuery ? queryAt : path.len
        let method = request.pointee.method
        let authority = request.pointee.authority
        let entity = request.pointee.entity
        let scheme = tolt_h2o_scheme(request)
        self.init(
            method: HTTPMethod(UnsafeRawBufferPointer(start: method.base, count: method.len)),
            path: UnsafeRawBufferPointer(start: path.base, count: pathLength),
            query: hasQuery
                ? UnsafeRawBufferPointer(start: path.base + queryAt + 1, count: path.len - queryAt - 1)
                : UnsafeRawBufferPointer(start: nil, count: 0),
            scheme: UnsafeRawBufferPointer(start: scheme.base, count: scheme.len),
            authority: UnsafeRawBufferPointer(start: authority.base, count: authority.len),
            body: UnsafeRawBufferPointer(start: entity.base, count: entity.base == nil ? 0 : entity.len),
            receivedAt: tolt_h2o_request_millis(request),
            source: HTTPRequestSource(context: UnsafeMutableRawPointer(request), header: h2oHeader, peer: h2oPeer))
    }
}

/// ``HTTPRequestSource/HeaderReader`` for h2o: the header's token, looked up once at start-up. `X-Forwarded-For` is
/// read whole: a proxy may add its hop as a line of its own after the client's, and the first line alone would be
/// the client's word for its own address. `Authorization` and `Content-Type` are read only when each is the one line
/// of its name (``HTTPHeaderName/isReadOnce``): of two credentials neither is taken (the request is answered as one
/// without any), and of two body types neither is chosen, rather than the first; several lines are told apart from
/// none by a length of -1. `Cookie` lines are joined with "; " (an HTTP/2 browser sends each cookie on a line of its
/// own), up to 16 KiB of whole lines.
private let h2oHeader: HTTPRequestSource.HeaderReader = { request, name, length in
    let token = HeaderTokens.shared.request[Int(name)]
    let request = request.assumingMemoryBound(to: h2o_req_t.self)
    if HTTPHeaderName(rawValue: name)?.isReadOnce == true {
        var several: Int32 = 0
        let value = tolt_h2o_header_once(request, token, &several)
        length.pointee = several != 0 ? -1 : value.len
        return UnsafeRawPointer(value.base)
    }
    let value =
        switch HTTPHeaderName(rawValue: name) {
        case .xForwardedFor: tolt_h2o_header_list(request, token, 4096)
        case .cookie: tolt_h2o_header_cookies(request, token, 16384)
        default: tolt_h2o_header(request, token)
        }
    length.pointee = value.len
    return UnsafeRawPointer(value.base)
}

/// ``HTTPRequestSource/PeerReader`` for h2o (which caches the peer per connection).
private let h2oPeer: HTTPRequestSource.PeerReader = { request, storage in
    UInt32(tolt_h2o_peer(request.assumingMemoryBound(to: h2o_req_t.self), storage))
}
