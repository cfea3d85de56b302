import EdgeServer
import TestSupport
import Testing

/// Every link answer names in `Vary` what of the request it was chosen by (RFC 9110 §12.5.5): the User-Agent picks the
/// redirect or the page (a preview for a fetcher, badges by platform, a desktop's QR code), the language a page's
/// words. `no-store` keeps shared caches out; this keeps out one that ignores it (a CDN told to cache everything),
/// which would otherwise hand a phone's redirect, with its click id, to a desktop, or a bot's page to a person.
/// Before, pages said only `Accept-Language` and redirects nothing.
@Suite struct LinkVaryTests {
    @Test func everyAnswerChosenByTheUserAgentVariesByIt() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL("https://l.example") }
        defer { server.shutdown() }
        let client = server.client()
        let answers: [(method: String, path: String, agent: String, status: Int, vary: String)] = [
            ("GET", "/a/pk_acme/SAM20", Agents.iPhone, 302, "User-Agent"),  // the template
            ("GET", "/a/pk_acme/SAM20", Agents.curl, 200, "Accept-Language, User-Agent"),  // a bot: the preview
            ("GET", "/a/pk_acme/LEE", Agents.android, 302, "User-Agent"),  // Google Play
            ("GET", "/a/pk_acme/LEE", Agents.iPhone, 200, "Accept-Language, User-Agent"),  // the fallback page
            ("GET", "/a/pk_acme/LEE", Agents.desktop, 200, "Accept-Language, User-Agent"),  // with its QR code
            ("GET", "/a/pk_acme/SAM20", Agents.desktop, 200, "Accept-Language, User-Agent"),  // a myapp:// template
            ("GET", "/a/pk_acme/SAM20", Agents.slack, 200, "Accept-Language, User-Agent"),  // the preview
            ("HEAD", "/a/pk_acme/SAM20", Agents.iPhone, 200, "Accept-Language, User-Agent"),  // its head
            // The same page for every User-Agent.
            ("GET", "/a/pk_acme/NOPE", Agents.iPhone, 404, "Accept-Language"),
            ("GET", "/a/pk_acme/", Agents.desktop, 404, "Accept-Language"),
        ]
        for answer in answers {
            let response = try client.request(answer.method, answer.path, headers: [("User-Agent", answer.agent)])
            let label = "\(answer.method) \(answer.path) as \(answer.agent)"
            #expect(response.status == answer.status, "\(label)")
            #expect(
                response.headers.filter { $0.name.lowercased() == "vary" }.map(\.value) == [answer.vary], "\(label)")
            #expect(response.header("cache-control") == "no-store", "\(label)")
        }
    }
}
