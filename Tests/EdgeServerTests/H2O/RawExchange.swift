import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes written to a fresh connection, then every response the server sends until it closes the connection or goes
/// quiet: for framing tests, which must see that nothing after a refused request is answered.
///
/// The parts are written one by one with `TCP_NODELAY` and a pause between them, so the server reads them apart
/// (a parser fed byte by byte, or in pieces that split every token somewhere).
struct RawExchange {
    /// The responses, in order (each framed by its `Content-Length`).
    var responses: [HTTPResponse]
    /// Whether the server closed the connection (end of stream or reset), rather than going quiet.
    var closed: Bool
    /// From the first write to the close, or to the start of the quiet period that ended the reading.
    var elapsed: Duration
    /// Bytes after the last whole response.
    var rest: [UInt8]

    /// Writes `parts` (pausing `pause` between them) and reads until the server closes the connection, or sends
    /// nothing for `quiet`, or 15 s pass. With `expecting`, a test that waits for answers rather than for the silence
    /// after a refusal: until that many whole responses have come, a pause of up to 10 s is waited out (a busy
    /// machine's slow answer is not taken for none), and only then `quiet` ends the reading.
    static func run(
        _ parts: [[UInt8]], port: Int, pause: Duration = .zero, quiet: Duration = .milliseconds(700),
        expecting: Int? = nil
    ) throws -> RawExchange {
        var awaited = expecting
        let descriptor = try connect(port: port, quiet: awaited == nil ? quiet : .seconds(10))
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let start = clock.now
        for (index, part) in parts.enumerated() {
            if index != 0 && pause > .zero { Thread.sleep(forTimeInterval: seconds(pause)) }
            // A write that fails: the server closed the connection after refusing what it read, and the answer is
            // there to read.
            _ = LoopbackSocket.send(part, to: descriptor)
        }

        var received: [UInt8] = []
        var closed = false
        var end = clock.now
        while clock.now - start < .seconds(15) {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            end = clock.now
            if count > 0 {
                received += chunk[..<count]
                if let wanted = awaited, try parse(received).0.count >= wanted {
                    awaited = nil
                    setReceiveTimeout(descriptor, quiet)
                }
            } else {
                closed = count == 0 || errno == ECONNRESET
                if !closed { end = end - quiet }
                break
            }
        }
        let (responses, rest) = try parse(received)
        return RawExchange(responses: responses, closed: closed, elapsed: end - start, rest: rest)
    }

    /// The one response, when there is exactly one; else an error naming what came.
    var only: HTTPResponse {
        get throws {
            guard responses.count == 1 else {
                throw TestError(
                    "\(responses.count) responses (\(responses.map(\.status))), then \(rest.count) bytes: "
                        + String(decoding: rest.prefix(200), as: UTF8.self))
            }
            return responses[0]
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func setReceiveTimeout(_ descriptor: Int32, _ quiet: Duration) {
        let microseconds = Int(seconds(quiet) * 1e6)
        var timeout = timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func connect(port: Int, quiet: Duration) throws -> Int32 {
        try LoopbackSocket.connect(
            port: port, receiveTimeout: Int(seconds(quiet) * 1e6), sendTimeout: 10_000_000, noDelay: true)
    }

    /// Whole responses framed by `Content-Length` (every answer of this server has one), and what follows them.
    static func parse(_ bytes: [UInt8]) throws -> ([HTTPResponse], [UInt8]) {
        var responses: [HTTPResponse] = []
        var rest = bytes[...]
        while let headEnd = rest.firstRange(of: [13, 10, 13, 10]) {
            let rawHead = Array(rest[..<headEnd.lowerBound])
            var response = try HTTPResponse(head: rawHead)
            let length = response.header("content-length").flatMap(Int.init) ?? 0
            let bodyStart = headEnd.upperBound
            guard rest.distance(from: bodyStart, to: rest.endIndex) >= length else { break }
            response.body = Array(rest[bodyStart..<rest.index(bodyStart, offsetBy: length)])
            responses.append(response)
            rest = rest[rest.index(bodyStart, offsetBy: length)...]
        }
        return (responses, Array(rest))
    }
}
