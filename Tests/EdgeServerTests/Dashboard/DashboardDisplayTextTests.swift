import Foundation
import LinkCore
import TestSupport
import Testing

/// The dashboard refuses display texts with invisible formatting characters (``DisplayTextRules``, checked by the
/// importer it saves through) beside the field, over real sockets, and keeps emoji sequences.
@Suite struct DashboardDisplayTextTests {
    @Test func aBidiOverrideOrZeroWidthSpaceIsRefusedBesideItsFieldAndNothingIsStored() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/programs/prg_acme/tracking"
        let before = try server.store.configRecords()
        for (field, value, codePoint) in [
            ("app_name", "\u{202E}evil", "U+202E"), ("app_name", "Acme\u{2066}", "U+2066"),
            ("og_description", "Jo\u{200B}in", "U+200B"), ("og_description", "Join \u{202D}now", "U+202D"),
        ] {
            let response = try client.dashboardPost(
                path, session: session, fields: [("csrf_token", token), (field, value)])
            #expect(response.status == 400, "\(field)")
            let shown = DashboardFormDecodingTests.fieldError(field, in: response.text)
            #expect(shown.contains("invisible formatting characters"), "\(field): \(response.text)")
            #expect(shown.contains(codePoint), "\(shown)")
        }
        let partner = try client.dashboardPost(
            "/dashboard/partners", session: session,
            fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", "Sam\u{202E}x")])
        #expect(partner.status == 400)
        #expect(
            DashboardFormDecodingTests.fieldError("name", in: partner.text).contains("invisible formatting characters"),
            "\(partner.text)")
        #expect(try server.store.configRecords() == before, "nothing reaches the store, so no page shows it")
    }

    /// A partner name or an `app_name` that shows nothing (an ideographic space, the Braille blank, a Hangul filler)
    /// is refused beside its field, as the importer refuses it, and nothing is stored.
    @Test func aBlankNameIsRefusedBesideItsFieldAndNothingIsStored() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        let refusal = "must show a visible character, not only spaces or blank characters"
        for (blank, codePoint) in [("\u{3000}", "U+3000"), ("\u{2800}", "U+2800"), ("\u{3164}\u{00A0}", "U+3164")] {
            let partner = try client.dashboardPost(
                "/dashboard/partners", session: session,
                fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", blank)])
            #expect(partner.status == 400, "\(codePoint)")
            let shown = DashboardFormDecodingTests.fieldError("name", in: partner.text)
            #expect(shown.contains("\(refusal) (found \(codePoint))"), "\(codePoint): \(shown)")
            let tracking = try client.dashboardPost(
                "/dashboard/programs/prg_acme/tracking", session: session,
                fields: [("csrf_token", token), ("app_name", blank)])
            #expect(tracking.status == 400, "\(codePoint)")
            #expect(
                DashboardFormDecodingTests.fieldError("app_name", in: tracking.text).contains(refusal), "\(codePoint)")
        }
        #expect(try server.store.configRecords() == before, "nothing reaches the store, so no page shows it")
    }

    @Test func emojiWithJoinersAreSavedAndShown() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let appName = "Dev 👩\u{200D}💻"
        let saved = try client.dashboardPost(
            "/dashboard/programs/prg_acme/tracking", session: session,
            fields: [("csrf_token", token), ("app_name", appName)])
        #expect(saved.status == 303, "\(saved.text)")
        #expect(try server.store.configRecords().programs.first { $0.id == "prg_acme" }?.appName == appName)
        let added = try client.dashboardPost(
            "/dashboard/partners", session: session,
            fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", "Ana 👩🏽\u{200D}💻")])
        #expect(added.status == 303, "\(added.text)")
        let list = try client.dashboardPage("/dashboard/partners", session: session).text
        #expect(list.contains("Ana 👩🏽\u{200D}💻"))
    }
}
