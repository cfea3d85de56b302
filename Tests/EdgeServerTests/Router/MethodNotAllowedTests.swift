import Foundation
import TestSupport
import Testing

@testable import EdgeServer

/// A `405` names the methods a path allows in exactly one `Allow` header (RFC 9110 §15.5.6), whatever the route, the
/// method, the protocol version or the connection it came on.
@Suite struct MethodNotAllowedTests {
    /// Every route of the table, with the methods it answers (and `OPTIONS` where it answers preflights).
    static let routes: [(path: String, allow: String)] = [
        ("/a/pk_acme/SAM20", "GET, HEAD"), ("/healthz", "GET, HEAD"), ("/client/claims", "POST, OPTIONS"),
        ("/v1/clicks", "GET, HEAD"), ("/v1/customers", "GET, HEAD"), ("/v1/commissions", "GET, HEAD"),
        ("/v1/webhook_events", "GET, HEAD"), ("/webhooks/revenuecat/pk_acme", "POST"),
        // The partner routes: the list and its post, then one prefix route whose paths each have their own `Allow`.
        ("/v1/partners", "GET, HEAD, POST"), ("/v1/partners/part_sam", "GET, HEAD"),
        ("/v1/partners/part_sam/codes", "POST"), ("/v1/partners/part_sam/reactivate", "POST"),
        ("/v1/partners/part_sam/codes/SAM20/deactivate", "POST"),
    ]

    static func allowLines(_ response: TestSupport.HTTPResponse) -> [String] {
        response.headers.filter { $0.name == "allow" }.map(\.value)
    }

    @Test func everyRefusedMethodGetsOneAllowHeader() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        for (path, allow) in Self.routes {
            let allowed = allow.components(separatedBy: ", ")
            for method in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "BREW"]
            where !allowed.contains(method) {
                let response = try client.request(method, path)
                #expect(response.status == 405, "\(method) \(path): \(response.status)")
                #expect(Self.allowLines(response) == [allow], "\(method) \(path): \(Self.allowLines(response))")
                if method != "HEAD" {
                    #expect(response.isError(405, "method_not_allowed"), "\(method) \(path): \(response.text)")
                }
            }
        }
    }

    /// HTTP/1.0, a connection asked to close, and 405s pipelined behind other answers.
    @Test func oneAllowHeaderOnEveryKindOfConnection() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        for (path, allow) in Self.routes {
            for request in [
                "DELETE \(path) HTTP/1.0\r\n\r\n", "DELETE \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "PUT \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
            ] {
                let exchange = try RawExchange.run([Array(request.utf8)], port: server.port)
                let response = try exchange.only
                #expect(Self.allowLines(response) == [allow], "\(request): \(Self.allowLines(response))")
            }
        }
        let pipelined = Self.routes.map {
            "PATCH \($0.path) HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        }
        let exchange = try RawExchange.run(
            [Array(pipelined.joined().utf8)], port: server.port, expecting: 2 * Self.routes.count)
        #expect(exchange.responses.count == 2 * Self.routes.count)
        for (index, route) in Self.routes.enumerated() where 2 * index < exchange.responses.count {
            #expect(Self.allowLines(exchange.responses[2 * index]) == [route.allow], "\(route.path)")
            #expect(Self.allowLines(exchange.responses[2 * index + 1]).isEmpty)
        }
    }
}
