import Foundation
import TestSupport
import Testing

/// README: when the server speaks TLS, the dashboard's cookies (the session's, the sign-in form's, and the one
/// sign-out sends to remove the session) say `Secure`; ``DashboardSessionTests`` pins their absence without TLS.
@Suite struct DashboardTLSCookieTests {
    @Test func overTLSTheSessionAndSignInCookiesAreSecure() throws {
        let server = try TLSTestServer()
        defer { server.shutdown() }
        let client = try server.client()
        let form = try client.request("GET", "/dashboard/sign-in")
        let signInCookie = try #require(form.header("set-cookie"))
        #expect(signInCookie.hasPrefix("tolt_signin=") && signInCookie.hasSuffix("; SameSite=Strict; Secure"))
        let token = try #require(DashboardForms.csrfToken(in: form.text))
        let signInValue = signInCookie.dropFirst("tolt_signin=".count).prefix { $0 != ";" }
        let signedIn = try client.request(
            "POST", "/dashboard/sign-in",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "tolt_signin=\(signInValue)"),
            ],
            body: Array("csrf_token=\(token)&secret_key=sk_acme_secret".utf8))
        #expect(signedIn.status == 303, "\(signedIn.status) \(signedIn.text)")
        let sessionCookie = try #require(signedIn.header("set-cookie"))
        #expect(sessionCookie.hasPrefix("tolt_session=org_acme."))
        for attribute in ["Path=/dashboard", "Max-Age=28800", "HttpOnly", "SameSite=Strict", "Secure"] {
            #expect(sessionCookie.components(separatedBy: "; ").contains(attribute), "\(sessionCookie)")
        }
        let session = try #require(DashboardForms.sessionValue(in: sessionCookie))
        let page = try client.request("GET", "/dashboard", headers: [("Cookie", "tolt_session=\(session)")])
        #expect(page.status == 200)
        let csrf = try #require(DashboardForms.csrfToken(in: page.text))
        let signOut = try client.request(
            "POST", "/dashboard/sign-out",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "tolt_session=\(session)"),
            ],
            body: Array("csrf_token=\(csrf)".utf8))
        let cleared = try #require(signOut.header("set-cookie"), "\(signOut.status)")
        #expect(cleared.hasPrefix("tolt_session=;") && cleared.contains("Max-Age=0") && cleared.hasSuffix("; Secure"))
    }
}
