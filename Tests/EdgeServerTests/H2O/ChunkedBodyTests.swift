import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Chunked request bodies, read by the strict decoder (`chunked.c`) that replaces picohttpparser's: a bad chunk size
/// or chunk line is a `400 bad_request` at once, on a connection then closed, where h2o used to wait 10 s for data that
/// never came or read `5zz` as a chunk of 5; valid bodies, with extensions, trailers and any split, still arrive whole.
@Suite struct ChunkedBodyTests {
    static let head = Array(
        "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            .utf8)

    @Test func theStrictDecoderIsTheOneH2OCalls() {
        #expect(H2OEngine.usesStrictChunkedDecoder)
    }

    /// Each body is followed by nothing: the answer must come from what was sent, not from a timeout.
    @Test(arguments: [
        ("a size of 2^64 - 1 (issue 13)", "ffffffffffffffff\r\n"),
        ("17 hex digits", "0ffffffffffffffff\r\n5\r\nhello\r\n0\r\n\r\n"),
        ("a size above the 1 MiB body limit", "100001\r\n"),
        ("a size above the limit, its line unfinished", "FFFFFFF"),
        ("letters after the digits", "5zz\r\nhello\r\n0\r\n\r\n"),
        ("a hex prefix", "0x5\r\nhello\r\n0\r\n\r\n"),
        ("a sign", "+5\r\nhello\r\n0\r\n\r\n"),
        ("no digits", "\r\nhello\r\n0\r\n\r\n"),
        ("a bare LF after the size", "5\nhello\r\n0\r\n\r\n"),
        ("a CR alone after the size", "5\rhello\r\n0\r\n\r\n"),
        ("a bare LF after the data", "5\r\nhello\n0\r\n\r\n"),
        ("no line end after the data", "5\r\nhelloX\r\n0\r\n\r\n"),
        ("more data than the size", "3\r\nhello\r\n0\r\n\r\n"),
        ("two CRs after the data", "5\r\nhello\r\r\n0\r\n\r\n"),
        ("an extension without a semicolon", "5 ext\r\nhello\r\n0\r\n\r\n"),
        ("a control byte in an extension", "5;a=\u{1}\r\nhello\r\n0\r\n\r\n"),
        ("an extension of 255 bytes", "5;" + String(repeating: "e", count: 255) + "\r\nhello\r\n0\r\n\r\n"),
        ("a folded trailer", "0\r\nX-A: 1\r\n 2\r\n\r\n"),
        ("a bare LF in a trailer", "0\r\nX-A: 1\nX-B: 2\r\n\r\n"),
        ("4 KiB of trailers and more", "0\r\n" + String(repeating: "X-Pad: 0123456789abcdef\r\n", count: 200) + "\r\n"),
        ("a bare LF ending the body", "0\r\n\n"),
    ])
    func aBadChunkIsA400AtOnce(label: String, body: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let exchange = try RawExchange.run([Self.head + Array(body.utf8)], port: server.port)
        let response = try exchange.only
        #expect(response.isError(400, "bad_request"), "\(label): \(response.status) \(response.text)")
        #expect(response.header("connection") == "close" && exchange.closed, "\(label): the connection stays open")
        #expect(exchange.elapsed < .seconds(2), "\(label): answered after \(exchange.elapsed)")
        #expect(try server.client().customers().isEmpty)
    }

    /// A claim in chunks with everything RFC 9112 allows: upper-case hex and leading zeros, whitespace and extensions
    /// after the size, trailer fields.
    static func rich(_ user: String) -> [UInt8] {
        let claim = Array(#"{"public_id":"pk_acme","app_user_id":"\#(user)","code":"LEE"}"#.utf8)
        let first = Array(claim[..<26]), second = Array(claim[26...])
        var body = Array(String(format: "%04X", first.count).utf8) + Array(" ;ext=1;quoted=\"a b\"\r\n".utf8) + first
        body += Array("\r\n".utf8) + Array(String(format: "%x", second.count).utf8) + Array("\t\r\n".utf8) + second
        body += Array("\r\n000;last\r\nX-Checksum: abc\r\nX-Other:\tdef \r\n\r\n".utf8)
        return Self.head + body
    }

    /// One byte a write, the server reading between them: every state of the decoder resumes mid-token.
    @Test func aChunkedClaimFedByteByByteIsReadWhole() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let request = Self.rich("trickled")
        let exchange = try RawExchange.run(request.map { [$0] }, port: server.port, pause: .microseconds(300))
        let response = try exchange.only
        #expect(response.isClaim("claimed", user: "trickled"), "\(response.status) \(response.text)")
        #expect(response.header("connection") == "keep-alive" && !exchange.closed)
    }

    /// The same body split at random places (seeded), ten times.
    @Test func aChunkedClaimInRandomPiecesIsReadWhole() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var random = SplitMix64(seed: 13)
        for round in 0..<10 {
            let request = Self.rich("piece\(round)")
            var parts: [[UInt8]] = []
            var start = 0
            while start < request.count {
                let end = min(request.count, start + 1 + Int(random.next() % 24))
                parts.append(Array(request[start..<end]))
                start = end
            }
            let exchange = try RawExchange.run(parts, port: server.port, pause: .microseconds(200), expecting: 1)
            let response = try exchange.only
            #expect(
                response.isClaim("claimed", user: "piece\(round)"),
                "round \(round): \(response.status) \(response.text)")
        }
    }

    /// The largest chunk the limit allows is taken (and refused with the claim's own limit once it passes that), and
    /// a bad chunk that arrives after good ones is still refused at once.
    @Test func aChunkUpToTheLimitIsReadAndABadOneLaterIsRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let size = (1 << 20) - 1
        let whole = try RefusableUpload.send(
            [
                Self.head + Array(String(size, radix: 16).utf8) + [13, 10], [UInt8](repeating: 0x61, count: size),
                Array("\r\n0\r\n\r\n".utf8),
            ], port: server.port)
        #expect(whole.response.isError(413, "payload_too_large"), "\(whole.response.status) \(whole.response.text)")
        #expect(whole.response.message.contains("\(ClaimRequest.maximumBodySize)"), "\(whole.response.message)")

        let late = try RawExchange.run(
            [
                Self.head + Array("10\r\n0123456789abcdef\r\n".utf8), Array("8\r\n01234567\r\n".utf8),
                Array("ffffffffffff\r\n".utf8),
            ],
            port: server.port, pause: .milliseconds(50))
        #expect(try late.only.isError(400, "bad_request"))
        #expect(late.closed && late.elapsed < .seconds(2), "answered after \(late.elapsed)")
    }
}
