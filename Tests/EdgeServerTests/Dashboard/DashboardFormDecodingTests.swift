import Foundation
import LinkCore
import TestSupport
import Testing

/// How the dashboard reads a form post, over real sockets: only `application/x-www-form-urlencoded` (`415` else),
/// one CSRF token (`403` for two), strict percent-encoding and UTF-8 without control characters (`400` with the form
/// shown again and a message that says so, never a raw NUL echoed), numbers refused in the form's words; and in
/// every refused case nothing is stored.
@Suite struct DashboardFormDecodingTests {
    /// `POST path` with `body` exactly as given.
    static func post(
        _ client: HTTPClient, _ path: String, session: String, body: String,
        contentType: String? = "application/x-www-form-urlencoded"
    ) throws -> TestSupport.HTTPResponse {
        var headers = [("Cookie", "tolt_session=\(session)")]
        if let contentType { headers.append(("Content-Type", contentType)) }
        return try client.request("POST", path, headers: headers, body: Array(body.utf8))
    }

    @Test func onlyURLEncodedFormsAreTakenAndATokenSentTwiceIsRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        let body = "csrf_token=\(token)&program_id=prg_acme&name=TP"
        for contentType in [
            "text/plain", "", nil, "multipart/form-data; boundary=x", "application/json",
            "application/x-www-form-urlencoded; charset=iso-8859-1", "application/x-www-form-urlencodedx",
        ] as [String?] {
            let response = try Self.post(
                client, "/dashboard/partners", session: session, body: body, contentType: contentType)
            #expect(response.status == 415, "\(contentType ?? "none"): \(response.status)")
            #expect(response.text.contains("application/x-www-form-urlencoded"), "\(response.text)")
            DashboardRoutingTests.expectSecurityHeaders(response, contentType ?? "none")
        }
        // The sign-in form too.
        let signIn = try client.request(
            "POST", "/dashboard/sign-in", headers: [("Content-Type", "text/plain")], body: Array("secret_key=x".utf8))
        #expect(signIn.status == 415)
        #expect(try server.store.configRecords() == before)
        // The last token no longer wins over a first one: two tokens are refused, in either order.
        for twice in ["csrf_token=00&csrf_token=\(token)", "csrf_token=\(token)&csrf_token=\(token)"] {
            let response = try Self.post(
                client, "/dashboard/partners", session: session, body: twice + "&program_id=prg_acme&name=Twice")
            #expect(response.status == 403, "\(twice): \(response.status)")
        }
        #expect(try server.store.configRecords() == before)
        // The charset parameter is allowed, in any case.
        for contentType in [
            "application/x-www-form-urlencoded; charset=UTF-8", "Application/X-WWW-Form-URLEncoded;charset=utf-8",
        ] {
            let name = "Charset \(contentType.count)"
            let response = try Self.post(
                client, "/dashboard/partners", session: session,
                body: "csrf_token=\(token)&program_id=prg_acme&name="
                    + DashboardForms.encode(name), contentType: contentType)
            #expect(response.status == 303, "\(contentType): \(response.status) \(response.text)")
        }
    }

    @Test func aBadlyEncodedFieldIsRefusedWithTheFormShownAgainAndNothingStored() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        for (name, message) in [
            ("%ZZ%", "was not encoded properly"), ("a%2", "was not encoded properly"),
            ("ab%", "was not encoded properly"),
            ("%C3%28%FF", "was not encoded properly"), ("a%00b", "contains characters that are not allowed"),
            ("a%0Ab", "contains characters that are not allowed"),
            ("a%C2%85b", "contains characters that are not allowed"),
        ] {
            let response = try Self.post(
                client, "/dashboard/partners", session: session,
                body: "csrf_token=\(token)&program_id=prg_acme&name=\(name)")
            #expect(response.status == 400, "\(name): \(response.status)")
            #expect(response.text.contains(message), "\(name): \(response.text)")
            #expect(!response.text.contains("is required"), "\(name): never a misleading message")
            #expect(response.text.contains(#"<form class="stack" method="post" action="/dashboard/partners""#))
            #expect(!response.body.contains(0), "\(name): no raw NUL echoed")
        }
        // The NUL is shown as U+FFFD, the rest of the value kept.
        let nul = try Self.post(
            client, "/dashboard/partners", session: session, body: "csrf_token=\(token)&program_id=prg_acme&name=a%00b")
        #expect(nul.text.contains("value=\"a\u{FFFD}b\""), "\(nul.text)")
        #expect(nul.text.contains(#"id="field-name-error""#), "the error stands beside the field")
        // The code form and the tracking form too.
        let code = try Self.post(
            client, "/dashboard/partners/part_sam/codes", session: session, body: "csrf_token=\(token)&code=X%00Y")
        #expect(code.status == 400 && code.text.contains("contains characters that are not allowed"))
        #expect(!code.body.contains(0))
        let tracking = try Self.post(
            client, "/dashboard/programs/prg_acme/tracking", session: session,
            body: "csrf_token=\(token)&app_name=Bad%ZZ")
        #expect(tracking.status == 400 && tracking.text.contains("was not encoded properly"), "\(tracking.text)")
        let trackingNUL = try Self.post(
            client, "/dashboard/programs/prg_acme/tracking", session: session,
            body: "csrf_token=\(token)&og_description=a%00b")
        #expect(trackingNUL.status == 400)
        #expect(trackingNUL.text.contains(#"id="field-og_description-error""#), "\(trackingNUL.text)")
        #expect(!trackingNUL.body.contains(0))
        // A badly encoded field name, and the sign-in form.
        let badName = try Self.post(
            client, "/dashboard/partners", session: session, body: "csrf_token=\(token)&program_id=prg_acme&na%ZZme=x")
        #expect(badName.status == 400 && badName.text.contains("was not encoded properly"))
        #expect(try server.store.configRecords() == before)
    }

    /// The text of the error shown beside `field`.
    static func fieldError(_ field: String, in page: String) -> String {
        guard let start = page.range(of: #"id="field-\#(field)-error">"#) else { return "" }
        return String(page[start.upperBound...].prefix { $0 != "<" })
    }

    @Test func trackingNumbersAreRefusedInTheFormsWords() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/programs/prg_play/tracking"
        let before = try server.store.configRecords()
        for (fields, field, message) in [
            ([("claim_window_days", "-1")], "claim_window_days", "must be a whole number of days from 1 to 3650"),
            ([("claim_window_days", "0")], "claim_window_days", "must be a whole number of days from 1 to 3650"),
            ([("claim_window_days", "1.5")], "claim_window_days", "must be a whole number of days from 1 to 3650"),
            (
                [("commission_type", "fixed"), ("commission_fixed_cents", "-5")], "commission_fixed_cents",
                "must be a whole number of cents from 1 to 10000000"
            ),
            (
                [("commission_type", "percent"), ("commission_percent", "NaN")], "commission_percent",
                "must be a number from 0.01 to 100, with at most two decimals"
            ),
            (
                [("commission_type", "percent"), ("commission_percent", "12.505")], "commission_percent",
                "must be a number from 0.01 to 100, with at most two decimals"
            ),
            ([("commission_type", "percent"), ("commission_percent", "")], "commission_percent", "is required"),
            (
                [("commission_type", "percent"), ("commission_percent", "10"), ("commission_duration_months", "x")],
                "commission_duration_months", "must be a whole number of months from 1 to 1200"
            ),
        ] {
            let response = try client.dashboardPost(path, session: session, fields: [("csrf_token", token)] + fields)
            #expect(response.status == 400, "\(fields)")
            #expect(response.text.contains(#"id="field-\#(field)-error""#), "\(fields): \(response.text)")
            let shown = Self.fieldError(field, in: response.text)
            #expect(shown.contains(message), "\(fields): \(shown)")
            for jsonWord in ["string", "integer", "null"] {
                #expect(!shown.contains(jsonWord), "\(fields): \(shown)")
            }
        }
        #expect(try server.store.configRecords() == before)
        // Leading zeros and a trailing zero are numbers all the same, saved as the importer reads them.
        let saved = try client.dashboardPost(
            path, session: session,
            fields: [
                ("csrf_token", token), ("claim_window_days", "007"), ("commission_type", "percent"),
                ("commission_percent", "012.50"),
            ])
        #expect(saved.status == 303, "\(saved.text)")
        let program = try #require(try server.store.configRecords().programs.first { $0.id == "prg_play" })
        #expect(program.claimWindowDays == 7)
        #expect(program.commission?.amount == .percent(basisPoints: 1250))
    }
}
