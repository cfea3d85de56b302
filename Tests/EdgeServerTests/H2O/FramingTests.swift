import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// HTTP/1 framing that a proxy in front could read differently (RFC 9112), settled before any route: differing
/// `Content-Length`s, several `Transfer-Encoding`s and obs-fold are a `400 bad_request` on a connection closed after
/// it; `Transfer-Encoding` beside `Content-Length` is read as chunked, answered, and the connection closed; an
/// absolute-form target is routed by its path. Nothing written after a request whose framing is in doubt is read.
@Suite struct FramingTests {
    static let tap = "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: x\r\nUser-Agent: \(Agents.iPhone)\r\n\r\n"

    static func claim(_ user: String) -> String {
        #"{"public_id":"pk_acme","app_user_id":"\#(user)","code":"LEE"}"#
    }

    /// `text` as a chunked body: two chunks and the last one.
    static func chunked(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let split = bytes.count / 2
        return [bytes[..<split], bytes[split...]].map {
            String(format: "%x\r\n", $0.count) + String(decoding: $0, as: UTF8.self) + "\r\n"
        }
        .joined() + "0\r\n\r\n"
    }

    /// A refusal: h2o's 400 in the API's shape, the only answer, on a connection closed right after it.
    static func expectRefused(
        _ exchange: RawExchange, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let response = try exchange.only
        #expect(
            response.isError(400, "bad_request"), "\(label): \(response.status) \(response.text)",
            sourceLocation: sourceLocation)
        #expect(response.header("connection") == "close", "\(label)", sourceLocation: sourceLocation)
        #expect(
            exchange.closed && exchange.rest.isEmpty, "\(label): the connection stays open",
            sourceLocation: sourceLocation)
    }

    /// Issue 13's attack: the server took the first value, answered, kept the connection open and read the rest of the
    /// body as a second request.
    @Test func twoDifferentContentLengthsAreA400BadRequest() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        let body = "{\"a\":1}" + smuggled
        let request =
            "POST /webhooks/revenuecat/pk_acme HTTP/1.1\r\nHost: x\r\n"
            + "Authorization: \(TestServer.authorization)\r\n"
            + "Content-Length: 7\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let response = try server.client().exchange(Array(request.utf8))
        #expect(response.isError(400, "bad_request"), "\(response.status) \(response.text)")
        #expect(response.header("connection") == "close")
        try Self.expectRefused(try RawExchange.run([Array(request.utf8)], port: server.port), "first of two")
    }

    /// Whichever value a proxy in front believes, the link tap riding in the body is never answered or recorded.
    @Test func aLinkTapSmuggledPastDifferingContentLengthsRecordsNoClick() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let body = Self.claim("smuggler") + Self.tap
        let short = Self.claim("smuggler").utf8.count
        for (first, second) in [(short, body.utf8.count), (body.utf8.count, short), (body.utf8.count, 0)] {
            let request =
                "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(first)\r\nContent-Length: \(second)\r\n\r\n" + body
            try Self.expectRefused(try RawExchange.run([Array(request.utf8)], port: server.port), "\(first), \(second)")
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel])
        #expect(try server.client().customers().isEmpty)
    }

    /// RFC 9110 §8.6 lets a recipient take repeated identical values as one.
    @Test func repeatedEqualContentLengthsAreOne() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let body = Self.claim("twice")
        let request =
            "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\ncontent-length:  \(body.utf8.count) \r\n\r\n" + body
        let exchange = try RawExchange.run([Array(request.utf8)], port: server.port)
        let response = try exchange.only
        #expect(response.isClaim("claimed", user: "twice"), "\(response.status) \(response.text)")
        #expect(response.header("connection") == "keep-alive" && !exchange.closed)
    }

    /// RFC 9112 §6.3: Transfer-Encoding overrides Content-Length, and the connection closes after the answer, so what
    /// a proxy that framed by the length took for a second request is never read.
    @Test func chunkedBesideAContentLengthIsReadAsChunkedAnsweredAndClosed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let framing = [
            "Content-Length: 4\r\nTransfer-Encoding: chunked", "Transfer-Encoding: chunked\r\nContent-Length: 4",
        ]
        for (index, lines) in framing.enumerated() {
            let request =
                "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(lines)\r\n\r\n"
                + Self.chunked(Self.claim("both\(index)")) + Self.tap
            let exchange = try RawExchange.run([Array(request.utf8)], port: server.port)
            let response = try exchange.only
            #expect(response.isClaim("claimed", user: "both\(index)"), "\(lines): \(response.status) \(response.text)")
            #expect(response.header("connection") == "close", "\(lines)")
            #expect(exchange.closed && exchange.rest.isEmpty, "\(lines): the connection stays open")
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel])
    }

    /// Chunked applied twice, or after another coding, cannot be framed reliably (RFC 9112 §6.3): h2o would read the
    /// last header's coding alone.
    @Test func severalTransferEncodingsAreA400() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        for lines in [
            "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
            "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked",
        ] {
            let request =
                "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(lines)\r\n\r\n"
                + Self.chunked(Self.claim("twice")) + Self.tap
            try Self.expectRefused(try RawExchange.run([Array(request.utf8)], port: server.port), lines)
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel])
    }

    /// An HTTP/1.0 message with Transfer-Encoding has faulty framing (RFC 9112 §6.1): answered, then closed, even
    /// when it asked to be kept alive.
    @Test func chunkedOnHTTP10ClosesTheConnection() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let request =
            "POST /client/claims HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n" + Self.chunked(Self.claim("old")) + Self.tap
        let exchange = try RawExchange.run([Array(request.utf8)], port: server.port)
        let response = try exchange.only
        #expect(response.isClaim("claimed", user: "old"), "\(response.status) \(response.text)")
        #expect(response.header("connection") == "close" && exchange.closed)
    }

    /// RFC 9112 §5.2: a server must reject obs-fold (a field line starting with a space or tab) or replace it; h2o
    /// passed it on as a header with an empty name.
    @Test func obsFoldIsA400() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let body = Self.claim("folded")
        let requests = [
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: one\r\n two\r\n\r\n",
            "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: x\r\nUser-Agent: \(Agents.iPhone)\r\n\t(folded)\r\n\r\n",
            "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n 0\r\n\r\n" + body,
            "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type:\r\n application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body,
        ]
        for request in requests {
            try Self.expectRefused(try RawExchange.run([Array(request.utf8)], port: server.port), request)
        }
        // A fold right after the request line is a head h2o cannot parse: its own plain 400, and the connection closed.
        let first = try RawExchange.run([Array("GET /healthz HTTP/1.1\r\n Host: x\r\n\r\n".utf8)], port: server.port)
        #expect(try first.only.status == 400 && first.closed)
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel])
        #expect(try server.client().customers().isEmpty)
    }

    /// RFC 9112 §3.2.2: a server must accept the absolute form (`GET http://host/path`), which h2o kept whole as the
    /// path (a 404).
    @Test func anAbsoluteFormTargetIsRoutedByItsPath() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let health = try client.request("GET", "http://links.example/healthz")
        #expect(health.status == 200 && health.text == "ok\n", "\(health.status) \(health.text)")
        #expect(try client.request("GET", "HTTPS://links.example:8443/healthz").status == 200)

        let tap = try client.request(
            "GET", "http://links.example/a/pk_acme/SAM20?utm=x", headers: [("User-Agent", Agents.iPhone)])
        #expect(tap.status == 302, "\(tap.status) \(tap.text)")
        let id = try #require(LinkResponses.clickID(in: tap))
        #expect(try server.waitForClick(id))

        let claim = try client.request(
            "POST", "http://links.example/client/claims", headers: [("Content-Type", "application/json")],
            body: Array(Self.claim("absolute").utf8))
        #expect(claim.isClaim("claimed", user: "absolute"), "\(claim.status) \(claim.text)")
        // Anything else that is not origin-form stays unrouted.
        #expect(try client.request("GET", "ftp://links.example/healthz").isError(404, "not_found"))
    }

    /// The head is read where h2o keeps it until the response is sent: with requests pipelined behind it, each is
    /// framed and answered in turn on one kept-alive connection.
    @Test func pipelinedRequestsWithBodiesAreEachAnswered() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let first = Self.claim("p1")
        // The second request starts with an empty line, which HTTP/1 parsers skip (some clients end a body so).
        let pipelined =
            "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(first.utf8.count)\r\n\r\n\(first)"
            + "\r\nPOST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n" + Self.chunked(Self.claim("p2"))
            + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        let exchange = try RawExchange.run([Array(pipelined.utf8)], port: server.port, expecting: 3)
        #expect(exchange.responses.map(\.status) == [200, 200, 200], "\(exchange.responses.map(\.text))")
        #expect(exchange.responses.allSatisfy { $0.header("connection") == "keep-alive" } && !exchange.closed)
        #expect(try server.client().customers().count == 2)
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request without a `Host` line, or with more than one, must get a 400 (h2o 2.2
    /// answered the first for its default host and took the last of several). An empty `Host` is allowed, and
    /// HTTP/1.0 needs none.
    @Test func anHTTP11RequestWithoutOneHostLineIsA400() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        // Each tap its own User-Agent, so that no tap is taken for a repeat of another.
        func agent(_ n: Int) -> String { "User-Agent: \(Agents.iPhone) tap/\(n)\r\n" }
        for (n, (label, head)) in [
            ("no Host", "GET /a/pk_acme/SAM20 HTTP/1.1\r\n\(agent(1))\r\n"),
            ("two Hosts", "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: a\r\n\(agent(2))Host: b\r\n\r\n"),
            ("two equal Hosts", "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: a\r\nhost: a\r\n\(agent(3))\r\n"),
            ("absolute form, no Host", "GET http://x/a/pk_acme/SAM20 HTTP/1.1\r\n\(agent(4))\r\n"),
            ("HTTP/1.0, two Hosts", "GET /a/pk_acme/SAM20 HTTP/1.0\r\nHost: a\r\n\(agent(10))Host: b\r\n\r\n"),
        ].enumerated() {
            try Self.expectRefused(try RawExchange.run([Array(head.utf8)], port: server.port), "\(n): \(label)")
        }
        let claim = Self.claim("hostless")
        let post =
            "POST /client/claims HTTP/1.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(claim.utf8.count)\r\n\r\n\(claim)"
        try Self.expectRefused(try RawExchange.run([Array(post.utf8)], port: server.port), "claim without Host")

        var answered: [String] = []
        for (label, head) in [
            ("empty Host", "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost:\r\n\(agent(5))\r\n"),
            ("HTTP/1.0 without Host", "GET /a/pk_acme/SAM20 HTTP/1.0\r\n\(agent(6))\r\n"),
            ("Host in any case", "GET /a/pk_acme/SAM20 HTTP/1.1\r\nhOsT: x\r\n\(agent(7))\r\n"),
            // A request pipelined behind a good one is judged on its own head.
            (
                "pipelined",
                "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: x\r\n\(agent(8))\r\n"
                    + "GET /a/pk_acme/SAM20 HTTP/1.1\r\n\(agent(9))\r\n"
            ),
        ] {
            let exchange = try RawExchange.run([Array(head.utf8)], port: server.port)
            let expected = label == "pipelined" ? [302, 400] : [302]
            #expect(exchange.responses.map(\.status) == expected, "\(label): \(exchange.responses.map(\.text))")
            answered += exchange.responses.compactMap { LinkResponses.clickID(in: $0) }
        }
        #expect(answered.count == 4)
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(Set(clicks.map(\.id)) == Set(answered + [sentinel]) && clicks.count == 5, "\(clicks.map(\.userAgent))")
        #expect(try server.client().customers().isEmpty)
    }

    /// The refusal's message named the Host rule alone ("HTTP/1.1 needs exactly one Host line"), so a client with
    /// a bad chunk or two Content-Lengths, and one Host line, was pointed at the wrong cause. h2o does not hand the
    /// cause to its error page, so one message names them all.
    @Test func theRefusalNamesEachCauseNotOnlyTheHostRule() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let body = Self.claim("causes")
        let post = "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        for (label, request) in [
            ("two Content-Lengths", post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
            ("a bad chunk", post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" + body + "\r\n0\r\n\r\n"),
            ("a folded line", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: one\r\n two\r\n\r\n"),
            ("no Host", "GET /healthz HTTP/1.1\r\n\r\n"),
        ] {
            let exchange = try RawExchange.run([Array(request.utf8)], port: server.port)
            try Self.expectRefused(exchange, label)
            let message = try exchange.only.message
            for cause in ["Content-Length", "Transfer-Encoding", "folded", "chunk", "Host"] {
                #expect(message.contains(cause), "\(label): \(message)")
            }
        }
    }
}
