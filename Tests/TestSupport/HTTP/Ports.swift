#if canImport(Glibc)
    import Glibc
#endif

/// Free ports of 127.0.0.1, for a server a test starts late.
package enum Ports {
    /// A port nothing listens on now: bound to learn its number, then closed, so connecting is refused until
    /// the test starts something there. (Another process could take it meanwhile; the kernel hands out
    /// ephemeral ports in turn, so that takes a long while.)
    package static func reserve() throws -> Int {
        let (fd, port) = try bindLoopback()
        close(fd)
        return port
    }

    /// A TCP socket bound to 127.0.0.1 on a port the kernel picks, listening when `backlog` is given, and that port;
    /// with `sharing`, bound with `SO_REUSEADDR` and `SO_REUSEPORT`, as a server's listeners that share their port
    /// are. The caller closes it.
    package static func bindLoopback(listening backlog: Int32? = nil, sharing: Bool = false) throws -> (
        descriptor: Int32, port: Int
    ) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket failed: errno \(errno)") }
        if sharing {
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true)
                    && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let error = errno
            close(fd)
            throw TestError("bind\(backlog == nil ? "" : " or listen") on 127.0.0.1:0 failed: errno \(error)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
