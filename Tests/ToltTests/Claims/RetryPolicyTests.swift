import Foundation
import Testing

@testable import Tolt

/// When a failed claim is tried again, and how long the SDK waits: the policy alone, without a server.
@Suite(.highPriority) struct RetryPolicyTests {
    static let policy = RetryPolicy(
        maximumAttempts: 5, initialDelay: 1, maximumDelay: 4, maximumRetryAfter: 60, deadline: 600)
    static let unavailable = answer(503, #"{"success":false,"message":"down","error":"unavailable"}"#)

    /// The error an edge answer is read as (every answer given here is a failure: ClaimAnswerTests).
    static func answer(_ status: Int, _ body: String, retryAfter: String? = nil) -> ToltError {
        switch ClaimAnswer.interpret(status: status, retryAfter: retryAfter, body: Data(body.utf8), now: Date()) {
        case .failure(let error): return error
        case .success: return .unexpectedResponse  // never retried, so a test that expects a retry fails
        }
    }

    @Test func backoffDoublesUpToTheCapAndStopsAfterTheLastAttempt() {
        let longest = (1...4).map { Self.policy.delay(after: Self.unavailable, attempt: $0, elapsed: 0, jitter: 1) }
        #expect(longest == [1, 2, 4, 4])
        let shortest = (1...4).map { Self.policy.delay(after: Self.unavailable, attempt: $0, elapsed: 0, jitter: 0) }
        #expect(shortest == [0.5, 1, 2, 2])
        #expect(Self.policy.delay(after: Self.unavailable, attempt: 5, elapsed: 0, jitter: 0.5) == nil)
        #expect(RetryPolicy.standard.delay(after: .network, attempt: 4, elapsed: 0, jitter: 0.5) == nil)
        #expect(RetryPolicy.standard.delay(after: .network, attempt: 3, elapsed: 0, jitter: 1) == 4)
    }

    @Test func jitterSpreadsTheWaitBetweenHalfAndAllOfTheBackoff() throws {
        var waits: Set<TimeInterval> = []
        for _ in 0..<200 {
            let wait = try #require(
                Self.policy.delay(after: .network, attempt: 2, elapsed: 0, jitter: Double.random(in: 0..<1)))
            #expect(wait >= 1 && wait < 2)
            waits.insert(wait)
        }
        #expect(waits.count > 100)
    }

    @Test func networkFailuresServerErrorsAnd429AreRetried() {
        #expect(
            Self.policy.delay(after: .network(URLError(.cannotConnectToHost)), attempt: 1, elapsed: 0, jitter: 0) == 0.5
        )
        #expect(Self.policy.delay(after: .network(URLError(.timedOut)), attempt: 1, elapsed: 0, jitter: 0) == 0.5)
        #expect(
            Self.policy.delay(after: .network(URLError(.networkConnectionLost)), attempt: 1, elapsed: 0, jitter: 0)
                == 0.5)
        for status in [500, 502, 503, 504] {
            #expect(
                Self.policy.delay(after: Self.answer(status, "<html>busy</html>"), attempt: 1, elapsed: 0, jitter: 0)
                    == 0.5)
        }
        let limited = Self.answer(429, #"{"success":false,"message":"slow down","error":"rate_limited"}"#)
        #expect(Self.policy.delay(after: limited, attempt: 1, elapsed: 0, jitter: 0) != nil)
    }

    /// Without `Retry-After`, a `429` waits at least a few seconds: the edge's limit counts a minute, and the
    /// backoff's first second would only meet it again. Jitter is added on top.
    @Test func a429WithoutRetryAfterWaitsAtLeastAFewSeconds() {
        let body = #"{"success":false,"message":"slow down","error":"rate_limited"}"#
        for limited in [Self.answer(429, body), Self.answer(429, "Too Many Requests")] {
            #expect(Self.policy.delay(after: limited, attempt: 1, elapsed: 0, jitter: 0) == 5)
            #expect(Self.policy.delay(after: limited, attempt: 3, elapsed: 0, jitter: 0.5) == 5.5)
            #expect(RetryPolicy.standard.delay(after: limited, attempt: 1, elapsed: 0, jitter: 0.99)! < 6)
        }
        // A 503 without Retry-After keeps the backoff.
        #expect(Self.policy.delay(after: Self.unavailable, attempt: 1, elapsed: 0, jitter: 0) == 0.5)
    }

    @Test func otherRefusalsAndPermanentNetworkErrorsAreNot() {
        for (status, code) in [
            (400, "invalid_request"), (404, "unknown_public_key"), (404, "unknown_code"), (404, "unknown_click"),
            (409, "code_conflict"), (409, "claim_window_closed"), (413, "payload_too_large"), (400, "bad_request"),
            (415, "unsupported_media_type"), (417, "expectation_failed"), (401, "unauthorized"),
            (418, "teapot"),
        ] {
            let error = Self.answer(status, #"{"success":false,"message":"no","error":"\#(code)"}"#)
            #expect(Self.policy.delay(after: error, attempt: 1, elapsed: 0, jitter: 0) == nil, "\(status) \(code)")
        }
        #expect(Self.policy.delay(after: Self.answer(404, "Not Found"), attempt: 1, elapsed: 0, jitter: 0) == nil)
        #expect(Self.policy.delay(after: .notConfigured, attempt: 1, elapsed: 0, jitter: 0) == nil)
        #expect(Self.policy.delay(after: .network(URLError(.badURL)), attempt: 1, elapsed: 0, jitter: 0) == nil)
        #expect(
            Self.policy.delay(after: .network(URLError(.serverCertificateUntrusted)), attempt: 1, elapsed: 0, jitter: 0)
                == nil)
        #expect(Self.policy.delay(after: .unexpectedResponse, attempt: 1, elapsed: 0, jitter: 0) == nil)
    }

    @Test func retryAfterIsWaitedOutWhenItIsShortEnough() {
        let body = #"{"success":false,"message":"slow down","error":"rate_limited"}"#
        #expect(
            Self.policy.delay(after: Self.answer(429, body, retryAfter: "7"), attempt: 1, elapsed: 0, jitter: 0) == 7)
        // Never shorter than the backoff.
        #expect(
            Self.policy.delay(after: Self.answer(429, body, retryAfter: "0"), attempt: 3, elapsed: 0, jitter: 1) == 4)
        #expect(
            Self.policy.delay(after: Self.answer(503, "down", retryAfter: "3"), attempt: 1, elapsed: 0, jitter: 0) == 3)
        // Longer than the policy waits by itself: the app gets the error and its retryAfter at once.
        let tooLong = Self.answer(429, body, retryAfter: "61")
        #expect(Self.policy.delay(after: tooLong, attempt: 1, elapsed: 0, jitter: 0) == nil)
        #expect(tooLong.retryAfter == 61)
    }

    /// Apps the edge told to come back at one moment spread over the second after it.
    @Test func jitterIsAddedOnTopOfRetryAfter() throws {
        let limited = Self.answer(
            429, #"{"success":false,"message":"slow down","error":"rate_limited"}"#, retryAfter: "7")
        #expect(Self.policy.delay(after: limited, attempt: 1, elapsed: 0, jitter: 0.5) == 7.5)
        var waits: Set<TimeInterval> = []
        for _ in 0..<200 {
            let wait = try #require(
                Self.policy.delay(after: limited, attempt: 1, elapsed: 0, jitter: Double.random(in: 0..<1)))
            #expect(wait >= 7 && wait < 8)
            waits.insert(wait)
        }
        #expect(waits.count > 100)
    }

    /// No wait is begun that would end past the deadline: the last error is thrown instead.
    @Test func noWaitEndsPastTheDeadline() {
        var policy = Self.policy
        policy.deadline = 10
        #expect(policy.delay(after: .network, attempt: 1, elapsed: 9.4, jitter: 0) == 0.5)
        #expect(policy.delay(after: .network, attempt: 1, elapsed: 9.6, jitter: 0) == nil)
        let limited = Self.answer(
            429, #"{"success":false,"message":"slow down","error":"rate_limited"}"#, retryAfter: "7")
        #expect(policy.delay(after: limited, attempt: 1, elapsed: 2, jitter: 0.5) == 7.5)
        #expect(policy.delay(after: limited, attempt: 1, elapsed: 3.5, jitter: 0) == nil)
        // The standard deadline is a minute: a claim that has been failing for 58 s does not wait 4 more.
        #expect(RetryPolicy.standard.deadline == 60)
        #expect(RetryPolicy.standard.delay(after: .network, attempt: 3, elapsed: 55, jitter: 1) == 4)
        #expect(RetryPolicy.standard.delay(after: .network, attempt: 3, elapsed: 58, jitter: 1) == nil)
        // 4 attempts × 30 s timeouts and 3 Retry-Afters of 60 s no longer add up to 5 minutes.
        let minute = Self.answer(
            429, #"{"success":false,"message":"slow down","error":"rate_limited"}"#, retryAfter: "60")
        #expect(RetryPolicy.standard.delay(after: minute, attempt: 1, elapsed: 30, jitter: 0) == nil)
        #expect(
            RetryPolicy.standard.delay(after: .network(URLError(.timedOut)), attempt: 2, elapsed: 59, jitter: 1) == nil)
    }
}
