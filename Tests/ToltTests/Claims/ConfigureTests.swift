import Foundation
import TestSupport
import Testing
import ToltTestSupport

@testable import Tolt

/// What `configure` points claims at, and the request a claim sends, as a scripted front receives it.
@Suite(.highPriority) struct ConfigureTests {
    static let claimed = #"{"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"u"}}"#

    @Test func configureWithoutABaseURLUsesTheProductionEdge() async throws {
        #expect(Tolt.defaultBaseURL.absoluteString == "https://edge.tolt.io")
        #expect(ToltState.shared.defaultBaseURL == Tolt.defaultBaseURL)
        // Configuring stores the first open: in this test's directory, never in the machine's own places.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = ToltState(storage: .directory(URL(fileURLWithPath: directory.path + "/Tolt")))
        #expect(throws: ToltError.notConfigured) { try state.configuredClient() }
        state.configure(publicId: "pk_live", baseURL: nil)
        let client = try state.configuredClient()
        #expect(client.endpoint.absoluteString == "https://edge.tolt.io/client/claims")
        #expect(client.publicId == "pk_live")
        #expect(client.policy == .standard)
        // Stored before the directory is removed, so that nothing writes it again after.
        let firstOpen = try #require(await state.firstOpenDate)
        let stored = try #require(state.storage.load())
        #expect(abs(stored.timeIntervalSince(firstOpen)) < 0.001)
    }

    @Test func aSelfHostedEdgeWithOrWithoutAPath() {
        for (base, endpoint) in [
            ("https://links.example.com", "https://links.example.com/client/claims"),
            ("https://links.example.com/", "https://links.example.com/client/claims"),
            ("https://example.com/tolt", "https://example.com/tolt/client/claims"),
            ("http://127.0.0.1:8080/tolt/", "http://127.0.0.1:8080/tolt/client/claims"),
        ] {
            #expect(ClaimClient.endpoint(baseURL: URL(string: base)!).absoluteString == endpoint)
        }
    }

    @Test func theRequestAClaimSends() async throws {
        let proxy = try ScriptedProxy(script: [], then: .answer(status: 200, body: Self.claimed))
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: URL(string: "http://127.0.0.1:9")!)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme", baseURL: proxy.baseURL.appendingPathComponent("edge"))
            _ = try await Tolt.claim(code: "SAM20", appUserId: "user \"1\"")
            _ = try await Tolt.claim(clickId: "clk_abc", appUserId: "user-2")
        }
        let firstOpen = try #require(sandbox.storage.load())
        let seen = EdgeTime.milliseconds(firstOpen)
        #expect(proxy.requests.count == 2)
        for request in proxy.requests {
            #expect(request.method == "POST")
            #expect(request.path == "/edge/client/claims")
            #expect(request.headers["content-type"] == "application/json")
        }
        let bodies = try proxy.requests.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.body)) as? [String: String])
        }
        #expect(
            bodies[0] == ["public_id": "pk_acme", "app_user_id": "user \"1\"", "code": "SAM20", "first_seen_at": seen])
        #expect(
            bodies[1] == [
                "public_id": "pk_acme", "app_user_id": "user-2", "click_id": "clk_abc", "first_seen_at": seen,
            ])
    }

    @Test func configuringAgainReplacesTheKey() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_other")
            #expect(try await Tolt.claim(code: "ZED", appUserId: "u").status == .claimed)
            Tolt.configure(publicId: "pk_acme")
            await #expect(throws: ToltError.unknownCode) { try await Tolt.claim(code: "ZED", appUserId: "v") }
            #expect(try await Tolt.claim(code: "SAM20", appUserId: "v").status == .claimed)
        }
        #expect(try edge.customer("u", secretKey: "sk_other_secret")?.partnerId == "part_zed")
    }

    /// Claims from many tasks at once, with `configure` called among them: each ends in a result or a clean
    /// error, and the edge keeps one customer per user.
    @Test func concurrentClaimsAndConfigures() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        let statuses = try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            return try await withThrowingTaskGroup(of: ClaimResult.Status.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        if index % 5 == 0 { Tolt.configure(publicId: "pk_acme") }
                        return try await Tolt.claim(code: index % 2 == 0 ? "SAM20" : "LEE", appUserId: "racer").status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses.filter { $0 == .claimed }.count == 1)
        #expect(statuses.filter { $0 == .alreadyClaimed }.count == 19)
        #expect(try edge.customer("racer") != nil)
    }
}
