import Foundation
import TestSupport
import Testing

/// Every answer under `/dashboard` is a dashboard answer, over real sockets: the page security headers on `404`,
/// `405`, `415` and redirects too, a `405` naming the methods of that page, and one address per page (a trailing
/// slash is sent to the path without it).
@Suite struct DashboardRoutingTests {
    /// The headers README promises on every dashboard answer.
    static func expectSecurityHeaders(_ response: TestSupport.HTTPResponse, _ label: String) {
        #expect(response.header("cache-control") == "no-store", "\(label)")
        #expect(response.header("x-frame-options") == "DENY", "\(label)")
        #expect(response.header("referrer-policy") == "same-origin", "\(label)")
        #expect(response.header("x-content-type-options") == "nosniff", "\(label)")
        #expect(
            response.header("content-security-policy")?.contains("frame-ancestors 'none'") == true,
            "\(label): \(response.headers)")
    }

    /// Each page, the methods it answers (its `Allow`), and a method it does not.
    static let pages: [(path: String, allow: String)] = [
        ("/dashboard", "GET, HEAD"), ("/dashboard/sign-in", "GET, HEAD, POST"), ("/dashboard/sign-out", "POST"),
        ("/dashboard/programs", "GET, HEAD"), ("/dashboard/programs/prg_acme/tracking", "GET, HEAD, POST"),
        ("/dashboard/partners", "GET, HEAD, POST"), ("/dashboard/partners/part_sam", "GET, HEAD"),
        ("/dashboard/partners/part_sam/codes", "POST"), ("/dashboard/partners/part_sam/deactivate", "POST"),
        ("/dashboard/partners/part_sam/reactivate", "POST"),
        ("/dashboard/partners/part_sam/codes/SAM20/deactivate", "POST"),
        ("/dashboard/partners/part_sam/codes/SAM20/reactivate", "POST"), ("/dashboard/customers", "GET, HEAD"),
        ("/dashboard/commissions", "GET, HEAD"), ("/dashboard/clicks", "GET, HEAD"),
        ("/dashboard/settings/integrations", "GET, HEAD, POST"),
    ]

    @Test func aMethodAPageDoesNotTakeIs405WithThatPagesAllowAndTheSecurityHeaders() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        for (path, allow) in Self.pages {
            let allowed = allow.components(separatedBy: ", ")
            for method in ["GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "BREW"] where !allowed.contains(method) {
                let response = try client.request(method, path, headers: [("Cookie", "tolt_session=\(session)")])
                #expect(response.status == 405, "\(method) \(path): \(response.status)")
                #expect(
                    response.headers.filter { $0.name == "allow" }.map(\.value) == [allow],
                    "\(method) \(path): \(response.headers)")
                #expect(response.header("content-type")?.hasPrefix("text/html") == true, "\(method) \(path)")
                Self.expectSecurityHeaders(response, "\(method) \(path)")
            }
        }
        // Without a session too: the method is wrong whoever asks.
        let signOut = try client.request("GET", "/dashboard/sign-out")
        #expect(signOut.status == 405 && signOut.header("allow") == "POST")
        Self.expectSecurityHeaders(signOut, "GET /dashboard/sign-out")
    }

    @Test func aTrailingSlashGoesToThePageWithoutItAndUnknownPathsAre404Pages() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        let cookie = [("Cookie", "tolt_session=\(session)")]
        for (path, location) in [
            ("/dashboard/", "/dashboard"), ("/dashboard/programs/", "/dashboard/programs"),
            ("/dashboard/partners//", "/dashboard/partners"),
            ("/dashboard/clicks/?partner_id=part_lee", "/dashboard/clicks?partner_id=part_lee"),
            // The query goes on as it came: rebuilt from its decoded values, `q=%FF` (which the list refuses)
            // became the whole list, a repeated name (refused) its last value, and `%` alone `%25`.
            ("/dashboard/customers/?q=%FF", "/dashboard/customers?q=%FF"),
            ("/dashboard/customers/?q=a&q=b", "/dashboard/customers?q=a&q=b"),
            ("/dashboard/customers/?q=%", "/dashboard/customers?q=%"),
            ("/dashboard/customers/?z=1&a=2", "/dashboard/customers?z=1&a=2"),
            // A byte a Location may not hold as it is (here raw UTF-8) is escaped, in the query and the path alike.
            ("/dashboard/customers/?q=\u{E9}", "/dashboard/customers?q=%C3%A9"),
        ] {
            for method in ["GET", "HEAD"] {
                let response = try client.request(method, path, headers: cookie)
                #expect(response.status == 308, "\(method) \(path): \(response.status)")
                #expect(response.header("location") == location, "\(path): \(response.header("location") ?? "")")
                Self.expectSecurityHeaders(response, path)
            }
        }
        // Followed, the redirect lands on the page.
        #expect(try client.dashboardPage("/dashboard/programs", session: session).status == 200)
        // A form never posts to a trailing slash; an unknown page is the dashboard's 404, headers and all.
        for (method, path) in [
            ("POST", "/dashboard/partners/"), ("GET", "/dashboard/nowhere"), ("GET", "/dashboard//partners"),
            ("DELETE", "/dashboard/nowhere"), ("GET", "/dashboard/partners/part_sam/extra"),
        ] {
            let response = try client.request(method, path, headers: cookie)
            #expect(response.status == 404, "\(method) \(path): \(response.status)")
            #expect(response.header("content-type")?.hasPrefix("text/html") == true, "\(method) \(path)")
            Self.expectSecurityHeaders(response, "\(method) \(path)")
        }
        // A path that only starts with the same letters is not the dashboard's: the API's JSON 404.
        let elsewhere = try client.request("GET", "/dashboards")
        #expect(elsewhere.isError(404, "not_found"), "\(elsewhere.text)")
    }
}

extension DashboardRoutingTests {
    /// Every HTML page of the dashboard names its icon (`data:,`, none): without one a browser asks for
    /// `/favicon.ico`, which is a `404` in its console and in `/metrics` on every first visit.
    @Test func everyHTMLPageNamesAnEmptyIconSoNoBrowserAsksForFaviconICO() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let icon = #"<link rel="icon" href="data:,">"#
        let signIn = try client.request("GET", "/dashboard/sign-in")
        #expect(signIn.status == 200 && signIn.text.contains(icon), "the sign-in page")
        let session = try client.dashboardSession()
        for (path, allow) in Self.pages where allow.hasPrefix("GET") && path != "/dashboard/sign-in" {
            let page = try client.dashboardPage(path, session: session)
            #expect(page.status == 200 && page.text.contains(icon), "\(path): \(page.status)")
        }
        let missing = try client.dashboardPage("/dashboard/partners/part_nobody", session: session)
        #expect(missing.status == 404 && missing.text.contains(icon), "an error page: \(missing.status)")
    }
}
