import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP listener on 127.0.0.1 that answers each request by a script, then passes requests on to a real
/// edge: the flaky front a claim meets (a reset connection, a `503`, a `429` with `Retry-After`) before the
/// edge answers. It counts and keeps what it received, so a test can say how many attempts the SDK made.
///
/// One connection at a time, one request per connection (every answer says `Connection: close`).
package final class ScriptedProxy: Sendable {
    /// What to do with one request.
    package enum Step: Sendable {
        /// Answer with this status, headers and body.
        case answer(status: Int, headers: [String: String] = [:], body: String)
        /// Close the connection with a reset, without reading or answering.
        case reset
        /// Pass the request to the upstream edge and its answer back.
        case forward
        /// Pass the request to the upstream edge, but answer with this status and body instead of its answer: an
        /// answer lost on the way back, after the edge acted.
        case forwardAndAnswer(status: Int, body: String)
    }

    /// A request as received.
    package struct Request: Sendable {
        package var method: String
        package var path: String
        /// Header names lower-cased.
        package var headers: [String: String]
        package var body: [UInt8]
    }

    private struct State {
        var script: [Step]
        var requests: [Request] = []
        var connections = 0
    }

    private let listener: Int32
    private let upstreamPort: Int?
    private let afterScript: Step
    private let state: Mutex<State>
    private let finished = DispatchSemaphore(value: 0)
    /// The port it listens on.
    package let port: Int

    /// `http://127.0.0.1:<port>`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts listening: each connection takes the next step of `script`, then `afterScript` (`.forward` to
    /// `upstreamPort`).
    package init(script: [Step], then afterScript: Step = .forward, upstreamPort: Int? = nil) throws {
        self.upstreamPort = upstreamPort
        self.afterScript = afterScript
        state = Mutex(State(script: script))
        (listener, port) = try Ports.bindLoopback(listening: 16)
        TestThread.start(name: "scripted-proxy") { [self] in
            acceptLoop()
            finished.signal()
        }
    }

    /// Stops listening and waits for the connection being served, if any.
    package func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 10)
        close(listener)
    }

    /// The requests received, in order (a reset connection's is not read, so not here).
    package var requests: [Request] { state.withLock { $0.requests } }
    /// The connections accepted, reset ones included.
    package var connections: Int { state.withLock { $0.connections } }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let step = state.withLock { state -> Step in
                state.connections += 1
                return state.script.isEmpty ? afterScript : state.script.removeFirst()
            }
            serve(connection, step)
        }
    }

    private func serve(_ connection: Int32, _ step: Step) {
        if case .reset = step {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(connection)
            return
        }
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        state.withLock { $0.requests.append(request) }
        switch step {
        case .answer(let status, let headers, let body):
            write(connection, status: status, headers: headers.map { ($0.key, $0.value) }, body: Array(body.utf8))
        case .forward:
            guard let response = forward(request) else {
                write(connection, status: 502, headers: [], body: Array("no upstream answer".utf8))
                return
            }
            let passed = response.headers.filter {
                !["connection", "content-length", "transfer-encoding", "keep-alive"].contains($0.name)
            }
            write(connection, status: response.status, headers: passed.map { ($0.name, $0.value) }, body: response.body)
        case .forwardAndAnswer(let status, let body):
            _ = forward(request)
            write(connection, status: status, headers: [], body: Array(body.utf8))
        case .reset:
            break
        }
    }

    private func forward(_ request: Request) -> HTTPResponse? {
        guard let upstreamPort else { return nil }
        let headers = request.headers.filter { !["host", "content-length", "connection", "expect"].contains($0.key) }
        return try? HTTPClient(port: upstreamPort).request(
            request.method, request.path, headers: headers.map { ($0.key, $0.value) }, body: request.body)
    }

    /// Reads one request: the head, then a `Content-Length` body (after a `100 Continue` when asked for one).
    private func readRequest(_ connection: Int32) -> Request? {
        var buffer: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            guard receive(connection, into: &buffer) else { return nil }
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
        }
        let lines = String(decoding: buffer[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(buffer[(headEnd! + 4)...])
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        if body.count < length, headers["expect"]?.lowercased() == "100-continue" {
            send(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < length {
            guard receive(connection, into: &body) else { return nil }
        }
        return Request(
            method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
            body: Array(body.prefix(length)))
    }

    private func write(_ connection: Int32, status: Int, headers: [(String, String)], body: [UInt8]) {
        var head = "HTTP/1.1 \(status) Scripted\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        send(connection, Array(head.utf8) + body)
    }

    private func receive(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) {
        _ = LoopbackSocket.send(bytes, to: connection)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
