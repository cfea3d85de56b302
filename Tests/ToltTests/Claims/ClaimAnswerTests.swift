import Foundation
import Testing

@testable import Tolt

/// Every shape of the edge's answer to a claim, read without a socket: the success bodies, each machine code,
/// `Retry-After` in both of its forms, and answers that are not the edge's.
@Suite(.highPriority) struct ClaimAnswerTests {
    static func read(_ status: Int, _ body: String, retryAfter: String? = nil) -> Result<ClaimResult, ToltError> {
        ClaimAnswer.interpret(status: status, retryAfter: retryAfter, body: Data(body.utf8), now: Date())
    }

    static func error(_ status: Int, _ body: String, retryAfter: String? = nil) -> ToltError? {
        if case .failure(let error) = read(status, body, retryAfter: retryAfter) { return error }
        return nil
    }

    @Test func successBodies() throws {
        let claimed = try Self.read(
            200, #"{"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"u 1"}}"#
        ).get()
        #expect(claimed == ClaimResult(status: .claimed, appUserId: "u 1"))
        let already = try Self.read(
            200, #"{"success":true,"message":"Success","data":{"status":"already_claimed","app_user_id":"é"}}"#
        ).get()
        #expect(already == ClaimResult(status: .alreadyClaimed, appUserId: "é"), "an older edge's: not the same claim")
        let same = try Self.read(
            200,
            #"{"success":true,"message":"Success","data":{"status":"already_claimed","app_user_id":"u","same_claim":true}}"#
        ).get()
        #expect(same == ClaimResult(status: .alreadyClaimed, appUserId: "u", isSameClaim: true))
        let other = try Self.read(
            200,
            #"{"success":true,"message":"Success","data":{"status":"already_claimed","app_user_id":"u","same_claim":false}}"#
        ).get()
        #expect(other == ClaimResult(status: .alreadyClaimed, appUserId: "u", isSameClaim: false))
    }

    /// What is in effect, beside `claimed` and a same claim: read when sent, `nil` when left out (an older edge's
    /// answer, another claim's) or `null`, and a value of another type read as absent rather than failing a claim that
    /// succeeded.
    @Test func theCodeAndPartnerInEffect() throws {
        let claimed = try Self.read(
            200,
            #"{"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"u","code":"SAM20","#
                + #""partner_name":"Sam"}}"#
        ).get()
        #expect(claimed == ClaimResult(status: .claimed, appUserId: "u", code: "SAM20", partnerName: "Sam"))
        #expect(claimed.code == "SAM20" && claimed.partnerName == "Sam")
        let same = try Self.read(
            200,
            #"{"success":true,"message":"Success","data":{"status":"already_claimed","app_user_id":"u","#
                + #""same_claim":true,"code":"ＳＡＭ２０","partner_name":null}}"#
        ).get()
        #expect(
            same == ClaimResult(status: .alreadyClaimed, appUserId: "u", isSameClaim: true, code: "ＳＡＭ２０"))
        #expect(same.partnerName == nil)
        let older = try Self.read(
            200, #"{"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"u"}}"#
        ).get()
        #expect(older.code == nil && older.partnerName == nil)
        let odd = try Self.read(
            200,
            #"{"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"u","code":20,"#
                + #""partner_name":{"first":"Sam"}}}"#
        ).get()
        #expect(odd == ClaimResult(status: .claimed, appUserId: "u"))
    }

    /// A success status newer than this SDK (a later edge's) is a success with that raw value, not an error.
    @Test func aStatusNewerThanThisSDKIsASuccess() throws {
        let result = try Self.read(
            200, #"{"success":true,"message":"Success","data":{"status":"transferred","app_user_id":"u"}}"#
        ).get()
        #expect(result.status == ClaimResult.Status(rawValue: "transferred"))
        #expect(result.status.rawValue == "transferred")
        #expect(result.status != .claimed && result.status != .alreadyClaimed)
        #expect(result.appUserId == "u")
    }

    /// What apps write with the statuses: `==`, a `switch` (with a `default`), sets, the edge's raw values.
    @Test func statusesCompareAndMatchByRawValue() {
        #expect(ClaimResult.Status.claimed.rawValue == "claimed")
        #expect(ClaimResult.Status.alreadyClaimed.rawValue == "already_claimed")
        #expect(ClaimResult.Status(rawValue: "already_claimed") == .alreadyClaimed)
        #expect(Set<ClaimResult.Status>([.claimed, .alreadyClaimed, .claimed]).count == 2)
        #expect("\(ClaimResult.Status.alreadyClaimed)" == "already_claimed")
        func word(_ status: ClaimResult.Status) -> String {
            switch status {
            case .claimed: return "thanks"
            case .alreadyClaimed: return "already"
            default: return "newer"
            }
        }
        #expect(word(.claimed) == "thanks")
        #expect(word(ClaimResult.Status(rawValue: "already_claimed")) == "already")
        #expect(word(ClaimResult.Status(rawValue: "transferred")) == "newer")
    }

    @Test func eachMachineCodeHasItsKind() {
        let cases: [(Int, String, ToltError)] = [
            (404, "unknown_public_key", .unknownPublicKey), (404, "unknown_code", .unknownCode),
            (404, "unknown_click", .unknownClick), (409, "code_conflict", .codeConflict),
            (409, "claim_window_closed", .claimWindowClosed), (400, "invalid_request", .invalidRequest),
            (413, "payload_too_large", .invalidRequest), (400, "bad_request", .invalidRequest),
            (415, "unsupported_media_type", .invalidRequest), (417, "expectation_failed", .invalidRequest),
            (429, "rate_limited", .rateLimited),
            (503, "unavailable", .server), (500, "internal_error", .server),
            (404, "some_future_code", .unexpectedResponse),
        ]
        for (status, code, kind) in cases {
            let body = #"{"success":false,"message":"the edge's words","error":"\#(code)"}"#
            let error = Self.error(status, body)
            #expect(error == kind, "\(status) \(code): \(String(describing: error))")
            #expect(error?.code == code)
            #expect(error?.httpStatus == status)
            #expect(error?.message == "the edge's words")
        }
    }

    @Test func retryAfterInSecondsOrAsADate() {
        let body = #"{"success":false,"message":"slow down","error":"rate_limited"}"#
        #expect(Self.error(429, body, retryAfter: "42")?.retryAfter == 42)
        #expect(Self.error(429, body, retryAfter: " 1 ")?.retryAfter == 1)
        #expect(Self.error(429, body)?.retryAfter == nil)
        #expect(Self.error(429, body, retryAfter: "soon")?.retryAfter == nil)
        #expect(Self.error(429, body, retryAfter: "-5")?.retryAfter == nil)
        let now = Date(timeIntervalSince1970: 1_784_000_000)  // 2026-07-14T03:33:20Z
        let dated = ClaimAnswer.interpret(
            status: 429, retryAfter: "Tue, 14 Jul 2026 03:33:50 GMT", body: Data(body.utf8), now: now)
        guard case .failure(let error) = dated else {
            Issue.record("a 429 was read as a success")
            return
        }
        #expect(error.retryAfter == 30)
    }

    /// `Retry-After` as RFC 9110 writes it: delay-seconds are ASCII digits only, read up to a day; an HTTP date in
    /// each of its three forms. Whatever else a proxy or CDN in front of the edge sends counts as no header.
    @Test func retryAfterAsRFC9110WritesItAndAtMostADay() {
        let body = #"{"success":false,"message":"slow down","error":"rate_limited"}"#
        let now = Date(timeIntervalSince1970: 1_783_136_000)  // Saturday, 2026-07-04T03:33:20Z
        func wait(_ value: String, status: Int = 429) -> TimeInterval? {
            guard
                case .failure(let error) = ClaimAnswer.interpret(
                    status: status, retryAfter: value, body: Data(body.utf8), now: now)
            else { return nil }
            return error.retryAfter
        }
        #expect(wait("0") == 0)
        #expect(wait("\t7 ") == 7)
        #expect(wait("86400") == 86_400)
        for huge in ["86401", "99999999999999999999", String(repeating: "9", count: 5_000)] {
            #expect(wait(huge) == 86_400, "\(huge.prefix(30))")
            #expect(wait(huge, status: 503) == 86_400, "\(huge.prefix(30))")
        }
        for unreadable in [
            "1e300", "1E3", "-5", "+5", "1.5", "5.", "NaN", "nan", "inf", "Infinity", "-inf", "0x10", "\u{0663}",
            "\u{FF13}", "", " ", "5 s", "5,5", "5 5",
        ] {
            #expect(wait(unreadable) == nil, "\(unreadable)")
        }
        // IMF-fixdate, RFC 850's and asctime's (a one-digit day padded with a space), 30 s ahead.
        #expect(wait("Sat, 04 Jul 2026 03:33:50 GMT") == 30)
        #expect(wait("Saturday, 04-Jul-26 03:33:50 GMT") == 30)
        #expect(wait("Sat Jul  4 03:33:50 2026") == 30)
        // A date passed is now; one far ahead is a day.
        #expect(wait("Fri, 03 Jul 2026 03:33:50 GMT") == 0)
        #expect(wait("Fri, 31 Dec 9999 23:59:59 GMT") == 86_400)
        #expect(wait("Sat, 04 Jul 2026 03:33:50") == nil)
    }

    @Test func answersThatAreNotTheEdgesJSON() {
        // A proxy's or load balancer's page: 5xx is a server error, 429 still a rate limit, anything else unknown.
        #expect(Self.error(502, "<html>Bad Gateway</html>") == .server)
        #expect(Self.error(429, "Too Many Requests", retryAfter: "5") == .rateLimited)
        #expect(Self.error(429, "Too Many Requests", retryAfter: "5")?.retryAfter == 5)
        #expect(Self.error(404, "<html>Not Found</html>") == .unexpectedResponse)
        #expect(Self.error(302, "") == .unexpectedResponse)
        // A 200 that is not a claim result.
        #expect(Self.error(200, "<html>captive portal</html>") == .unexpectedResponse)
        #expect(Self.error(200, #"{"success":true,"data":{"status":"","app_user_id":"u"}}"#) == .unexpectedResponse)
        #expect(Self.error(200, #"{"success":true,"data":{"app_user_id":"u"}}"#) == .unexpectedResponse)
        #expect(
            Self.error(200, #"{"success":false,"data":{"status":"claimed","app_user_id":"u"}}"#) == .unexpectedResponse)
        #expect(Self.error(200, "") == .unexpectedResponse)
    }
}
