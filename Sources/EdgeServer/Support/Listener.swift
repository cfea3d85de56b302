#if canImport(Glibc)
    import Glibc
#endif

/// Listening sockets: one per loop thread on the same address, spread by the kernel (`SO_REUSEPORT`).
enum Listener {
    /// How a listener shares its port.
    enum Sharing {
        /// Never: `SO_REUSEPORT` stays off, so that a port another socket holds is refused (the metrics listener).
        case none
        /// Bound alone, then shared: `SO_REUSEPORT` is off at the bind, so that a port another socket listens on or
        /// holds without sharing is refused, also one whose listeners share it (another `tolt-edge serve`: joining
        /// its listeners would have the kernel split the connections between two servers); it is turned on once the
        /// socket listens, so that the loops' other listeners can join this one, and a server starting at the same
        /// moment cannot (a socket that only is bound could still be joined by another `SO_REUSEADDR` bind). A
        /// program of the same user that binds with `SO_REUSEPORT` itself (an older tolt-edge) can still join.
        case opensGroup
        /// Bound with `SO_REUSEPORT` to the port an `.opensGroup` listener of this server holds.
        case joinsGroup
    }

    /// Opens `count` non-blocking listeners on `host:port` for the loop threads, spread by the kernel
    /// (`SO_REUSEPORT`): the first one ``Sharing/opensGroup``, so a busy port fails here with `Address already in
    /// use`; the others join it, on the port it got when `port` is 0.
    static func openGroup(host: String, port: Int, count: Int) throws -> [Int32] {
        var listeners: [Int32] = []
        var port = port
        do {
            for index in 0..<count {
                let descriptor = try open(host: host, port: port, sharing: index == 0 ? .opensGroup : .joinsGroup)
                listeners.append(descriptor)
                port = localPort(descriptor)
            }
        } catch {
            for descriptor in listeners { close(descriptor) }
            throw error
        }
        return listeners
    }

    /// Opens a non-blocking listener on `host:port` (an IPv4 or IPv6 address or a name such as `localhost`).
    static func open(host: String, port: Int, sharing: Sharing) throws -> Int32 {
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
        if sharing == .joinsGroup {
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ConfigurationError("cannot listen on \(host):\(port): \(reason)")
        }
        // Linux reads a listening socket's SO_REUSEPORT each time another socket binds the port, and gives it a group
        // when the first one joins: turned on once this socket listens (a bound socket that does not listen yet can
        // still be joined by another SO_REUSEADDR bind, so two servers starting at once could both get through), it
        // lets this server's other listeners in, and no socket bound without SO_REUSEPORT.
        guard
            listen(descriptor, 4096) == 0,
            sharing != .opensGroup
                || setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
        else {
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
