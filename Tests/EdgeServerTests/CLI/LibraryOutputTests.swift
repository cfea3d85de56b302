import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the C libraries write to standard error reaches the log at a bounded rate: libh2o 2.2 writes a line for every
/// HTTP/2 frame of an unknown type, so a client's nine bytes used to buy a log line (an attacker's flood grew the log
/// by 35-48 MB/s). A child process, since `serve` replaces the whole process's C `stderr` stream.
@Suite struct LibraryOutputTests {
    static let frames = 20_000

    @Test func aFloodOfUnknownHTTP2FramesWritesAFewLinesAndTheLinksKeepAnswering() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "library-output",
            arguments: ["--demo", "--h2c"])
        defer { server.kill(within: 10) }
        let started = Date()
        // The preface, 20,000 empty frames of type 0x42 on stream 1 (180 KB), then a GET on stream 1: its answer
        // means h2o has read, and skipped, every frame before it.
        let unknown: [UInt8] = [0, 0, 0, 0x42, 0, 0, 0, 0, 1]
        var bytes = HTTP2Frames.preface + HTTP2Frames.settingsAck
        for _ in 0..<Self.frames { bytes += unknown }
        bytes += HTTP2Frames.get(stream: 1, path: "/healthz", scheme: "http", userAgent: "flood")
        let descriptor = try LoopbackSocket.connect(port: server.port)
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestError("send failed: errno \(errno)") }
            offset += sent
        }
        var received: [UInt8] = []
        var answered = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !answered {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw TestError("the connection ended before /healthz was answered") }
            received += buffer[..<count]
            var at = 0
            while let frame = HTTP2Frames.next(in: received, from: at) {
                if frame.type == HTTP2Frames.FrameType.headers.rawValue && frame.stream == 1 { answered = true }
                at += 9 + frame.size
            }
        }
        // Links are answered (the demo program's page for an iPhone).
        let tap = try server.client().request("GET", "/a/pk_demo/SAM20", headers: [("User-Agent", Agents.iPhone)])
        #expect(tap.status == 200, "\(tap.status)")
        // The stream says what it dropped within a second or two (a loop asks it after each iteration).
        let deadline = Date().addingTimeInterval(10)
        while !server.child.stderr.contains("library output: dropped"), Date() < deadline { usleep(50_000) }
        let log = server.child.stderr
        let elapsed = Date().timeIntervalSince(started)
        let skipping = log.split(separator: "\n").filter { $0.contains("skipping frame") }
        #expect(log.contains("tolt-edge: library output: dropped"), "\(log.suffix(2000))")
        #expect(skipping.allSatisfy { $0.hasPrefix("tolt-edge: library: skipping frame") }, "\(skipping.prefix(3))")
        // At most ten a second, against 20,000 before.
        #expect(skipping.count <= 10 * (Int(elapsed) + 2), "\(skipping.count) lines in \(elapsed) s")
        #expect(!skipping.isEmpty, "h2o's lines still reach the log, at a bounded rate")
    }
}
