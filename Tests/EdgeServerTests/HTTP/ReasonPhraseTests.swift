import TestSupport
import Testing

@testable import EdgeServer

/// The reason phrase of each status the server answers: RFC 9110's, and never another status's (`POST /v1/partners`
/// and `POST /v1/payouts` went out as `HTTP/1.1 201 Internal Server Error`).
@Suite struct ReasonPhraseTests {
    static func phrase(_ status: Int) -> String {
        String(decoding: StaticText.reason(status).bytes, as: UTF8.self)
    }

    @Test func eachStatusHasItsOwnPhrase() {
        for (status, phrase) in [
            (200, "OK"), (201, "Created"), (204, "No Content"), (302, "Found"), (303, "See Other"),
            (307, "Temporary Redirect"), (308, "Permanent Redirect"), (400, "Bad Request"), (401, "Unauthorized"),
            (403, "Forbidden"), (404, "Not Found"), (405, "Method Not Allowed"), (409, "Conflict"),
            (413, "Payload Too Large"), (415, "Unsupported Media Type"), (417, "Expectation Failed"),
            (429, "Too Many Requests"), (500, "Internal Server Error"), (503, "Service Unavailable"),
        ] {
            #expect(Self.phrase(status) == phrase, "\(status)")
        }
        // One not listed is of its class, not an error.
        #expect(Self.phrase(202) == "Success")
        #expect(Self.phrase(422) == "Client Error")
    }

    /// Over a socket, as a client reads the status line.
    @Test func aCreatedPartnerIs201Created() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let body = #"{"name":"Rea","program_id":"prg_acme"}"#
        let request =
            "POST /v1/partners HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_acme_secret\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let response = try server.client().exchange(Array(request.utf8))
        #expect(response.status == 201, "\(response.status) \(response.text)")
        #expect(response.statusLine == "HTTP/1.1 201 Created", "\(response.statusLine)")
    }
}
