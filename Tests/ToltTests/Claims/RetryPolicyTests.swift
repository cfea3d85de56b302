import Foundation
import Testing

@testable import Tolt

/// When a failed claim is tried again, and how long the SDK waits: the policy alone, without a server.
@Suite struct RetryPolicyTests {
    static let policy = RetryPolicy(maximumAttempts: 5, initialDelay: 1, maximumDelay: 4, maximumRetryAfter: 60)
    static let unavailable = answer(503, #"{"success":false,"message":"down","error":"unavailable"}"#)

    /// The error an edge answer is read as (every answer given here is a failure: ClaimAnswerTests).
    static func answer(_ status: Int, _ body: String, retryAfter: String? = nil) -> ToltError {
        switch ClaimAnswer.interpret(status: status, retryAfter: retryAfter, body: Data(body.utf8), now: Date()) {
        case .failure(let error): return error
        case .success: return .unexpectedResponse  // never retried, so a test that expects a retry fails
        }
    }

    @Test func backoffDoublesUpToTheCapAndStopsAfterTheLastAttempt() {
        let longest = (1...4).map { Self.policy.delay(after: Self.unavailable, attempt: $0, jitter: 1) }
        #expect(longest == [1, 2, 4, 4])
        let shortest = (1...4).map { Self.policy.delay(after: Self.unavailable, attempt: $0, jitter: 0) }
        #expect(shortest == [0.5, 1, 2, 2])
        #expect(Self.policy.delay(after: Self.unavailable, attempt: 5, jitter: 0.5) == nil)
        #expect(RetryPolicy.standard.delay(after: .network, attempt: 4, jitter: 0.5) == nil)
        #expect(RetryPolicy.standard.delay(after: .network, attempt: 3, jitter: 1) == 4)
    }

    @Test func jitterSpreadsTheWaitBetweenHalfAndAllOfTheBackoff() throws {
        var waits: Set<TimeInterval> = []
        for _ in 0..<200 {
            let wait = try #require(Self.policy.delay(after: .network, attempt: 2, jitter: Double.random(in: 0..<1)))
            #expect(wait >= 1 && wait < 2)
            waits.insert(wait)
        }
        #expect(waits.count > 100)
    }

    @Test func networkFailuresServerErrorsAnd429AreRetried() {
        #expect(Self.policy.delay(after: .network(URLError(.cannotConnectToHost)), attempt: 1, jitter: 0) == 0.5)
        #expect(Self.policy.delay(after: .network(URLError(.timedOut)), attempt: 1, jitter: 0) == 0.5)
        #expect(Self.policy.delay(after: .network(URLError(.networkConnectionLost)), attempt: 1, jitter: 0) == 0.5)
        for status in [500, 502, 503, 504] {
            #expect(Self.policy.delay(after: Self.answer(status, "<html>busy</html>"), attempt: 1, jitter: 0) == 0.5)
        }
        let limited = Self.answer(429, #"{"success":false,"message":"slow down","error":"rate_limited"}"#)
        #expect(Self.policy.delay(after: limited, attempt: 1, jitter: 0) == 0.5)
    }

    @Test func otherRefusalsAndPermanentNetworkErrorsAreNot() {
        for (status, code) in [
            (400, "invalid_request"), (404, "unknown_public_key"), (404, "unknown_code"), (404, "unknown_click"),
            (409, "code_conflict"), (409, "claim_window_closed"), (413, "payload_too_large"), (401, "unauthorized"),
            (418, "teapot"),
        ] {
            let error = Self.answer(status, #"{"success":false,"message":"no","error":"\#(code)"}"#)
            #expect(Self.policy.delay(after: error, attempt: 1, jitter: 0) == nil, "\(status) \(code)")
        }
        #expect(Self.policy.delay(after: Self.answer(404, "Not Found"), attempt: 1, jitter: 0) == nil)
        #expect(Self.policy.delay(after: .notConfigured, attempt: 1, jitter: 0) == nil)
        #expect(Self.policy.delay(after: .network(URLError(.badURL)), attempt: 1, jitter: 0) == nil)
        #expect(Self.policy.delay(after: .network(URLError(.serverCertificateUntrusted)), attempt: 1, jitter: 0) == nil)
        #expect(Self.policy.delay(after: .unexpectedResponse, attempt: 1, jitter: 0) == nil)
    }

    @Test func retryAfterIsWaitedOutWhenItIsShortEnough() {
        let body = #"{"success":false,"message":"slow down","error":"rate_limited"}"#
        #expect(Self.policy.delay(after: Self.answer(429, body, retryAfter: "7"), attempt: 1, jitter: 1) == 7)
        // Never shorter than the backoff.
        #expect(Self.policy.delay(after: Self.answer(429, body, retryAfter: "0"), attempt: 3, jitter: 1) == 4)
        #expect(Self.policy.delay(after: Self.answer(503, "down", retryAfter: "3"), attempt: 1, jitter: 0) == 3)
        // Longer than the policy waits by itself: the app gets the error and its retryAfter at once.
        let tooLong = Self.answer(429, body, retryAfter: "61")
        #expect(Self.policy.delay(after: tooLong, attempt: 1, jitter: 0) == nil)
        #expect(tooLong.retryAfter == 61)
    }
}
