import Foundation
import TestSupport
import Testing
import Tolt
import ToltTestSupport

/// Each `ToltError` from a real edge (or, for what the edge itself never answers, a scripted front): the
/// machine code mapped, with the edge's status and message.
@Suite(.highPriority) struct ClaimErrorTests {
    /// Runs `body` with the SDK configured for `pk_acme` on a fresh edge.
    static func withEdge(
        publicId: String = "pk_acme", _ body: (EdgeTestServer) async throws -> Void
    ) async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: publicId)
            try await body(edge)
        }
    }

    /// The `ToltError` that `claim` throws, failing the test when it throws something else or nothing.
    static func failure(_ claim: () async throws -> ClaimResult?) async -> ToltError? {
        do {
            let result = try await claim()
            Issue.record("expected a ToltError, got \(String(describing: result))")
        } catch let error as ToltError {
            return error
        } catch {
            Issue.record("expected a ToltError, got \(error)")
        }
        return nil
    }

    @Test func aClaimBeforeConfigureSaysSo() async throws {
        let sandbox = try ToltSandbox(defaultBaseURL: URL(string: "http://127.0.0.1:9")!)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            let error = await Self.failure { try await Tolt.claim(code: "SAM20", appUserId: "u") }
            #expect(error == .notConfigured)
            #expect(error?.message == "Call Tolt.configure(publicId:) once at launch, before Tolt.claim")
            #expect(await Self.failure { try await Tolt.claim(clickId: "clk_x", appUserId: "u") } == .notConfigured)
            let link = URL(string: "myapp://claim?tolt_code=SAM20")!
            #expect(await Self.failure { try await Tolt.claim(url: link, appUserId: "u") } == .notConfigured)
            let referrer = "tolt_code=SAM20"
            #expect(
                await Self.failure { try await Tolt.claim(installReferrer: referrer, appUserId: "u") } == .notConfigured
            )
        }
    }

    @Test func unknownPublicKey() async throws {
        try await Self.withEdge(publicId: "pk_nope") { (_) async throws in
            let error = await Self.failure { try await Tolt.claim(code: "SAM20", appUserId: "u") }
            #expect(error == .unknownPublicKey)
            #expect(error?.code == "unknown_public_key")
            #expect(error?.httpStatus == 404)
            #expect(error?.message == "public_id does not name an organization")
        }
    }

    @Test func unknownCodeForUnknownOrInactiveCodesAndPartners() async throws {
        try await Self.withEdge { (edge) async throws in
            for code in ["NOPE", "OLD10", "IDLE5", "ZED"] {
                let error = await Self.failure { try await Tolt.claim(code: code, appUserId: "u-\(code)") }
                #expect(error == .unknownCode, "\(code)")
                #expect(error?.httpStatus == 404)
            }
            #expect(try edge.customer("u-NOPE") == nil)
        }
    }

    @Test func unknownClickForAForgedOrAlteredClick() async throws {
        try await Self.withEdge { (edge) async throws in
            let tap = try edge.tap(code: "SAM20", userAgent: Agents.iPhone)
            let click = try ClaimFormTests.clickID(in: tap)
            var altered = Array(click)
            altered[20] = altered[20] == "A" ? "B" : "A"
            for forged in ["clk_nope", String(altered), "clk_" + String(repeating: "A", count: 40)] {
                let error = await Self.failure { try await Tolt.claim(clickId: forged, appUserId: "u") }
                #expect(error == .unknownClick, "\(forged)")
                #expect(error?.code == "unknown_click")
            }
        }
    }

    @Test func codeConflictForACodeTwoPartnersHold() async throws {
        try await Self.withEdge { (_) async throws in
            let error = await Self.failure { try await Tolt.claim(code: "SHARED", appUserId: "u") }
            #expect(error == .codeConflict)
            #expect(error?.httpStatus == 409)
        }
    }

    @Test func invalidRequestForWhatTheEdgeRefusesAsSent() async throws {
        try await Self.withEdge { (_) async throws in
            let long = String(repeating: "u", count: 257)
            for (code, user) in [("SAM20", long), ("SAM20", ""), ("", "u")] {
                let error = await Self.failure { try await Tolt.claim(code: code, appUserId: user) }
                #expect(error == .invalidRequest, "code \(code.count) user \(user.count)")
                #expect(error?.httpStatus == 400)
            }
            // 256 characters is still fine.
            let longest = String(repeating: "é", count: 256)
            #expect(try await Tolt.claim(code: "SAM20", appUserId: longest).status == .claimed)
        }
    }

    /// The 31st claim in a minute from one address gets the edge's real 429; its `Retry-After` (up to 60 s) is
    /// longer than this policy waits, so it is thrown at once, with the wait, after one request.
    @Test func rateLimitedWithRetryAfter() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let proxy = try ScriptedProxy(script: [], upstreamPort: edge.port)
        defer { proxy.stop() }
        var policy = ToltSandbox.quickRetries
        policy.maximumRetryAfter = 0.5
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL, retryPolicy: policy)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            for index in 1...30 {
                let error = await Self.failure { try await Tolt.claim(code: "NOPE", appUserId: "u\(index)") }
                #expect(error == .unknownCode, "claim \(index)")
            }
            let error = await Self.failure { try await Tolt.claim(code: "SAM20", appUserId: "late") }
            #expect(error == .rateLimited)
            #expect(error?.code == "rate_limited")
            #expect(error?.httpStatus == 429)
            let wait = try #require(error?.retryAfter)
            #expect(wait >= 1 && wait <= 60)
            #expect(error?.message.contains("30") == true)
        }
        // Each 404 once (never retried), the 429 once.
        #expect(proxy.requests.count == 31)
        #expect(try edge.customer("late") == nil)
    }

    @Test func networkWhenNothingListens() async throws {
        let port = try Ports.reserve()  // nothing listens there
        let sandbox = try ToltSandbox(defaultBaseURL: URL(string: "http://127.0.0.1:\(port)")!)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let error = await Self.failure { try await Tolt.claim(code: "SAM20", appUserId: "u") }
            #expect(error == .network)
            #expect(error?.urlErrorCode == .cannotConnectToHost)
            #expect(error?.httpStatus == nil)
        }
    }

    @Test func networkAfterEveryAttemptIsReset() async throws {
        let proxy = try ScriptedProxy(script: [], then: .reset)
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let error = await Self.failure { try await Tolt.claim(code: "SAM20", appUserId: "u") }
            #expect(error == .network)
            #expect(error?.urlErrorCode != nil)
        }
        #expect(proxy.connections == ToltSandbox.quickRetries.maximumAttempts)
    }

    @Test func serverWhenEveryAttemptGets5xx() async throws {
        let unavailable = #"{"success":false,"message":"The edge is draining","error":"unavailable"}"#
        let proxy = try ScriptedProxy(script: [], then: .answer(status: 503, body: unavailable))
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let error = await Self.failure { try await Tolt.claim(code: "SAM20", appUserId: "u") }
            #expect(error == .server)
            #expect(error?.httpStatus == 503)
            #expect(error?.code == "unavailable")
            #expect(error?.message == "The edge is draining")
        }
        #expect(proxy.requests.count == ToltSandbox.quickRetries.maximumAttempts)
    }

    @Test func unexpectedResponseForAnAnswerThatIsNotTheEdges() async throws {
        let proxy = try ScriptedProxy(
            script: [], then: .answer(status: 200, headers: ["Content-Type": "text/html"], body: "<h1>Wi-Fi login</h1>")
        )
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let error = await Self.failure { try await Tolt.claim(code: "SAM20", appUserId: "u") }
            #expect(error == .unexpectedResponse)
            #expect(error?.httpStatus == 200)
            #expect(error?.message.contains("Wi-Fi login") == true)
        }
        #expect(proxy.requests.count == 1)
    }
}
