#if canImport(Glibc)
    import Glibc
#endif

/// Free ports of 127.0.0.1, for a server a test starts late.
package enum Ports {
    /// A port nothing listens on now: bound to learn its number, then closed, so connecting is refused until
    /// the test starts something there. (Another process could take it meanwhile; the kernel hands out
    /// ephemeral ports in turn, so that takes a long while.)
    package static func reserve() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestError("bind 127.0.0.1:0 failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
