import Foundation
import TestSupport
import Testing
import Tolt
import ToltTestSupport

/// Retries against a real edge behind failures: refused connections until the edge starts, reset connections,
/// `503`s and a `429` with `Retry-After` in front of it; and no retry of a final `4xx`.
@Suite(.highPriority) struct ClaimRetryTests {
    static let unavailable = #"{"success":false,"message":"Try again","error":"unavailable"}"#

    /// The edge starts only after the claim's first attempt was refused, on the port that refused it.
    @Test func refusedConnectionsUntilTheEdgeStarts() async throws {
        let port = try Ports.reserve()
        // Retries for as long as the edge may take to start on a loaded machine (in a full run, starting it took
        // longer than 40 attempts 0.4 s apart): the claim waits for the edge, not for a race against it.
        let policy = RetryPolicy(
            maximumAttempts: 10_000, initialDelay: 0.1, maximumDelay: 0.4, maximumRetryAfter: 1, deadline: 900)
        let sandbox = try ToltSandbox(defaultBaseURL: URL(string: "http://127.0.0.1:\(port)")!, retryPolicy: policy)
        defer { sandbox.remove() }
        let claim = Task(priority: .high) {  // as the suite runs (``HighPriority``)
            try await sandbox.run { () async throws in
                Tolt.configure(publicId: "pk_acme")
                return try await Tolt.claim(code: "SAM20", appUserId: "patient")
            }
        }
        // Nothing listens on the port until an attempt has failed there: a refused connection. (Generous: in a full
        // run on 2 cores, the fuzz tests and hundreds of others share the cooperative threads the claim needs, and its
        // first attempt has come after 112 s in one run and after more than 120 s in another. The bound only matters
        // when the test fails.)
        #expect(try await waitUntil(within: 600) { sandbox.state.failedAttempts >= 1 }, "no attempt failed")
        let refused = sandbox.state.failedAttempts
        let edge = try EdgeTestServer(port: port)
        defer { edge.shutdown() }
        let result = try await claim.value
        #expect(result == ClaimResult(status: .claimed, appUserId: "patient", code: "SAM20", partnerName: "Sam"))
        // At least one refused attempt before the edge started, so the claim that succeeded was a retry.
        #expect(refused >= 1)
        #expect(try edge.customer("patient")?.partnerId == "part_sam")
    }

    @Test func resetConnectionsThenTheEdge() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let proxy = try ScriptedProxy(script: [.reset, .reset], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            #expect(try await Tolt.claim(code: "SAM20", appUserId: "u").status == .claimed)
        }
        #expect(proxy.connections == 3)
        #expect(proxy.requests.count == 1)
        #expect(sandbox.state.failedAttempts == 2)
    }

    @Test func twoServiceUnavailablesThenTheEdge() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let busy = ScriptedProxy.Step.answer(status: 503, body: Self.unavailable)
        let proxy = try ScriptedProxy(script: [busy, busy], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            #expect(try await Tolt.claim(code: "SAM20", appUserId: "u").status == .claimed)
        }
        #expect(proxy.requests.count == 3)
        // The three attempts sent the same claim.
        #expect(Set(proxy.requests.map(\.body)).count == 1)
        #expect(try edge.customer("u")?.code == "SAM20")
    }

    @Test func a429sRetryAfterIsWaitedOut() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let limited = ScriptedProxy.Step.answer(
            status: 429, headers: ["Retry-After": "1"],
            body: #"{"success":false,"message":"Slow down","error":"rate_limited"}"#)
        let proxy = try ScriptedProxy(script: [limited], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        let started = Date()
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            #expect(try await Tolt.claim(code: "SAM20", appUserId: "u").status == .claimed)
        }
        // The backoff alone would have waited 50 ms at most.
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(proxy.requests.count == 2)
    }

    /// A `429` without `Retry-After`, or with one RFC 9110 does not allow (`1e300` from a proxy in front, a sign, a
    /// fraction, `NaN`), waits at least the policy's minimum (here 300 ms; 5 s for apps), not the backoff's 25–50 ms,
    /// and the retry reaches the edge.
    @Test(arguments: [nil, "1e300", "-5", "1.5", "NaN"] as [String?])
    func a429WithoutAReadableRetryAfterWaitsAtLeastTheMinimum(_ retryAfter: String?) async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let limited = ScriptedProxy.Step.answer(
            status: 429, headers: retryAfter.map { ["Retry-After": $0] } ?? [:],
            body: #"{"success":false,"message":"Slow down","error":"rate_limited"}"#)
        let proxy = try ScriptedProxy(script: [limited], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        let started = Date()
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            #expect(try await Tolt.claim(code: "SAM20", appUserId: "u").status == .claimed)
        }
        #expect(Date().timeIntervalSince(started) >= ToltSandbox.quickRetries.minimumRateLimitedDelay)
        #expect(proxy.requests.count == 2)
    }

    /// A wait of 10^20 s from a front before the edge is read as a day: beyond what the SDK waits out, so the claim
    /// throws at once, and the error prints (it used to trap converting the wait to `Int`).
    @Test func aHugeRetryAfterEndsTheClaimWithAnErrorThatPrints() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let huge = ScriptedProxy.Step.answer(
            status: 503, headers: ["Retry-After": "99999999999999999999"], body: Self.unavailable)
        let proxy = try ScriptedProxy(script: [huge], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let error = await #expect(throws: ToltError.server) { try await Tolt.claim(code: "SAM20", appUserId: "u") }
            #expect(error?.retryAfter == 86_400)
            #expect(error.map { "\($0)" } == "ToltError: Try again (unavailable, HTTP 503); retry after 86400 s")
        }
        #expect(proxy.requests.count == 1)
        #expect(try edge.customer("u") == nil)
    }

    /// A claim stops retrying at its deadline, many attempts short of the policy's maximum, with the last error.
    @Test func retriesStopAtTheDeadline() async throws {
        let proxy = try ScriptedProxy(script: [], then: .answer(status: 503, body: Self.unavailable))
        defer { proxy.stop() }
        let policy = RetryPolicy(maximumAttempts: 100, initialDelay: 0.2, maximumDelay: 0.2, deadline: 2)
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL, retryPolicy: policy)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            await #expect(throws: ToltError.server) { try await Tolt.claim(code: "SAM20", appUserId: "u") }
        }
        // Waits of 100–200 ms, none ending past 2 s: at most 20 retries, where the policy allows 99 (10–20 s).
        // On a loaded machine, slow attempts leave fewer; the bounds leave room for that, and say nothing of time.
        #expect(proxy.requests.count >= 1 && proxy.requests.count <= 21)
        #expect(sandbox.state.failedAttempts == proxy.requests.count)
    }

    /// The first attempt reached the edge, which stored the claim, but its answer was lost: the retry is safe,
    /// and the edge answers `already_claimed` without a second customer, saying it is this same claim.
    @Test func aRetryAfterALostAnswerIsAlreadyClaimed() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let proxy = try ScriptedProxy(
            script: [.forwardAndAnswer(status: 502, body: "Bad Gateway")], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let result = try await Tolt.claim(code: "SAM20", appUserId: "lost")
            #expect(
                result
                    == ClaimResult(
                        status: .alreadyClaimed, appUserId: "lost", isSameClaim: true, code: "SAM20", partnerName: "Sam"
                    ))
        }
        #expect(proxy.requests.count == 2)
        #expect(try edge.customer("lost")?.partnerId == "part_sam")
    }

    @Test func aRefusalIsNeverRetried() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let proxy = try ScriptedProxy(script: [], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            await #expect(throws: ToltError.unknownCode) { try await Tolt.claim(code: "NOPE", appUserId: "u") }
            await #expect(throws: ToltError.codeConflict) { try await Tolt.claim(code: "SHARED", appUserId: "u") }
            await #expect(throws: ToltError.invalidRequest) { try await Tolt.claim(code: "", appUserId: "u") }
        }
        #expect(proxy.requests.count == 3)
    }

    /// A claim waiting to retry stops when its task is cancelled, with `CancellationError`, and sends nothing more.
    /// The backoff is a minute (at least 30 s with jitter); the bounds below leave room for a loaded machine.
    @Test func cancellingTheTaskStopsTheRetries() async throws {
        let proxy = try ScriptedProxy(script: [], then: .answer(status: 503, body: Self.unavailable))
        defer { proxy.stop() }
        let slow = RetryPolicy(
            maximumAttempts: 4, initialDelay: 60, maximumDelay: 60, maximumRetryAfter: 1, deadline: 600)
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL, retryPolicy: slow)
        defer { sandbox.remove() }
        let claim = Task(priority: .high) {  // as the suite runs (``HighPriority``)
            try await sandbox.run {
                Tolt.configure(publicId: "pk_acme")
                return try await Tolt.claim(code: "SAM20", appUserId: "u")
            }
        }
        // The first request, however long a loaded run takes to send it (see refusedConnectionsUntilTheEdgeStarts).
        #expect(try await waitUntil(within: 480) { proxy.requests.count == 1 })
        let cancelled = Date()
        claim.cancel()
        await #expect(throws: CancellationError.self) { try await claim.value }
        #expect(Date().timeIntervalSince(cancelled) < 25)
        #expect(proxy.requests.count == 1)
    }
}
