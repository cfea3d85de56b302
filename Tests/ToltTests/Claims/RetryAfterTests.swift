import Foundation
import TestSupport
import Testing
import Tolt
import ToltTestSupport

/// What a front before the edge (a CDN, a proxy, a captive portal) may send as `Retry-After`, met by a claim against
/// a real edge: a huge number is read as a day, and the error says so; a value RFC 9110 does not allow counts as none.
@Suite(.highPriority) struct RetryAfterTests {
    static let unavailable = #"{"success":false,"message":"Try again","error":"unavailable"}"#

    /// A wait of 10^20 s is a day: beyond what the SDK waits out, so the claim throws at once, and the error prints.
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
            do {
                let result = try await Tolt.claim(code: "SAM20", appUserId: "u")
                Issue.record("expected a ToltError, got \(result)")
            } catch let error as ToltError {
                #expect(error == .server)
                #expect(error.retryAfter == 86_400)
                #expect("\(error)" == "ToltError: Try again (unavailable, HTTP 503); retry after 86400 s")
            }
        }
        #expect(proxy.requests.count == 1)
        #expect(try edge.customer("u") == nil)
    }

    /// `1e300` is not delay-seconds: a `429` without a readable `Retry-After` waits the policy's minimum, and the
    /// retry reaches the edge.
    @Test func anExponentIsNoRetryAfter() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let limited = ScriptedProxy.Step.answer(
            status: 429, headers: ["Retry-After": "1e300"],
            body: #"{"success":false,"message":"Slow down","error":"rate_limited"}"#)
        let proxy = try ScriptedProxy(script: [limited], upstreamPort: edge.port)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            #expect(try await Tolt.claim(code: "SAM20", appUserId: "u").status == .claimed)
        }
        #expect(proxy.requests.count == 2)
        #expect(try edge.customer("u")?.partnerId == "part_sam")
    }
}
