import Foundation
import TestSupport
import Testing

@testable import EdgeServer

/// Hostile bodies and browsers: a clear JSON 4xx for every malformed or oversized body with the stored
/// data unchanged, and CORS on every claims answer.
@Suite struct ClaimBodyTests {
    static let prefix = Array(#"{"public_id":"pk_acme","app_user_id":"u2","code":"LEE","x":""#.utf8)
    static let suffix = Array(#""}"#.utf8)

    @Test func aBodyAbove16KiBIs413AndOneOf16KiBIsServed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let filler = 16 * 1024 - Self.prefix.count - Self.suffix.count
        let largest = Self.prefix + [UInt8](repeating: 0x61, count: filler) + Self.suffix
        #expect(largest.count == 16_384)
        #expect(try client.claim(bytes: largest).isClaim("claimed", user: "u2"))

        let oversized = Self.prefix + [UInt8](repeating: 0x61, count: filler + 1) + Self.suffix
        let response = try client.claim(bytes: oversized)
        #expect(response.isError(413, "payload_too_large"), "\(response.status) \(response.text)")
        #expect(response.message.contains("16384"))
        #expect(response.header("access-control-allow-origin") == "*")
        #expect(try client.customers().count == 1)
    }

    @Test func aBodyAboveOneMebibyteIsRefusedFromItsHeader() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        // Announced, not sent: the server must answer from the header alone.
        let head =
            "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(2 << 20)\r\n\r\n"
        let response = try server.client().exchange(Array(head.utf8) + Self.prefix)
        #expect(response.status == 413, "\(response.status) \(response.text.prefix(200))")
        #expect(try server.client().request("GET", "/healthz").status == 200)
        #expect(try server.client().customers().isEmpty)
    }

    @Test func malformedBodiesAreClearErrorsAndChangeNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.claim(ClaimBody.make(user: "u1", code: "LEE")).isClaim("claimed", user: "u1"))
        let before = try client.customerText()

        let valid = Array(ClaimBody.make(user: "u2", code: "LEE").utf8)
        let deep = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        let bodies: [(String, [UInt8])] = [
            ("truncated", Array(valid.dropLast(3))),
            ("truncated in a string", Array(valid.prefix(30))),
            ("1000 levels of arrays", Array(deep.utf8)),
            (
                "1000 levels inside a member",
                Array(#"{"public_id":"pk_acme","app_user_id":"u2","code":"LEE","x":"#.utf8)
                    + Array(String(repeating: #"{"a":"#, count: 1_000).utf8) + [0x31]
                    + Array(String(repeating: "}", count: 1_001).utf8)
            ),
            (
                "invalid UTF-8 in app_user_id",
                Array(#"{"public_id":"pk_acme","app_user_id":"u"#.utf8) + [0xC3, 0x28]
                    + Array(#"","code":"LEE"}"#.utf8)
            ),
            (
                "a lone continuation byte",
                Array(#"{"public_id":"pk_acme","app_user_id":""#.utf8) + [0x80]
                    + Array(#"","code":"LEE"}"#.utf8)
            ),
            (
                "raw NUL inside a string",
                Array(#"{"public_id":"pk_acme","app_user_id":"u"#.utf8) + [0]
                    + Array(#"2","code":"LEE"}"#.utf8)
            ),
            ("NUL bytes after the document", valid + [0, 0]),
            ("only NUL bytes", [UInt8](repeating: 0, count: 64)),
            ("two documents", valid + valid),
            ("an unpaired surrogate", Array(#"{"public_id":"pk_acme","app_user_id":"\ud800","code":"LEE"}"#.utf8)),
        ]
        for (label, body) in bodies {
            let response = try client.claim(bytes: body)
            #expect(response.isError(400, "invalid_request"), "\(label): \(response.status) \(response.text)")
            #expect(response.header("access-control-allow-origin") == "*", "\(label)")
        }
        #expect(try client.customerText() == before)
        // The server is still whole: the next valid claim goes through.
        #expect(try client.claim(ClaimBody.make(user: "u2", code: "LEE")).isClaim("claimed", user: "u2"))
    }

    @Test func aChunkedBodyIsReadWhole() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let body = Array(ClaimBody.make(user: "chunked", code: "LEE").utf8)
        var request = Array(
            "POST /client/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8)
        for chunk in [body[..<10], body[10..<25], body[25...]] {
            request += Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]
        }
        request += Array("0\r\n\r\n".utf8)
        #expect(try server.client().exchange(request).isClaim("claimed", user: "chunked"))
    }

    @Test func thePreflightIsAllowed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request(
            "OPTIONS", "/client/claims",
            headers: [
                ("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ])
        #expect(response.status == 204)
        #expect(response.header("access-control-allow-origin") == "*")
        let methods = response.header("access-control-allow-methods")?.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(methods?.contains("POST") == true && methods?.contains("OPTIONS") == true)
        #expect(response.header("access-control-allow-headers")?.lowercased().contains("content-type") == true)
        #expect(response.body.isEmpty)
        // A preflight is not a claim: it spends none of the budget.
        for _ in 0..<40 { #expect(try server.client().request("OPTIONS", "/client/claims").status == 204) }
        #expect(try server.client().claim(ClaimBody.make(user: "u1", code: "LEE")).isClaim("claimed", user: "u1"))
    }

    @Test func everyClaimsAnswerAllowsAnyOrigin() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let origin = [("Origin", "https://app.example")]
        var statuses: [Int] = []
        for body in [
            ClaimBody.make(user: "u1", code: "LEE"), ClaimBody.make(user: "u1", code: "LEE"), "{",
            ClaimBody.make(publicID: "pk_nope", user: "u1", code: "LEE"), ClaimBody.make(user: "u2", code: "NOPE"),
            ClaimBody.make(user: "u2", clickID: "clk_x"), ClaimBody.make(user: "u2", code: "SHARED"),
            ClaimBody.make(user: "u2", code: "SAM20", firstSeenAt: WallClock.iso(offset: -40 * .day)),
        ] {
            let response = try client.claim(body, headers: origin)
            statuses.append(response.status)
            #expect(response.header("access-control-allow-origin") == "*", "\(body): \(response.status)")
        }
        #expect(statuses == [200, 200, 400, 404, 404, 404, 409, 409])
        let big = try client.claim(bytes: [UInt8](repeating: 0x20, count: 20_000), headers: origin)
        #expect(big.status == 413 && big.header("access-control-allow-origin") == "*")
        for _ in 0..<30 { _ = try client.claim("{}", headers: origin) }
        let limited = try client.claim("{}", headers: origin)
        #expect(limited.status == 429 && limited.header("access-control-allow-origin") == "*")
    }
}
