import Foundation
import TestSupport
import Testing

/// Settings → Integrations shows a claim `curl` that works as copied: one of the organization's active codes (not a
/// fixed `SAM20` it may not have), `first_seen_at` when that code's program has a claim window (which requires it),
/// or a plain placeholder when the organization has no code; and it says the claim is real.
@Suite struct DashboardClaimCurlTests {
    /// The JSON body of the page's `curl` (`-d '…'`), as the shell passes it.
    static func curlBody(_ page: String) throws -> String {
        let start = try #require(page.range(of: #"<pre id="claim-curl">"#)).upperBound
        let curl = String(page[start...].prefix { $0 != "<" })
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        let body = try #require(curl.range(of: "-d '")).upperBound
        return String(curl[body...].dropLast())
    }

    @Test func theCurlClaimsAnActiveCodeWithTheFirstOpenTheWindowNeeds() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        let page = try client.dashboardPage("/dashboard/settings/integrations", session: session).text
        let body = try Self.curlBody(page)
        #expect(body.contains(#""code":"SAM20""#) && body.contains(#""first_seen_at":"#), "\(body)")
        #expect(page.contains("Running it makes a real claim"))
        // As copied: prg_acme's 30-day window needs first_seen_at, which the curl sends.
        let claimed = try client.claim(body)
        #expect(claimed.status == 200, "\(claimed.text)")
        #expect(claimed.text.contains(#""status":"claimed""#), "\(claimed.text)")

        // org_other's only program has no window: no first_seen_at, and its own code.
        let other = try client.dashboardPage(
            "/dashboard/settings/integrations", session: try client.dashboardSession("sk_other_secret")
        ).text
        let otherBody = try Self.curlBody(other)
        #expect(otherBody.contains(#""code":"ZED""#) && !otherBody.contains("first_seen_at"), "\(otherBody)")
        #expect(try client.claim(otherBody).status == 200)
    }

    @Test func anOrganizationWithoutAnActiveCodeGetsAPlaceholder() throws {
        let server = try TestServer(
            config: """
                {"organizations":[{"id":"org_new","name":"New","public_key":"pk_new","secret_key":"sk_new_secret",
                  "programs":[{"id":"prg_new","name":"New","claim_window_days":7,"partners":[
                    {"id":"part_off","name":"Off","codes":[{"code":"OFF1","active":false}]},
                    {"id":"part_gone","name":"Gone","status":"inactive","codes":[{"code":"GONE1"}]}]}]}]}
                """)
        defer { server.shutdown() }
        let client = server.client()
        let page = try client.dashboardPage(
            "/dashboard/settings/integrations", session: try client.dashboardSession("sk_new_secret")
        ).text
        let body = try Self.curlBody(page)
        #expect(body.contains(#""code":"YOUR_CODE""#), "\(body)")
        #expect(page.contains("Your organization has no active code yet"))
    }
}
