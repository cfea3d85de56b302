import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking HTTP/1.1 client over a real socket, so tests see exactly what the server sends:
/// no redirects followed, no header normalization.
package final class HTTPClient {
    package let port: Int
    private var descriptor: Int32 = -1

    package init(port: Int) { self.port = port }

    deinit { disconnect() }

    package func disconnect() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Sends one request on a kept-alive connection (reconnecting when needed) and reads the response.
    package func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> HTTPResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try exchange(Array(head.utf8) + body, isHead: method == "HEAD")
    }

    /// Sends raw bytes (for malformed requests) and reads one response.
    package func exchange(_ bytes: [UInt8], isHead: Bool = false) throws -> HTTPResponse {
        if descriptor < 0 { try connect() }
        do {
            try send(bytes)
            return try readResponse(isHead: isHead)
        } catch {
            // A kept-alive connection the server closed: retry once on a fresh one.
            disconnect()
            try connect()
            try send(bytes)
            return try readResponse(isHead: isHead)
        }
    }

    /// Sends several requests in one write (HTTP/1.1 pipelining) and reads `count` responses in order.
    package func pipeline(_ bytes: [UInt8], count: Int) throws -> [HTTPResponse] {
        disconnect()
        try connect()
        try send(bytes)
        buffer = []
        return try (0..<count).map { _ in try readResponse(isHead: false, keepingBuffer: true) }
    }

    private func connect() throws {
        descriptor = try LoopbackSocket.connect(port: port)
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw TestError("send failed") }
            sent += count
        }
    }

    private var buffer: [UInt8] = []

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw TestError("connection closed") }
        buffer.append(contentsOf: chunk[0..<count])
    }

    /// Reads one response. Unless `keepingBuffer`, bytes left from an earlier response are dropped first.
    private func readResponse(isHead: Bool, keepingBuffer: Bool = false) throws -> HTTPResponse {
        if !keepingBuffer { buffer = [] }
        var headEnd = Self.find([13, 10, 13, 10], in: buffer)
        while headEnd == nil {
            try fill()
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
        }
        let rawHead = Array(buffer[..<headEnd!])
        buffer.removeFirst(headEnd! + 4)
        var response = try HTTPResponse(head: rawHead)
        if isHead || [204, 304].contains(response.status) { return response }
        if let length = response.header("content-length").flatMap(Int.init) {
            while buffer.count < length { try fill() }
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else if response.header("transfer-encoding")?.lowercased() == "chunked" {
            response.body = try readChunked()
        } else {
            while (try? fill()) != nil {}
            response.body = buffer
            disconnect()
        }
        if response.header("connection")?.lowercased() == "close" { disconnect() }
        return response
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            var lineEnd = Self.find([13, 10], in: buffer)
            while lineEnd == nil {
                try fill()
                lineEnd = Self.find([13, 10], in: buffer)
            }
            let sizeText = String(decoding: buffer[..<lineEnd!], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else { throw TestError("bad chunk size") }
            buffer.removeFirst(lineEnd! + 2)
            while buffer.count < size + 2 { try fill() }
            body += buffer[..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }

    /// The first index at which `needle` starts in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<index + needle.count]) == needle { return index }
        }
        return nil
    }
}
