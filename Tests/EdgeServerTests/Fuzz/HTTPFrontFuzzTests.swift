import Foundation
import Synchronization
import TestSupport
import Testing

@testable import EdgeServer

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP front against a million seeded random and mutated requests over real sockets: the server never crashes or
/// hangs, and every answer it gives is a well-formed HTTP/1.1 response.
@Suite struct HTTPFrontFuzzTests {
    /// Requests of every kind the server answers, with bodies and the headers that frame them.
    static let seeds: [[UInt8]] = [
        "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: x\r\nUser-Agent: Mozilla/5.0 (iPhone)\r\n\r\n",
        "HEAD /a/pk_acme/sam20?utm=1 HTTP/1.1\r\nHost: x\r\nUser-Agent: Slackbot-LinkExpanding 1.0\r\n\r\n",
        "GET /v1/clicks?limit=5 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_acme_secret\r\n\r\n",
        "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 57\r\n\r\n"
            + #"{"public_id":"pk_acme","app_user_id":"u1","code":"LEE"}  "#,
        "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
            + "\r\n5\r\n{\"a\":\r\n3\r\n1}\n\r\n0\r\n\r\n",
        "OPTIONS /client/claims HTTP/1.1\r\nHost: x\r\nOrigin: https://app\r\nAccess-Control-Request-Method: POST\r\n\r\n",
        "POST /webhooks/revenuecat/pk_acme HTTP/1.1\r\nHost: x\r\nAuthorization: x\r\nContent-Length: 2\r\n\r\n{}",
        "GET /healthz HTTP/1.0\r\n\r\n",
    ].map { Array($0.utf8) }
    static let alphabet = Array("GETPOST /a?=&%:\r\n0123456789abcdef{}\";,\t -".utf8) + [0x00, 0x7F, 0x80, 0xFF]

    @Test func seededRequestsGetWellFormedAnswersOrAClose() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cases = SeededGenerator.cases(1_000_000)
        let threads = 4
        let failures = Mutex<[String]>([])
        let answered = Atomic<Int>(0)
        let port = server.port
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            TestThread.start(name: "http-fuzz-\(thread)") {
                defer { done.leave() }
                var generator = SeededGenerator(seed: 0xF00D + UInt64(thread))
                for index in stride(from: thread, to: cases, by: threads) {
                    var request = Self.seeds[index % Self.seeds.count]
                    if index % 10 == 9 {
                        request = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                            UInt8.random(in: 0...255, using: &generator)
                        }
                    } else if index % 10 != 0 {
                        request = generator.mutate(request, alphabet: index % 3 == 0 ? [] : Self.alphabet)
                    }
                    switch Self.exchange(request, port: port) {
                    case .failure(let problem):
                        failures.withLock { $0.append("case \(index): \(problem): \(Self.shown(request))") }
                        return
                    case .success(let count): answered.add(count, ordering: .relaxed)
                    }
                }
            }
        }
        while done.wait(timeout: .now()) == .timedOut { try await Task.sleep(nanoseconds: 50_000_000) }
        let found = failures.withLock { $0 }
        #expect(found.isEmpty, "\(found.prefix(5))")
        #expect(answered.load(ordering: .relaxed) >= cases / 10, "the unmutated tenth at least is answered")
        // Still serving, and it never crashed.
        #expect(try server.client().request("GET", "/healthz").status == 200)
    }

    /// Sends `request` on a connection of its own, ends the write side, and reads to the end: the number of
    /// well-formed responses, or what was wrong.
    static func exchange(_ request: [UInt8], port: Int) -> Result<Int, FuzzFailure> {
        guard let fd = try? LoopbackSocket.connect(port: port, receiveTimeout: 5_000_000) else {
            return .failure(FuzzFailure("connect failed: the server is gone"))
        }
        defer { close(fd) }
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
                if received.count > 4 << 20 { return .failure(FuzzFailure("more than 4 MiB of answers")) }
            } else if count == 0 || errno == ECONNRESET {
                break
            } else {
                return .failure(FuzzFailure("no end within 5 s (errno \(errno)) after \(received.count) bytes"))
            }
        }
        return Self.responses(in: received)
    }

    /// The well-formed HTTP/1.x responses `bytes` holds, one after the other, or what is wrong with them.
    static func responses(in bytes: [UInt8]) -> Result<Int, FuzzFailure> {
        var rest = bytes[...]
        var count = 0
        while !rest.isEmpty {
            guard let end = rest.firstRange(of: [13, 10, 13, 10]) else {
                return .failure(FuzzFailure("a response head without its end: \(shown(Array(rest.prefix(80))))"))
            }
            let head = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            let status = lines[0].split(separator: " ")
            guard status.count >= 2, status[0] == "HTTP/1.1" || status[0] == "HTTP/1.0", let code = Int(status[1]),
                (100...599).contains(code)
            else { return .failure(FuzzFailure("a bad status line: \(lines[0])")) }
            var length: Int?
            var chunked = false
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                    return .failure(FuzzFailure("a bad header line: \(line)"))
                }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-length" { length = Int(value) }
                if name == "transfer-encoding" { chunked = value.lowercased() == "chunked" }
            }
            rest = rest[end.upperBound...]
            if chunked {
                // The server's own answers are whole; a chunked one would need decoding to skip.
                return .failure(FuzzFailure("a chunked answer"))
            }
            guard let length else {
                return .failure(FuzzFailure("an answer without Content-Length (status \(code))"))
            }
            // A HEAD's answer carries the GET's length and no body: the body is there when the next answer (or
            // the end) follows it, and absent when the next answer follows the head at once.
            let next = rest.dropFirst(length)
            if length <= rest.count && (next.isEmpty || next.starts(with: Array("HTTP/1.".utf8))) {
                rest = next
            } else if !(rest.isEmpty || rest.starts(with: Array("HTTP/1.".utf8))) {
                return .failure(FuzzFailure("a body that is not \(length) bytes (status \(code))"))
            }
            count += 1
        }
        return .success(count)
    }

    static func shown(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(120), as: UTF8.self).debugDescription
    }
}

/// What was wrong with an answer.
struct FuzzFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
