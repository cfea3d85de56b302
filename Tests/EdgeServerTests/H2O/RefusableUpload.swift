import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One request on a connection of its own, written as far as the server reads it, then its response.
///
/// The test client (`HTTPClient`) retries a request whose write fails and fails when it cannot write all of it; a
/// server that refuses a body stops reading it, answers and closes the connection, which can make the rest of the
/// write fail (`ECONNRESET`, `EPIPE`) while the answer is already waiting to be read. Here a failed write ends the
/// writing, and the answer is read all the same.
struct RefusableUpload {
    /// The response, as the server sent it.
    var response: HTTPResponse
    /// How many of the request's bytes the kernel accepted before the server closed the connection.
    var bytesWritten: Int
    /// Whether the server closed the connection after the response.
    var closed: Bool

    /// Writes `parts` one after the other, then reads one response; after a `Connection: close` response, also
    /// whether the server closed the connection.
    static func send(_ parts: [[UInt8]], port: Int) throws -> RefusableUpload {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        var written = 0
        writing: for part in parts {
            var offset = 0
            while offset < part.count {
                let count = part.withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { break writing }
                offset += count
                written += count
            }
        }

        var buffer: [UInt8] = []
        func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }
        var headEnd = buffer.firstRange(of: [13, 10, 13, 10])
        while headEnd == nil {
            guard fill() else { throw TestError("no response head; \(buffer.count) bytes: \(Self.text(buffer))") }
            headEnd = buffer.firstRange(of: [13, 10, 13, 10])
        }
        let rawHead = Array(buffer[..<headEnd!.lowerBound])
        buffer.removeSubrange(..<headEnd!.upperBound)
        var response = try HTTPResponse(head: rawHead)
        let isHead = parts.first.map { $0.starts(with: Array("HEAD ".utf8)) } ?? false
        let length = isHead ? 0 : response.header("content-length").flatMap(Int.init) ?? 0
        while buffer.count < length {
            guard fill() else { throw TestError("the body ended after \(buffer.count) of \(length) bytes") }
        }
        response.body = Array(buffer[..<length])
        buffer.removeSubrange(..<length)

        var closed = false
        if response.header("connection")?.lowercased() == "close" {
            // Nothing more, then the end of the stream, or a reset when the server closed with the rest of the body
            // unread; not a timeout.
            var byte: UInt8 = 0
            let count = recv(descriptor, &byte, 1, 0)
            closed = buffer.isEmpty && (count == 0 || (count < 0 && errno == ECONNRESET))
        }
        return RefusableUpload(response: response, bytesWritten: written, closed: closed)
    }

    private static func connect(port: Int) throws -> Int32 {
        // A server that neither reads nor answers fails the test instead of hanging it.
        try LoopbackSocket.connect(port: port, receiveTimeout: 10_000_000, sendTimeout: 10_000_000)
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes.prefix(300), as: UTF8.self) }
}
