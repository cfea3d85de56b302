#if canImport(Glibc)
    import Glibc
#endif

/// A request method, as the router matches it.
enum HTTPMethod: Sendable, Equatable {
    case get, head, post, put, patch, delete, options, other

    /// The method whose name is `bytes` (methods are case-sensitive).
    init(_ bytes: UnsafeRawBufferPointer) {
        func equals(_ name: StaticString) -> Bool {
            bytes.count == name.utf8CodeUnitCount && memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
        }
        switch bytes.count {
        case 3: self = equals("GET") ? .get : equals("PUT") ? .put : .other
        case 4: self = equals("HEAD") ? .head : equals("POST") ? .post : .other
        case 5: self = equals("PATCH") ? .patch : .other
        case 6: self = equals("DELETE") ? .delete : .other
        case 7: self = equals("OPTIONS") ? .options : .other
        default: self = .other
        }
    }

    var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        case .other: "OTHER"
        }
    }
}

/// The request headers the server reads. A handler that needs another one adds a case here, and every engine
/// learns to find it (`H2O/HeaderTokens.swift` for h2o).
enum HTTPHeaderName: Int32, CaseIterable, Sendable {
    case userAgent, referer, authorization, xForwardedFor, contentType, acceptLanguage, cookie

    /// Whether the header is read only when it is the request's one line of its name, so that no reader picks one
    /// of two credentials or body types: a request with several reads as one with none
    /// (``HTTPRequest/hasSeveralLines(_:)`` tells which).
    var isReadOnce: Bool { self == .authorization || self == .contentType }

    /// The header's name in lower case, as HTTP/2 writes it and h2o's tokens name it.
    var lowercasedName: String {
        switch self {
        case .userAgent: "user-agent"
        case .referer: "referer"
        case .authorization: "authorization"
        case .xForwardedFor: "x-forwarded-for"
        case .contentType: "content-type"
        case .acceptLanguage: "accept-language"
        case .cookie: "cookie"
        }
    }
}

/// How an engine serves the parts of a request read only on demand: header values and the peer address.
///
/// C function pointers and a context rather than a protocol or closures, so that reading them allocates nothing
/// and costs one indirect call, and a request stays a plain value.
struct HTTPRequestSource {
    /// The value of a header (by ``HTTPHeaderName`` raw value), its length written to the third argument; `nil`
    /// when the request has none, and, for a header read once (``HTTPHeaderName/isReadOnce``), when it has several:
    /// then with a length of -1.
    typealias HeaderReader =
        @convention(c) (UnsafeMutableRawPointer, Int32, UnsafeMutablePointer<Int>) -> UnsafeRawPointer?
    /// Writes the peer's address; returns its length, 0 when unknown.
    typealias PeerReader = @convention(c) (UnsafeMutableRawPointer, UnsafeMutablePointer<sockaddr_storage>) -> UInt32

    let context: UnsafeMutableRawPointer
    let header: HeaderReader
    let peer: PeerReader
}

/// A request as handlers see it, whichever engine received it.
///
/// Its byte views point into the engine's memory for the request: valid until the response is sent, and never kept
/// beyond that (a worker gets an ``APIRequest`` copy instead).
struct HTTPRequest {
    let method: HTTPMethod
    /// The path, without the query.
    let path: UnsafeRawBufferPointer
    /// The query, without its `?`; empty when there is none.
    let query: UnsafeRawBufferPointer
    /// `http` or `https`.
    let scheme: UnsafeRawBufferPointer
    /// The `Host` (or `:authority`) the client asked for.
    let authority: UnsafeRawBufferPointer
    let body: UnsafeRawBufferPointer
    /// When the engine began processing the request, in milliseconds since 1970 (read without another clock call).
    let receivedAt: Int64
    let source: HTTPRequestSource

    /// The value of the first `name` header (of every `X-Forwarded-For` line, joined with ", "); empty when the
    /// request has none.
    ///
    /// Without the spaces and tabs around it: RFC 9110 §5.5 says they are not part of the value, and h2o 2.2 leaves
    /// them at its end (HTTP/1) or as the client sent them (HTTP/2). A User-Agent ending in a tab is the same browser
    /// to the classifier, the journal and the repeat-tap table. A view of fewer bytes: nothing is copied.
    @inline(__always)
    func header(_ name: HTTPHeaderName) -> UnsafeRawBufferPointer {
        var length = 0
        guard let base = source.header(source.context, name.rawValue, &length) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        @inline(__always) func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var start = 0
        var end = length
        while end > start && isWhitespace(bytes[end - 1]) { end -= 1 }
        while start < end && isWhitespace(bytes[start]) { start += 1 }
        return UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    /// Whether the request has more than one line of `name`, a header read only when it is the one line of its name
    /// (``HTTPHeaderName/isReadOnce``), whose ``header(_:)`` is then empty.
    func hasSeveralLines(_ name: HTTPHeaderName) -> Bool {
        var length = 0
        _ = source.header(source.context, name.rawValue, &length)
        return length < 0
    }

    /// Writes the address of the connection's peer; `false` when the engine does not know it.
    func peerAddress(into storage: UnsafeMutablePointer<sockaddr_storage>) -> Bool {
        source.peer(source.context, storage) > 0
    }
}
