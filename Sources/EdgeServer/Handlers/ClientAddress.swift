#if canImport(Glibc)
    import Glibc
#endif

/// The client's address as text: the socket peer, or, with trusted proxies in front, the hop of `X-Forwarded-For`
/// just before the first trusted one (``TrustedProxies/clientAddress(peer:forwardedFor:)``).
enum ClientAddress {
    /// The most bytes an address takes as text (an IPv6 address with a zone, with room to spare).
    static let maximumLength = 64

    /// Writes the client's address into `output` (at least ``maximumLength`` bytes); returns the length written, 0
    /// when the engine does not know the peer. Allocates nothing unless proxies are trusted and the request came
    /// through one.
    static func write(
        of request: HTTPRequest, trusting proxies: TrustedProxies, into output: UnsafeMutableRawBufferPointer
    ) -> Int {
        var storage = sockaddr_storage()
        guard request.peerAddress(into: &storage) else { return 0 }
        let length = SocketAddress.text(&storage, into: output)
        if proxies.isEmpty { return length }
        // The header is read only from a trusted peer: anyone else's is never looked at, however long.
        let peer = String(decoding: output[..<length], as: UTF8.self)
        guard proxies.trusts(peer: peer) else { return length }
        let forwarded = request.header(.xForwardedFor)
        guard forwarded.count > 0 else { return length }
        let client = Array(
            proxies.clientAddress(peer: peer, forwardedFor: String(decoding: forwarded, as: UTF8.self)).utf8)
        let count = min(client.count, output.count)
        output.copyBytes(from: client[..<count])
        return count
    }

    /// The client's address as a `String`, for requests off the link path.
    static func text(of request: HTTPRequest, trusting proxies: TrustedProxies) -> String {
        withUnsafeTemporaryAllocation(byteCount: maximumLength, alignment: 8) { buffer in
            String(decoding: buffer[..<write(of: request, trusting: proxies, into: buffer)], as: UTF8.self)
        }
    }
}
