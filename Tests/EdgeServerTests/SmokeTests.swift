import Testing

@testable import EdgeServer

@Suite struct SmokeTests {
    @Test func healthzAnswers() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request("GET", "/healthz")
        #expect(response.status == 200)
        #expect(response.text == "ok\n")
    }
}
