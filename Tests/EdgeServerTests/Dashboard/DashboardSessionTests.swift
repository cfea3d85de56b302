import Foundation
import LinkCore
import TestSupport
import Testing

/// The dashboard's sign-in, sessions and CSRF tokens over real sockets: what is refused, and the headers every page
/// carries. The browser tests (`DashboardBrowserTests`) show the same as a person sees it.
@Suite struct DashboardSessionTests {
    @Test func signingInSetsAStrictHttpOnlyCookieAndPagesCarryTheirSecurityHeaders() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let response = try client.dashboardSignIn("sk_acme_secret")
        #expect(response.status == 303)
        #expect(response.header("location") == "/dashboard")
        let cookie = try #require(response.header("set-cookie"))
        #expect(cookie.hasPrefix("tolt_session=org_acme."))
        for attribute in ["; Path=/dashboard", "; Max-Age=28800", "; HttpOnly", "; SameSite=Strict"] {
            #expect(cookie.contains(attribute), "\(cookie)")
        }
        #expect(!cookie.contains("Secure"), "no TLS here")
        // The sign-in form's cookie is expired with it: kept, it would ride beside the session on every page.
        let cookies = response.headers.filter { $0.name == "set-cookie" }.map(\.value)
        #expect(cookies.count == 2 && cookies[1].hasPrefix("tolt_signin=; Path=/dashboard; Max-Age=0"), "\(cookies)")
        let session = try #require(DashboardForms.sessionValue(in: cookie))
        let page = try client.dashboardPage("/dashboard", session: session)
        #expect(page.status == 200)
        #expect(page.header("cache-control") == "no-store")
        #expect(page.header("x-frame-options") == "DENY")
        #expect(page.header("referrer-policy") == "same-origin")
        let policy = try #require(page.header("content-security-policy"))
        #expect(policy.contains("default-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        // The page's inline style and script carry the nonce the policy names.
        let nonce = try #require(policy.range(of: "'nonce-").map { policy[$0.upperBound...].prefix { $0 != "'" } })
        #expect(page.text.contains("<style nonce=\"\(nonce)\">"))
        #expect(page.text.contains("<script nonce=\"\(nonce)\">"))
        #expect(page.text.contains("Tolt Edge · Acme"))
    }

    @Test func withoutASessionPagesSendToSignInAndFormsAreRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for path in ["/dashboard", "/dashboard/partners", "/dashboard/programs/prg_acme/tracking"] {
            let response = try client.request("GET", path)
            #expect(response.status == 303, "\(path)")
            #expect(response.header("location") == "/dashboard/sign-in", "\(path)")
        }
        let post = try client.dashboardPost(
            "/dashboard/programs/prg_acme/tracking", session: nil, fields: [("deep_link_template", "x://y")])
        #expect(post.status == 403)
    }

    @Test func aWrongKeyIsRefusedAndAnotherOrganizationsKeyOpensOnlyItsOwnPages() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        // An empty key tries none: the form again, saying what to enter.
        let empty = try client.dashboardSignIn("")
        #expect(empty.status == 400 && empty.text.contains("Enter the organization"), "\(empty.text)")
        #expect(empty.header("set-cookie")?.hasPrefix("tolt_signin=") == true)
        for key in ["sk_acme_secre", "SK_ACME_SECRET", "pk_acme", String(repeating: "k", count: 300)] {
            let response = try client.dashboardSignIn(key)
            #expect(response.status == 401, "\(key)")
            if response.status == 401 {
                // No session: only the form again, with a fresh sign-in token.
                #expect(response.header("set-cookie")?.hasPrefix("tolt_signin=") == true)
                #expect(response.text.contains("That secret key is not valid."))
            }
        }
        let other = try client.dashboardSession("sk_other_secret")
        let page = try client.dashboardPage("/dashboard/programs/prg_acme/tracking", session: other)
        #expect(page.status == 404, "org_other cannot see org_acme's program")
        let partner = try client.dashboardPage("/dashboard/partners/part_sam", session: other)
        #expect(partner.status == 404)
    }

    @Test func aFormWithoutItsCSRFTokenOrWithAnotherSessionsTokenIsRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        let otherSession = try client.dashboardSession("sk_other_secret")
        let otherToken = try #require(
            DashboardForms.csrfToken(in: try client.dashboardPage("/dashboard", session: otherSession).text))
        let path = "/dashboard/programs/prg_acme/tracking"
        let fields = [("deep_link_template", "forged://x?c={code}")]
        #expect(try client.dashboardPost(path, session: session, fields: fields).status == 403)
        #expect(try client.dashboardPost(path, session: session, fields: fields + [("csrf_token", "")]).status == 403)
        #expect(
            try client.dashboardPost(path, session: session, fields: fields + [("csrf_token", otherToken)]).status
                == 403)
        let stored = try server.store.configRecords().programs.first { $0.id == "prg_acme" }
        #expect(stored?.deepLinkTemplate == "myapp://claim?tolt_code={code}&tolt_click={click_id}")
        // With its own token the same form saves.
        let token = try #require(DashboardForms.csrfToken(in: try client.dashboardPage(path, session: session).text))
        let saved = try client.dashboardPost(
            path, session: session,
            fields: fields + [("csrf_token", token), ("claim_window_days", "30"), ("commission_type", "none")])
        #expect(saved.status == 303, "\(saved.text)")
        let changed = try server.store.configRecords().programs.first { $0.id == "prg_acme" }
        #expect(changed?.deepLinkTemplate == "forged://x?c={code}")
    }

    @Test func anExpiredOrAlteredSessionIsRefused() throws {
        let server = try TestServer { $0.dashboardSessionLifetime = 1 }
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        let parts = session.split(separator: ".").map(String.init)
        try #require(parts.count == 4)
        // A later start or expiry under the same MAC, another organization's id, the old format's shape: all forged.
        let later = "\(parts[0]).\(parts[1]).\(Int64(parts[2])! + 3600).\(parts[3])"
        let laterStart = "\(parts[0]).\(Int64(parts[1])! + 30).\(parts[2]).\(parts[3])"
        let otherID = "org_other.\(parts[1]).\(parts[2]).\(parts[3])"
        let withoutStart = "\(parts[0]).\(parts[2]).\(parts[3])"
        for forged in [later, laterStart, otherID, withoutStart, parts[0] + "..." + parts[3], session + "x"] {
            let response = try client.dashboardPage("/dashboard", session: forged)
            #expect(response.status == 303, "\(forged)")
        }
        // The real one works until its second has passed, then sends to sign-in.
        let expired = eventually(within: 5) {
            (try? client.dashboardPage("/dashboard", session: session))?.header("location") == "/dashboard/sign-in"
        }
        #expect(expired)
    }

    /// The MAC covers the expiry as a number: another spelling of the same number (a sign, leading zeros) under the
    /// same MAC would be a second cookie for one session, with a CSRF token of its own. Only the one the server
    /// wrote is taken.
    @Test func aSessionCookieHasExactlyOneValidSpelling() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        let parts = session.split(separator: ".").map(String.init)
        try #require(parts.count == 4)
        #expect(try client.dashboardPage("/dashboard", session: session).status == 200)
        let (id, start, expiry, mac) = (parts[0], parts[1], parts[2], parts[3])
        for variant in [
            "\(id).0\(start).\(expiry).\(mac)", "\(id).+\(start).\(expiry).\(mac)",
            "\(id).\(start).0\(expiry).\(mac)", "\(id).\(start).00\(expiry).\(mac)",
            "\(id).\(start).+\(expiry).\(mac)", "\(id).\(start).\(expiry).\(mac.uppercased())",
        ] {
            let response = try client.dashboardPage("/dashboard", session: variant)
            #expect(response.status == 303, "\(variant)")
            #expect(response.header("location") == "/dashboard/sign-in", "\(variant)")
            // Nor does a form posted with it (and the token a page would give it) go through.
            let post = try client.dashboardPost(
                "/dashboard/partners", session: variant,
                fields: [("csrf_token", "00"), ("program_id", "prg_acme"), ("name", "Variant")])
            #expect(post.status == 403, "\(variant)")
        }
        #expect(try server.store.configRecords().partners.allSatisfy { $0.name != "Variant" })
    }

    /// An operator who shortens `--dashboard-session` (a laptop was lost) restarts the node: the sessions it gave
    /// before end as the new lifetime says, counted from their sign-in, not when the longer one they were given runs
    /// out. A session of 60 s, 2 s old, under a lifetime of 1 s is over; it lasted its 60 s before.
    @Test func aShorterSessionLifetimeAfterARestartShortensTheSessionsAlreadyGiven() throws {
        let server = try TestServer { $0.dashboardSessionLifetime = 60 }
        defer { server.shutdown() }
        let session = try server.client().dashboardSession()
        #expect(try server.client().dashboardPage("/dashboard", session: session).status == 200)
        try server.restart { $0.dashboardSessionLifetime = 1 }
        let ended = eventually(within: 5) {
            (try? server.client().dashboardPage("/dashboard", session: session))?.header("location")
                == "/dashboard/sign-in"
        }
        #expect(ended)
    }

    @Test func importingANewSecretKeyEndsTheOrganizationsSessions() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        #expect(try client.dashboardPage("/dashboard", session: session).status == 200)
        try server.importConfig(#"{"organizations":[{"id":"org_acme","secret_key":"sk_acme_rotated"}]}"#)
        let ended = eventually(within: 5) {
            (try? client.dashboardPage("/dashboard", session: session))?.status == 303
        }
        #expect(ended)
        #expect(try client.dashboardSignIn("sk_acme_secret").status == 401)
        let fresh = try client.dashboardSession("sk_acme_rotated")
        #expect(try client.dashboardPage("/dashboard", session: fresh).status == 200)
    }

    /// Login CSRF: a sign-in post without the token its form was given (as another site's page would send it: no
    /// `SameSite=Strict` cookie, or a token of its own) signs nobody in, even with the right key.
    @Test func aSignInWithoutItsFormsTokenIsRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let bare = try client.dashboardSignIn("sk_acme_secret", withToken: false)
        #expect(bare.status == 403)
        #expect(bare.header("set-cookie")?.hasPrefix("tolt_session=") != true)
        let form = try client.request("GET", "/dashboard/sign-in")
        let token = try #require(DashboardForms.csrfToken(in: form.text))
        let forged = try client.request(
            "POST", "/dashboard/sign-in",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("Cookie", "tolt_signin=00000000000000000000000000000000"),
            ],
            body: Array("csrf_token=\(token)&secret_key=sk_acme_secret".utf8))
        #expect(forged.status == 403)
        #expect(try client.dashboardSignIn("sk_acme_secret").status == 303)
    }

    @Test func signInAttemptsAreLimitedPerClient() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        var statuses: [Int] = []
        for _ in 0..<11 { statuses.append(try client.dashboardSignIn("wrong-key").status) }
        #expect(statuses == Array(repeating: 401, count: 10) + [429])
        let limited = try client.dashboardSignIn("sk_acme_secret")
        #expect(limited.status == 429, "even the right key waits out the window")
        #expect(limited.header("retry-after") != nil)
        #expect(limited.header("set-cookie")?.hasPrefix("tolt_signin=") == true, "no session, the form again")
    }

    /// A post another site's page makes a browser send (no `tolt_signin` cookie, since it is `SameSite=Strict`, and
    /// so no matching token) cannot test a key: it is refused `403` and not counted, so such posts cannot lock the
    /// network out of signing in. Real attempts, with the form's token, still are.
    @Test func postsRefusedForTheirTokenAreNotCountedAsAttempts() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for _ in 0..<30 {
            #expect(try client.dashboardSignIn("wrong-key", withToken: false).status == 403)
        }
        #expect(try client.dashboardSignIn("sk_acme_secret").status == 303, "not locked out by refused posts")
        var statuses: [Int] = []
        for _ in 0..<10 { statuses.append(try client.dashboardSignIn("wrong-key").status) }
        #expect(statuses == Array(repeating: 401, count: 9) + [429], "the sign-in above was the first of ten")
    }

    @Test func signingOutClearsTheCookieAndNeedsTheToken() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        #expect(try client.dashboardPost("/dashboard/sign-out", session: session, fields: []).status == 403)
        let token = try #require(
            DashboardForms.csrfToken(in: try client.dashboardPage("/dashboard", session: session).text))
        let out = try client.dashboardPost("/dashboard/sign-out", session: session, fields: [("csrf_token", token)])
        #expect(out.status == 303)
        #expect(out.header("location") == "/dashboard/sign-in")
        #expect(out.header("set-cookie")?.hasPrefix("tolt_session=; Path=/dashboard; Max-Age=0") == true)
    }

    @Test func aSessionLifetimeOutsideOneSecondToADayIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for value in ["0", "25h", "8 hours", "-1"] {
            let child = try ChildProcess(
                ["serve", "--port", "0", "--data", directory.path + "/data", "--dashboard-session", value],
                outputIn: directory.path, label: "bad-session")
            #expect(child.waitForExit(within: 10)?.status == 2, "\(value)")
            #expect(child.stderr.contains("--dashboard-session must be"), "\(value): \(child.stderr)")
        }
    }
}
