#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to a test server on 127.0.0.1: the one place the tests' raw clients open their sockets.
package enum LoopbackSocket {
    /// A connected descriptor, with receive and send timeouts in microseconds (`nil`: none), so that a server that
    /// neither reads nor answers fails a test instead of hanging it; `noDelay` turns Nagle's algorithm off;
    /// `receiveBuffer` sets `SO_RCVBUF` before connecting, so the window the server sees is that small from the start
    /// (a client that reads slowly, or not at all).
    package static func connect(
        port: Int, receiveTimeout: Int? = 10_000_000, sendTimeout: Int? = nil, noDelay: Bool = false,
        receiveBuffer: Int32? = nil
    ) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestError("socket failed: errno \(errno)") }
        if var bytes = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
        for (option, microseconds) in [(SO_RCVTIMEO, receiveTimeout), (SO_SNDTIMEO, sendTimeout)] {
            guard let microseconds else { continue }
            var timeout = timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
            setsockopt(descriptor, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        if noDelay {
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestError("connect to \(port) failed: errno \(errno)")
        }
        return descriptor
    }

    /// Writes `bytes` to `descriptor` until all are out, or a write fails (the peer closed, or the send timeout
    /// passed with no room); returns how many went out.
    package static func send(_ bytes: [UInt8], to descriptor: Int32) -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { break }
            offset += count
        }
        return offset
    }
}
