import Foundation
import TestSupport
import Testing

@testable import EdgeServer

/// What a claim's request must be before any rule reads it, over a real socket: a JSON `Content-Type` (`415`
/// otherwise), no member named twice, and identifiers that are neither blank nor hold control characters (`400`);
/// each refusal stores nothing, and the rate limit still comes first.
@Suite struct ClaimInputTests {
    static let valid = Array(ClaimBody.make(user: "u1", code: "LEE").utf8)

    func post(_ client: HTTPClient, contentType: String?, body: [UInt8] = valid) throws -> TestSupport.HTTPResponse {
        try client.request(
            "POST", "/client/claims", headers: contentType.map { [("Content-Type", $0)] } ?? [], body: body)
    }

    @Test func aBodyNotDeclaredJSONIs415() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        // curl --data, an HTML form, a browser's fetch with a string body, and near misses.
        for contentType in [
            nil, "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain;charset=UTF-8",
            "application/jsonx", "application/json-seq", "application/vnd.api+json", "json",
            "application/json, text/plain",
            "", "application/ json",
        ] {
            let response = try post(client, contentType: contentType)
            #expect(
                response.isError(415, "unsupported_media_type"),
                "\(contentType ?? "none"): \(response.status) \(response.text)")
            #expect(response.message.contains("application/json"), "\(contentType ?? "none")")
            #expect(response.header("access-control-allow-origin") == "*", "\(contentType ?? "none")")
        }
        #expect(try client.customers().isEmpty)

        for (index, contentType) in [
            "application/json", "Application/JSON", "application/json; charset=utf-8",
            " application/json ;charset=UTF-8",
            "application/json;",
        ].enumerated() {
            let response = try post(
                client, contentType: contentType, body: Array(ClaimBody.make(user: "j\(index)", code: "LEE").utf8))
            #expect(
                response.isClaim("claimed", user: "j\(index)"), "\(contentType): \(response.status) \(response.text)")
        }
    }

    /// Two `Content-Type` lines: the first was read, so `application/json` then `text/plain` was claimed and the
    /// other order got `415`, while two `Authorization` lines are refused. Now neither line is chosen: `400`, in
    /// either order, on claims and on the webhook alike, and nothing is stored.
    @Test func twoContentTypeLinesAre400OnClaimsAndTheWebhook() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        let event = RevenueCatPayload.purchase(user: "u1", price: "1", transaction: "two-types")
        for pair in [
            ["application/json", "text/plain"], ["text/plain", "application/json"],
            ["application/json", "application/json"],
        ] {
            let types = pair.map { ("Content-Type", $0) }
            for response in [
                try client.request("POST", "/client/claims", headers: types, body: Self.valid),
                try client.request(
                    "POST", "/webhooks/revenuecat/pk_acme",
                    headers: types + [("Authorization", TestServer.authorization)], body: event),
            ] {
                #expect(response.isError(400, "invalid_request"), "\(pair): \(response.status) \(response.text)")
                #expect(response.message.contains("more than one Content-Type line"), "\(response.message)")
            }
        }
        #expect(try client.customers().isEmpty)
        #expect(try WebhookTieReplayTests.events(client).isEmpty)
        #expect(try client.claim(ClaimBody.make(user: "u1", code: "LEE")).isClaim("claimed", user: "u1"))
        #expect(try client.deliver(event) == "commission_created", "one line is read as before; none was stored")
    }

    /// The limiter counts every claim whatever its body says, as the README's order says: a client cannot spend
    /// refused requests for free.
    @Test func theRateLimitComesBeforeTheContentType() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for index in 0..<30 {
            let response = try post(client, contentType: "text/plain")
            #expect(response.status == 415, "request \(index + 1): \(response.status)")
        }
        let limited = try post(client, contentType: "application/json")
        #expect(limited.isError(429, "rate_limited"), "\(limited.status) \(limited.text)")
    }

    /// A member named twice is refused, not read as its last value: a proxy or log that reads the first one would
    /// see a different claim.
    @Test func aMemberNamedTwiceIs400() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for body in [
            #"{"public_id":"pk_acme","app_user_id":"a","app_user_id":"b","code":"LEE"}"#,
            #"{"public_id":"pk_acme","app_user_id":"a","code":"NOPE","code":"LEE"}"#,
            #"{"public_id":"pk_other","public_id":"pk_acme","app_user_id":"a","code":"LEE"}"#,
            #"{"public_id":"pk_acme","app_user_id":"a","app\u005fuser_id":"b","code":"LEE"}"#,
            #"{"public_id":"pk_acme","app_user_id":"a","code":"LEE","x":1,"x":2}"#,
        ] {
            let response = try client.claim(body)
            #expect(response.isError(400, "invalid_request"), "\(body): \(response.status) \(response.text)")
            #expect(response.message.contains("more than once"), "\(body): \(response.message)")
        }
        #expect(try client.customers().isEmpty)
    }

    @Test func blankOrControlIdentifiersAre400() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let bad: [(field: String, value: String)] = [
            ("app_user_id", " "), ("app_user_id", "\t \t"), ("app_user_id", "\u{A0}"), ("app_user_id", "\u{3000}"),
            ("app_user_id", "\u{2028}"), ("app_user_id", "user\u{2029}1"), ("app_user_id", "user\n1"),
            ("app_user_id", "user\u{0}1"), ("app_user_id", "user\u{7F}"), ("app_user_id", "\u{85}user"),
            ("app_user_id", "user\u{1B}[31m"), ("code", " "), ("code", "LE\r\nE"), ("click_id", "\u{2028}"),
            ("click_id", "clk_\u{0}"), ("public_id", "\u{A0}\u{A0}"), ("public_id", "pk_acme\u{0}"),
            // Before: accepted, though they show nothing, as display texts' blank rule says.
            ("app_user_id", "\u{200B}"), ("app_user_id", "\u{FEFF}\u{2060}"), ("app_user_id", " \u{200B} "),
            ("app_user_id", "\u{3164}"), ("app_user_id", "\u{2800}"),
        ]
        for (field, value) in bad {
            var fields = ["public_id": "pk_acme", "app_user_id": "u1", "code": "LEE"]
            fields[field] = value
            let body = try JSONSerialization.data(withJSONObject: fields)
            let response = try client.claim(bytes: Array(body))
            let shown = value.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            #expect(
                response.isError(400, "invalid_request"), "\(field) [\(shown)]: \(response.status) \(response.text)")
            #expect(response.message.hasPrefix(field), "\(field) [\(shown)]: \(response.message)")
        }
        #expect(try client.customers().isEmpty)
        // Spaces inside an id, and characters beyond ASCII, are an app's to choose.
        let spaced = try client.claim(ClaimBody.make(user: "Ada Lovelace \u{1F600}", code: "LEE"))
        #expect(spaced.isClaim("claimed", user: "Ada Lovelace \u{1F600}"), "\(spaced.status) \(spaced.text)")
        // A code pasted with the whitespace around it (a line break copied with it) claims that code.
        let pasted = try client.claim(ClaimBody.make(user: "pasted", code: " lee\r\n"))
        #expect(pasted.isClaim("claimed", user: "pasted"), "\(pasted.status) \(pasted.text)")
        // And with the invisible characters a copy brings along (a zero-width space, a byte-order mark, a word
        // joiner, bidirectional marks): no code holds one, and they were `404 unknown_code`.
        for (index, copied) in ["LEE\u{200B}", "\u{FEFF}LEE", "lee\u{2060}", "\u{202A}LEE\u{202C}\u{200E}"].enumerated()
        {
            let response = try client.claim(ClaimBody.make(user: "copied\(index)", code: copied))
            #expect(
                response.isClaim("claimed", user: "copied\(index)"), "\(index): \(response.status) \(response.text)")
        }
    }
}
