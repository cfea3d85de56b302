import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// 400 `invalid_request` over a real socket, each with a message naming the field or rule that failed,
/// and the claim window of `prg_acme` (30 days).
@Suite struct ClaimValidationTests {
    static let longUser = String(repeating: "u", count: 257)

    /// Bodies and the word the message must hold; fewer than 30, so one server's rate limit allows them all.
    static let invalid: [(body: String, names: String)] = [
        (#"{"public_id":"pk_acme","app_user_id":"u1","code":"SAM20""#, "JSON"),
        ("not json", "JSON"),
        ("", "JSON"),
        (#"["pk_acme","u1","SAM20"]"#, "object"),
        (#""pk_acme""#, "object"),
        (#"{"app_user_id":"u1","code":"LEE"}"#, "public_id"),
        (#"{"public_id":"","app_user_id":"u1","code":"LEE"}"#, "public_id"),
        (#"{"public_id":null,"app_user_id":"u1","code":"LEE"}"#, "public_id"),
        (#"{"public_id":123,"app_user_id":"u1","code":"LEE"}"#, "public_id"),
        (#"{"public_id":"pk_acme","code":"LEE"}"#, "app_user_id"),
        (#"{"public_id":"pk_acme","app_user_id":"","code":"LEE"}"#, "app_user_id"),
        (#"{"public_id":"pk_acme","app_user_id":42,"code":"LEE"}"#, "app_user_id"),
        (#"{"public_id":"pk_acme","app_user_id":{"id":"u1"},"code":"LEE"}"#, "app_user_id"),
        (#"{"public_id":"pk_acme","app_user_id":"\#(longUser)","code":"LEE"}"#, "app_user_id"),
        (#"{"public_id":"pk_acme","app_user_id":"u1"}"#, "code or click_id"),
        (#"{"public_id":"pk_acme","app_user_id":"u1","code":"","click_id":""}"#, "code or click_id"),
        (#"{"public_id":"pk_acme","app_user_id":"u1","code":20}"#, "code"),
        (#"{"public_id":"pk_acme","app_user_id":"u1","click_id":false}"#, "click_id"),
        (#"{"public_id":"pk_acme","app_user_id":"u1","code":"LEE","first_seen_at":"last week"}"#, "first_seen_at"),
        (
            #"{"public_id":"pk_acme","app_user_id":"u1","code":"LEE","first_seen_at":"2026-02-30T00:00:00Z"}"#,
            "first_seen_at"
        ),
        (
            #"{"public_id":"pk_acme","app_user_id":"u1","code":"LEE","first_seen_at":"2026-01-31T25:00:00Z"}"#,
            "first_seen_at"
        ),
        (#"{"public_id":"pk_acme","app_user_id":"u1","code":"LEE","first_seen_at":1769860800000}"#, "first_seen_at"),
        (#"{"public_id":"pk_acme","app_user_id":"u1","code":"LEE","first_seen_at":""}"#, "first_seen_at"),
        // Validation comes before the public key: an unknown key with a bad body is still a 400.
        (#"{"public_id":"pk_nope","app_user_id":"","code":"LEE"}"#, "app_user_id"),
    ]

    @Test func everyInvalidBodyIs400NamingTheField() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for (body, names) in Self.invalid {
            let response = try client.claim(body)
            #expect(response.isError(400, "invalid_request"), "\(body.prefix(80)): \(response.status) \(response.text)")
            #expect(response.message.contains(names), "\(body.prefix(80)): \(response.message)")
            #expect(response.header("access-control-allow-origin") == "*")
        }
        #expect(try client.customers().isEmpty)
    }

    @Test func anAppUserIDOf256CharactersIsAccepted() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let user = String(repeating: "é", count: 256)
        let response = try server.client().claim(ClaimBody.make(user: user, code: "LEE"))
        #expect(response.isClaim("claimed", user: user), "\(response.status) \(response.text)")
    }

    @Test func theClaimWindow() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let missing = try client.claim(ClaimBody.make(user: "missing", code: "SAM20"))
        #expect(missing.isError(400, "invalid_request"), "\(missing.text)")
        #expect(missing.message.contains("first_seen_at"))

        let inside = ClaimBody.make(
            user: "inside", code: "SAM20", firstSeenAt: WallClock.iso(offset: -(29 * .day + 23 * .hour)))
        #expect(try client.claim(inside).isClaim("claimed", user: "inside"))

        let outside = try client.claim(
            ClaimBody.make(user: "outside", code: "SAM20", firstSeenAt: WallClock.iso(offset: -(30 * .day + .hour))))
        #expect(outside.isError(409, "claim_window_closed"), "\(outside.status) \(outside.text)")
        #expect(outside.message.contains("first_seen_at") && outside.message.contains("30 days"))
        #expect(outside.header("access-control-allow-origin") == "*")

        let future = try client.claim(
            ClaimBody.make(user: "future", code: "SAM20", firstSeenAt: WallClock.iso(offset: 3 * .day)))
        #expect(future.isClaim("claimed", user: "future"))

        let customers = try client.customers()
        #expect(Set(customers.compactMap { $0["customer_id"] as? String }) == ["inside", "future"])
        // A future first_seen_at counts as now: it is stored as the claim time.
        let stored = try #require(customers.first { $0["customer_id"] as? String == "future" })
        #expect(stored["first_seen_at"] as? String == stored["claimed_at"] as? String)
    }

    @Test func withoutAWindowFirstSeenAtIsOptional() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.claim(ClaimBody.make(user: "a", code: "LEE")).isClaim("claimed", user: "a"))
        let old = WallClock.iso(offset: -1_500 * .day)
        #expect(
            try client.claim(ClaimBody.make(user: "b", code: "LEE", firstSeenAt: old)).isClaim("claimed", user: "b"))
        let customers = try client.customers()
        #expect(customers.first { $0["customer_id"] as? String == "a" }?["first_seen_at"] is NSNull)
        #expect(customers.first { $0["customer_id"] as? String == "b" }?["first_seen_at"] as? String == old)
    }

    /// What the SDK sends from a phone whose clock was never set (1970), what a client of its own may send (year
    /// 0000), and a clock far ahead: each claim counts from its own time, in a program with a claim window and in one
    /// without, and is stored so. A 1970 time closed every claim window of that install (`409`) and was stored as is.
    @Test func aFirstOpenBefore2020OrInTheFutureCountsAsTheClaimsOwnTime() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let times = ["1970-01-01T00:00:42.000Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]
        for (index, time) in times.enumerated() {
            for code in ["SAM20", "LEE"] {
                let user = "\(code)-\(index)"
                let response = try client.claim(ClaimBody.make(user: user, code: code, firstSeenAt: time))
                #expect(response.isClaim("claimed", user: user), "\(time): \(response.status) \(response.text)")
                let stored = try client.customers("customer_id=\(user)").first
                #expect(stored?["first_seen_at"] as? String == stored?["claimed_at"] as? String, "\(time)")
            }
        }
    }

    /// `first_seen_at` with and without a fraction and with any offset; each is stored as the same instant.
    @Test func firstSeenAtInEveryISOForm() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        // Two hours ago, on a whole second, plus 250 ms for the forms with a fraction.
        let instant = (WallClock.milliseconds() - 2 * .hour) / 1000 * 1000
        func local(_ offsetMinutes: Int64, fraction: String, zone: String) -> String {
            let text = Timestamp.format(instant + offsetMinutes * 60_000)  // …T12:34:56.000Z
            return String(text.dropLast(5)) + fraction + zone
        }
        let forms: [(text: String, millis: Int64)] = [
            (local(0, fraction: "", zone: "Z"), instant),
            (local(0, fraction: ".250", zone: "Z"), instant + 250),
            (local(0, fraction: ".25", zone: "z"), instant + 250),
            (local(0, fraction: ".250123456", zone: "Z"), instant + 250),  // nanoseconds: was a crash
            (local(0, fraction: ".123456", zone: "+00:00"), instant + 123),  // microseconds, as JavaScript never sends
            (local(330, fraction: "", zone: "+05:30"), instant),
            (local(330, fraction: ".250", zone: "+0530"), instant + 250),
            (local(-480, fraction: "", zone: "-0800"), instant),
            (local(-480, fraction: ".7", zone: "-08:00"), instant + 700),
            (local(-570, fraction: "", zone: "-09:30"), instant),
        ]
        for (index, form) in forms.enumerated() {
            let response = try client.claim(
                ClaimBody.make(user: "form-\(index)", code: "SAM20", firstSeenAt: form.text))
            #expect(
                response.isClaim("claimed", user: "form-\(index)"), "\(form.text): \(response.status) \(response.text)")
            let stored = try client.customers("customer_id=form-\(index)").first
            #expect(stored?["first_seen_at"] as? String == Timestamp.format(form.millis), "\(form.text)")
        }
    }
}
