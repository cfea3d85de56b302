import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/1.1 clients that pipeline many requests and then read slowly or not at all. h2o 2.2 has no write timeout: a
/// client that never reads kept its connection and slot for ever. The server closes a connection whose peer takes
/// fewer than 1 KiB of its answers in 10 s, and never one that keeps reading, however slowly.
@Suite struct StalledReaderTests {
    /// The desktop fallback page (about 3 KB here, without a QR code), the largest answer of the link path.
    static let request = Array(
        "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: \(Agents.desktop)\r\n\r\n".utf8)

    @Test func aPipeliningClientThatNeverReadsIsClosedAndItsSlotServesTheNextClient() throws {
        // One loop with one connection slot, which the client that never reads holds.
        let server = try TestServer(threads: 1) { $0.maxConnections = 1 }
        defer { server.shutdown() }
        let descriptor = try LoopbackSocket.connect(port: server.port, receiveBuffer: 4096)
        defer { close(descriptor) }
        // Far more answers than the kernel buffers between the two (megabytes, with autotuning); then nothing is read.
        let sent = Self.send(Array(repeating: Self.request, count: 3000).flatMap { $0 }, to: descriptor)
        try #require(sent >= 500 * Self.request.count, "only \(sent) bytes of requests went out")
        let start = TestClock.now()
        let closed = try #require(Self.waitForClose(descriptor, within: 20), "still open after 20 s")
        // 10 s without progress, seen by a look once a second, from a stall that began within the first second.
        #expect(closed - start >= 9 && closed - start < 14, "closed after \(closed - start) s")
        // The slot is free again.
        #expect(try server.client().request("GET", "/healthz").status == 200)
    }

    /// A phone on a bad network: a small window, and about 1 KB read a second for longer than the stall bound, while
    /// the server waits on the socket the whole time (thousands of pipelined answers, megabytes more than the kernel
    /// buffers); then it reads the rest at once, and every answer is there, whole.
    @Test func aSlowReaderThatKeepsReadingIsServedToTheEnd() throws {
        let server = try TestServer(threads: 1)
        defer { server.shutdown() }
        let descriptor = try LoopbackSocket.connect(port: server.port, receiveTimeout: 5_000_000, receiveBuffer: 4096)
        defer { close(descriptor) }
        let pipelined = 3000
        // The last request ends the connection once answered, so the reading below ends at the end of the stream.
        let last = Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        let requests = Array(repeating: Self.request, count: pipelined).flatMap { $0 } + last
        // Written beside the reading: the server takes the requests only as fast as its answers go out.
        let written = Mutex<Int?>(nil)
        TestThread.start(name: "pipeline") { [descriptor] in
            let sent = Self.send(requests, to: descriptor, timeout: 60)
            written.withLock { $0 = sent }
        }

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        let slowUntil = TestClock.now() + 16
        while TestClock.now() < slowUntil {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            try #require(count > 0, "the connection closed after \(received.count) bytes read slowly")
            received += chunk[..<count]
            usleep(250_000)
        }
        let slowly = received.count
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            try #require(count >= 0, "errno \(errno) after \(received.count) bytes")
            if count == 0 { break }
            received += buffer[..<count]
        }
        #expect(eventually(within: 5) { written.withLock { $0 } == requests.count })
        // The server waited on this reader all along: the kernel holds at most its largest send buffer, so while the
        // reader had taken less than the rest, h2o held answers it could not hand over.
        let largestSendBuffer = try Self.largestSendBuffer()
        #expect(received.count > largestSendBuffer + slowly + 65_536, "\(received.count) bytes of answers")
        let (responses, rest) = try RawExchange.parse(received)
        #expect(responses.count == pipelined + 1 && responses.allSatisfy { $0.status == 200 } && rest.isEmpty)
        #expect(slowly >= 8_000 && slowly <= 4 * 16 * 256, "\(slowly) bytes read in the slow part")
    }

    /// The most a TCP socket's send buffer grows to (`net.ipv4.tcp_wmem`'s third field).
    static func largestSendBuffer() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8).split(separator: "\t")
        guard fields.count == 3, let largest = Int(fields[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestError("tcp_wmem: \(fields)")
        }
        return largest
    }

    /// Sends `bytes` until they are all out or the socket takes none for `seconds`; returns how many went out.
    static func send(_ bytes: [UInt8], to descriptor: Int32, timeout seconds: Int = 1) -> Int {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return LoopbackSocket.send(bytes, to: descriptor)
    }

    /// When the server closed the connection (a reset or its end), without reading what it sent; `nil` when it did
    /// not within `seconds`.
    static func waitForClose(_ descriptor: Int32, within seconds: Double) -> Double? {
        let deadline = TestClock.now() + seconds
        while TestClock.now() < deadline {
            // Not POLLIN: unread answers are there from the start. POLLRDHUP (the peer's end; 0x2000 on Linux) is
            // not imported without _GNU_SOURCE; a reset is POLLERR and POLLHUP, which need no asking.
            var entry = pollfd(fd: descriptor, events: 0x2000, revents: 0)
            if poll(&entry, 1, 100) > 0 { return TestClock.now() }
        }
        return nil
    }
}
