import Foundation
import TestSupport
import Testing

/// What README promises a browser that has not signed in: the sign-in form's own cookie (`tolt_signin`: an hour,
/// `HttpOnly`, `SameSite=Strict`, on `/dashboard` only), and a path that is no page answered as every page is without
/// a session (`303` to sign-in, a `POST` `403`), so it does not learn which pages exist; signed in, the `404` page.
@Suite struct DashboardSignedOutTests {
    @Test func theSignInCookieIsStrictHttpOnlyAndLastsAnHour() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let form = try client.request("GET", "/dashboard/sign-in")
        #expect(form.status == 200)
        let cookie = try #require(form.header("set-cookie"))
        #expect(cookie.hasPrefix("tolt_signin="))
        let attributes = cookie.components(separatedBy: "; ").dropFirst()
        #expect(Set(attributes) == ["Path=/dashboard", "Max-Age=3600", "HttpOnly", "SameSite=Strict"], "\(cookie)")
        // A failed sign-in sets a fresh one, with the same attributes.
        let refused = try client.dashboardSignIn("sk_wrong_key")
        #expect(refused.status == 401)
        let again = try #require(refused.header("set-cookie"))
        #expect(again.hasPrefix("tolt_signin=") && again.hasSuffix("; Max-Age=3600; HttpOnly; SameSite=Strict"))
    }

    @Test func withoutASessionAPathThatIsNoPageGoesToSignInAndWithOneItIsThe404Page() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let unknown = ["/dashboard/nowhere", "/dashboard//partners", "/dashboard/partners/part_sam/extra"]
        for path in unknown {
            for method in ["GET", "HEAD"] {
                let response = try client.request(method, path)
                #expect(response.status == 303, "\(method) \(path): \(response.status)")
                #expect(response.header("location") == "/dashboard/sign-in", "\(method) \(path)")
                DashboardRoutingTests.expectSecurityHeaders(response, "\(method) \(path)")
            }
            let post = try client.dashboardPost(path, session: nil, fields: [("name", "x")])
            #expect(post.status == 403, "POST \(path): \(post.status)")
            // A method no page takes is 404 whoever asks.
            #expect(try client.request("DELETE", path).status == 404, "DELETE \(path)")
        }
        let session = try client.dashboardSession()
        for path in unknown {
            let response = try client.dashboardPage(path, session: session)
            #expect(response.status == 404, "\(path) signed in: \(response.status)")
            #expect(response.header("content-type")?.hasPrefix("text/html") == true)
        }
    }
}
