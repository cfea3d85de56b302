import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// A body above 1 MiB is refused by h2o before any handler runs: a `413` in the API's one JSON error shape on every
/// path, from the Content-Length alone or as soon as a chunked body grows past the limit, on a connection that is
/// then closed; the server goes on serving. A body within the limit still reaches its handler.
@Suite struct BodyLimitTests {
    static let limit = 1 << 20
    static let message = "The request body is larger than 1048576 bytes"

    static func head(_ method: String, _ path: String, _ headers: [String]) -> [UInt8] {
        Array((["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers + ["", ""]).joined(separator: "\r\n").utf8)
    }

    /// `count` bytes of a JSON-looking body (the content does not matter to the limit).
    static func body(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x61, count: count) }

    /// A chunked body of `count` bytes in chunks of at most 64 KiB, without the last chunk unless `complete`.
    static func chunked(_ count: Int, complete: Bool) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var left = count
        while left > 0 {
            let size = min(left, 65_536)
            parts.append(Array(String(size, radix: 16).utf8) + [13, 10] + body(size) + [13, 10])
            left -= size
        }
        if complete { parts.append(Array("0\r\n\r\n".utf8)) }
        return parts
    }

    /// A claim's own limit, which h2o applies to `/client/claims` as it applies ``limit`` to every path.
    static let claimMessage = "The request body is larger than 16384 bytes"

    /// h2o's refusal, in our shape: 413, JSON, the limit named (`message`), and the connection closed after it.
    static func expectRefused(_ upload: RefusableUpload, _ label: String, message: String = message) {
        let response = upload.response
        #expect(response.isError(413, "payload_too_large"), "\(label): \(response.status) \(response.text)")
        #expect(response.message == message, "\(label): \(response.message)")
        #expect(response.header("content-type") == "application/json", "\(label)")
        #expect(response.header("content-length") == String(response.body.count), "\(label)")
        #expect(response.header("cache-control") == "no-store", "\(label)")
        #expect(response.header("server") == "tolt-edge", "\(label)")
        // Answered before routing, so with the CORS header every claims answer carries (a browser can read it) and
        // the security headers every dashboard answer carries.
        #expect(response.header("access-control-allow-origin") == "*", "\(label)")
        #expect(response.header("x-frame-options") == "DENY", "\(label)")
        #expect(response.header("x-content-type-options") == "nosniff", "\(label)")
        #expect(response.header("content-security-policy")?.contains("frame-ancestors 'none'") == true, "\(label)")
        #expect(response.header("connection") == "close" && upload.closed, "\(label): the connection stays open")
        #expect(
            String(decoding: response.rawHead.prefix(30), as: UTF8.self).hasPrefix("HTTP/1.1 413 Payload Too Large"))
    }

    /// The server still answers, on a new connection.
    static func expectServing(_ server: TestServer, _ label: String) throws {
        let health = try server.client().request("GET", "/healthz")
        #expect(health.status == 200 && health.text == "ok\n", "\(label): \(health.status) \(health.text)")
        let clicks = try server.client().request(
            "GET", "/v1/clicks", headers: [("Authorization", "Bearer sk_acme_secret")])
        #expect(clicks.status == 200, "\(label): \(clicks.status) \(clicks.text)")
    }

    @Test(arguments: ["/client/claims", "/v1/clicks", "/a/pk_acme/SAM20", "/dashboard/sign-in", "/no/such/path"])
    func aTwoMebibyteBodyIs413InTheErrorShape(path: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let upload = try RefusableUpload.send(
            [
                Self.head("POST", path, ["Content-Type: application/json", "Content-Length: \(2 * Self.limit)"]),
                Self.body(2 * Self.limit),
            ], port: server.port)
        Self.expectRefused(upload, path, message: path == APIHandler.claimsPath ? Self.claimMessage : Self.message)
        try Self.expectServing(server, path)
        // Nothing reached the claims handler.
        #expect(try server.client().customers().isEmpty)
    }

    @Test func aChunkedBodyIsRefusedAsSoonAsItGrowsPastTheLimit() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        // The limit and one more chunk, never the last chunk: the answer cannot wait for the end of the body.
        let upload = try RefusableUpload.send(
            [Self.head("POST", Self.webhook, ["Content-Type: application/json", "Transfer-Encoding: chunked"])]
                + Self.chunked(Self.limit + 65_536, complete: false), port: server.port)
        Self.expectRefused(upload, "chunked")
        try Self.expectServing(server, "chunked")
    }

    @Test func aContentLengthAboveTheLimitIsRefusedBeforeTheBodyIsSent() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let announced = ["Content-Type: application/json", "Content-Length: \(Self.limit + 1)"]
        Self.expectRefused(
            try RefusableUpload.send([Self.head("POST", "/v1/clicks", announced)], port: server.port), "POST")
        // Asked to confirm first, h2o refuses instead of inviting the body.
        let expecting = try RefusableUpload.send(
            [Self.head("POST", Self.webhook, announced + ["Expect: 100-continue"])], port: server.port)
        Self.expectRefused(expecting, "Expect: 100-continue")
        // HEAD gets the same head and no body.
        let head = try RefusableUpload.send([Self.head("HEAD", "/a/pk_acme/SAM20", announced)], port: server.port)
        #expect(head.response.status == 413 && head.response.header("content-type") == "application/json")
        #expect(head.response.header("content-length") == String(H2OEngine.bodyTooLarge.body.count))
        #expect(head.closed)
        try Self.expectServing(server, "announced")
    }

    /// At the limit (Content-Length) or just under it (chunked: h2o refuses a chunked body that reaches the limit),
    /// the body reaches the webhook's handler, which answers (here the missing authorization's 401) on a connection
    /// kept alive.
    @Test func aBodyWithinTheLimitReachesTheHandler() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let json = "Content-Type: application/json"
        let uploads = [
            (
                "Content-Length",
                [Self.head("POST", Self.webhook, [json, "Content-Length: \(Self.limit)"]), Self.body(Self.limit)]
            ),
            (
                "chunked",
                [Self.head("POST", Self.webhook, [json, "Transfer-Encoding: chunked"])]
                    + Self.chunked(Self.limit - 1, complete: true)
            ),
        ]
        for (label, parts) in uploads {
            let upload = try RefusableUpload.send(parts, port: server.port)
            let response = upload.response
            #expect(upload.bytesWritten == parts.reduce(0) { $0 + $1.count }, "\(label)")
            #expect(response.status == 401, "\(label): \(response.status) \(response.text)")
            #expect(response.header("connection") == "keep-alive", "\(label)")
        }
        try Self.expectServing(server, "within")
    }

    static let webhook = "/webhooks/revenuecat/pk_acme"

    /// Before: a claim whose Content-Length said more than its 16 KiB limit (but not more than 1 MiB) was waited for
    /// until h2o's request timeout (10 s) when the client sent less, then the connection closed without an answer;
    /// and one that sent it all was read whole before its handler refused it. Now h2o refuses it from the head, as it
    /// refuses a body above 1 MiB on any path: at once, before any of the body, with the claim's limit named.
    @Test func aClaimAnnouncedAboveItsLimitIsRefusedFromItsHead() throws {
        // The build's own parser is the one h2o calls (else the server logs that it is not, and this test fails below).
        #expect(H2OEngine.refusesSmallerLimitsFromTheHead)
        let server = try TestServer()
        defer { server.shutdown() }
        let json = "Content-Type: application/json"
        for (label, path, headers) in [
            ("just over", APIHandler.claimsPath, [json, "Content-Length: \(ClaimRequest.maximumBodySize + 1)"]),
            ("with a query", APIHandler.claimsPath + "?via=app", [json, "Content-Length: 100000"]),
            // framing.c routes an absolute-form target by its path, so it is the claim's limit too.
            ("in absolute form", "http://localhost" + APIHandler.claimsPath, [json, "Content-Length: 100000"]),
            ("asking to continue", APIHandler.claimsPath, [json, "Content-Length: 20000", "Expect: 100-continue"]),
            ("twice the same", APIHandler.claimsPath, [json, "Content-Length: 20000", "content-length: 20000"]),
        ] {
            // The head alone: the answer cannot wait for the body.
            let upload = try RefusableUpload.send([Self.head("POST", path, headers)], port: server.port)
            Self.expectRefused(upload, label, message: Self.claimMessage)
        }
        // Every byte sent: refused the same way, without the handler reading it.
        let whole = try RefusableUpload.send(
            [Self.head("POST", APIHandler.claimsPath, [json, "Content-Length: 20000"]), Self.body(20_000)],
            port: server.port)
        Self.expectRefused(whole, "sent whole", message: Self.claimMessage)
        try Self.expectServing(server, "claims")
        #expect(try server.client().customers().isEmpty)
    }

    /// A claim h2o refuses from its head reaches no route, and was counted nowhere: the metrics add it to the claims'
    /// `413` and `payload_too_large`, as when the route refused it.
    @Test func aClaimRefusedFromItsHeadIsCounted() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let before = try MetricsTests.scrape(server.client())
        let head = Self.head(
            "POST", APIHandler.claimsPath, ["Content-Type: application/json", "Content-Length: 20000"])
        for _ in 0..<3 {
            Self.expectRefused(
                try RefusableUpload.send([head], port: server.port), "counted", message: Self.claimMessage)
        }
        let after = try MetricsTests.scrape(server.client())
        func delta(_ name: String, _ labels: [String: String]) -> Double {
            after.value(name, labels) - before.value(name, labels)
        }
        #expect(delta(MetricsTests.requests, ["route": "claims", "code": "413"]) == 3)
        #expect(delta("tolt_edge_claims_total", ["outcome": "payload_too_large"]) == 3)
    }

    /// Before: a chunked claim was read up to 1 MiB (or waited for, without its last chunk) before its handler
    /// refused it. Now h2o refuses it as soon as what is decoded of it passes 16 KiB.
    @Test func aChunkedClaimIsRefusedAsSoonAsItGrowsPastItsLimit() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let head = Self.head(
            "POST", APIHandler.claimsPath, ["Content-Type: application/json", "Transfer-Encoding: chunked"])
        // 16 KiB and one byte, in small chunks, never the last chunk.
        let chunks = (0..<17).map { index in
            let size = index == 16 ? 1 : 1024
            return Array(String(size, radix: 16).utf8) + [13, 10] + Self.body(size) + [13, 10]
        }
        Self.expectRefused(
            try RefusableUpload.send([head] + chunks, port: server.port), "chunked", message: Self.claimMessage)
        // A chunk that announces more than the limit is refused from its size line, before its data: a client that
        // announced 20,000 bytes and sent none was waited for until h2o's 10 s timeout and closed unanswered.
        for announced in [["4e20\r\n"], ["400\r\n", String(repeating: "a", count: 1024), "\r\n3c01\r\n"], ["4e20"]] {
            let upload = try RefusableUpload.send([head] + announced.map { Array($0.utf8) }, port: server.port)
            Self.expectRefused(upload, "announced \(announced.last ?? "")", message: Self.claimMessage)
        }
        // At the limit, the body reaches the handler (which reads no JSON in it), on a connection kept alive.
        let within = try RefusableUpload.send(
            [head] + Array(chunks.prefix(16)) + [Array("0\r\n\r\n".utf8)], port: server.port)
        #expect(within.response.isError(400, "invalid_request"), "\(within.response.status) \(within.response.text)")
        #expect(within.response.header("connection") == "keep-alive")
        try Self.expectServing(server, "chunked claims")
    }
}

/// The other errors h2o answers before any handler, in the same shape.
@Suite struct MalformedFramingTests {
    @Test func aBrokenContentLengthOrTransferEncodingIsAJSON400AndAnUnknownExpectA417() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let requests: [(head: String, status: Int, code: String)] = [
            ("POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Length: 12x\r\n\r\n", 400, "bad_request"),
            ("POST /client/claims HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "bad_request"),
            ("POST /client/claims HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "bad_request"),
            (
                "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: teapot\r\n\r\n", 417,
                "expectation_failed"
            ),
        ]
        for (head, status, code) in requests {
            let response = try server.client().exchange(Array(head.utf8))
            #expect(response.isError(status, code), "\(head): \(response.status) \(response.text)")
            // The status line's reason phrase is the status's own, not "Internal Server Error".
            let reason = status == 400 ? "Bad Request" : "Expectation Failed"
            #expect(
                String(decoding: response.rawHead.prefix(40), as: UTF8.self).hasPrefix("HTTP/1.1 \(status) \(reason)"),
                "\(head)")
            #expect(response.header("access-control-allow-origin") == "*", "\(head)")
        }
        #expect(try server.client().request("GET", "/healthz").status == 200)
    }
}
