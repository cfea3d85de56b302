import TestSupport
import Testing

/// A JSON answer can quote the request (an unknown path in a 404's message): it says `nosniff`, so no browser takes
/// it for a page, once (the dashboard's pages, which set their own, do not get a second).
@Suite struct JSONAnswerHeadersTests {
    @Test func jsonAnswersAreNeverSniffedAndSayItOnce() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let unknown = try client.request("GET", "/%3Cscript%3Ealert(1)%3C/script%3E")
        #expect(unknown.status == 404)
        #expect(unknown.header("content-type") == "application/json")
        #expect(unknown.headers.filter { $0.name == "x-content-type-options" }.map(\.value) == ["nosniff"])
        let claim = try client.claim(ClaimBody.make(user: "u1", code: "NOPE"))
        #expect(claim.headers.filter { $0.name == "x-content-type-options" }.map(\.value) == ["nosniff"])
        let signIn = try client.request("GET", "/dashboard/sign-in")
        #expect(signIn.status == 200)
        #expect(signIn.headers.filter { $0.name == "x-content-type-options" }.map(\.value) == ["nosniff"])
    }
}
