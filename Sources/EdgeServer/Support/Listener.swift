#if canImport(Glibc)
    import Glibc
#endif

/// Listening sockets: one per loop thread on the same address, spread by the kernel (`SO_REUSEPORT`).
enum Listener {
    /// Opens a non-blocking listener on `host:port` (an IPv4 or IPv6 address or a name such as `localhost`).
    /// `sharesPort: false` leaves `SO_REUSEPORT` off, so that a port another socket holds is refused.
    static func open(host: String, port: Int, sharesPort: Bool = true) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let info = result else {
            throw ConfigurationError("--host \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(result) }
        let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConfigurationError("socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if sharesPort { setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) }
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ConfigurationError("cannot listen on \(host):\(port): \(reason)")
        }
        guard listen(descriptor, 4096) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ConfigurationError("cannot listen on \(host):\(port): \(reason)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }

    /// The port a socket is bound to.
    static func localPort(_ descriptor: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(SocketAddress.port(storage))
    }
}
