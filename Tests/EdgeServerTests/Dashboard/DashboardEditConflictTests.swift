import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// Two people editing one form (``DashboardEdit``), over real sockets, each post built from its page as a browser
/// sends it (every field, as shown): a save writes only the fields its person changed, so two saves of different
/// fields keep both; when both changed one field, the later save is refused with `409`, the value stored now named
/// beside the field and nothing written, and saving that page again replaces it.
@Suite struct DashboardEditConflictTests {
    static let tracking = "/dashboard/programs/prg_acme/tracking"
    static let trackingForm = #"action="/dashboard/programs/prg_acme/tracking""#

    /// A signed-in client, and the tracking form's fields as its page shows them now.
    static func openTracking(_ server: TestServer) throws -> (
        client: HTTPClient, session: String, fields: [(String, String)]
    ) {
        let (client, session, _) = try DashboardFormTests.signedIn(server)
        let page = try client.dashboardPage(tracking, session: session)
        return (client, session, try DashboardForms.browserFields(in: page.text, form: trackingForm))
    }

    static func program(_ server: TestServer) throws -> ProgramRecord {
        try #require(try server.store.configRecords().programs.first { $0.id == "prg_acme" })
    }

    @Test func twoPagesOpenedTogetherEachSaveTheirOwnChangeAndKeepTheOther() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let first = try Self.openTracking(server)
        let second = try Self.openTracking(server)
        let template = "myapp://open?c={code}"
        let savedFirst = try first.client.dashboardPost(
            Self.tracking, session: first.session,
            fields: DashboardForms.changing(
                first.fields,
                ["deep_link_template": template, "commission_type": "percent", "commission_percent": "20"]))
        #expect(savedFirst.status == 303, "\(savedFirst.text)")
        // The second page still shows the template and the rule as they were, and posts them so.
        let savedSecond = try second.client.dashboardPost(
            Self.tracking, session: second.session,
            fields: DashboardForms.changing(second.fields, ["app_name": "Acme App", "claim_window_days": "45"]))
        #expect(savedSecond.status == 303, "\(savedSecond.text)")
        let program = try Self.program(server)
        #expect(program.deepLinkTemplate == template, "the first page's change is not undone by the second")
        #expect(
            program.commission
                == CommissionRule(amount: .percent(basisPoints: 2000), recurring: true, durationMonths: nil))
        #expect(program.appName == "Acme App")
        #expect(program.claimWindowDays == 45)
    }

    @Test func bothChangingOneFieldIsRefusedWith409AndSavingThatPageAgainReplacesIt() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let mine = try Self.openTracking(server)
        let theirs = try Self.openTracking(server)
        let savedTheirs = try theirs.client.dashboardPost(
            Self.tracking, session: theirs.session,
            fields: DashboardForms.changing(theirs.fields, ["app_name": "Theirs", "brand_color": "#112233"]))
        #expect(savedTheirs.status == 303)
        let before = try server.store.configRecords()

        let refused = try mine.client.dashboardPost(
            Self.tracking, session: mine.session,
            fields: DashboardForms.changing(mine.fields, ["app_name": "Mine", "claim_window_days": "7"]))
        #expect(refused.status == 409, "\(refused.text)")
        let error = DashboardFormDecodingTests.fieldError("app_name", in: refused.text)
        #expect(error.contains("someone else changed it to “Theirs”"), "\(error)")
        #expect(refused.text.contains("changed a field you changed too: nothing was saved"), "\(refused.text)")
        #expect(refused.text.contains(#"value="Mine""#), "the person's value is kept in the form")
        #expect(!refused.text.contains(#"id="field-brand_color-error""#), "a field only they changed is no conflict")
        #expect(try server.store.configRecords() == before, "nothing was saved, the claim window neither")

        // The page shown again carries their value as loaded: saving it replaces it knowingly, and keeps their colour.
        let again = try DashboardForms.browserFields(in: refused.text, form: Self.trackingForm)
        let saved = try mine.client.dashboardPost(Self.tracking, session: mine.session, fields: again)
        #expect(saved.status == 303, "\(saved.text)")
        let program = try Self.program(server)
        #expect(program.appName == "Mine")
        #expect(program.claimWindowDays == 7)
        #expect(program.brandColor == "#112233")
    }

    @Test func theSameChangeFromBothPagesIsNoConflict() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let first = try Self.openTracking(server)
        let second = try Self.openTracking(server)
        for page in [first, second] {
            let saved = try page.client.dashboardPost(
                Self.tracking, session: page.session, fields: DashboardForms.changing(page.fields, ["app_name": "Same"])
            )
            #expect(saved.status == 303, "\(saved.text)")
        }
        #expect(try Self.program(server).appName == "Same")
    }

    /// The time zone form: a page that saves the zone it showed keeps another's change; one that changes it too is
    /// refused with the zone stored now.
    @Test func theTimeZoneFormKeepsAChangeMadeSinceItWasLoaded() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let path = "/dashboard/settings/integrations"
        let marker = #"aria-labelledby="time-zone""#
        let (client, session, _) = try DashboardFormTests.signedIn(server)
        let stale = try DashboardForms.browserFields(
            in: try client.dashboardPage(path, session: session).text, form: marker)
        let fresh = try DashboardForms.browserFields(
            in: try client.dashboardPage(path, session: session).text, form: marker)
        let changed = try client.dashboardPost(
            path, session: session, fields: DashboardForms.changing(fresh, ["timezone": "Europe/Paris"]))
        #expect(changed.status == 303)
        func timezone() throws -> String? {
            try server.store.configRecords().organizations.first { $0.id == "org_acme" }?.timezone
        }
        let unchanged = try client.dashboardPost(path, session: session, fields: stale)
        #expect(unchanged.status == 303, "\(unchanged.text)")
        #expect(try timezone() == "Europe/Paris", "a save of the zone the page showed does not undo the change")
        let refused = try client.dashboardPost(
            path, session: session, fields: DashboardForms.changing(stale, ["timezone": "America/New_York"]))
        #expect(refused.status == 409)
        #expect(
            DashboardFormDecodingTests.fieldError("timezone", in: refused.text).contains("“Europe/Paris”"),
            "\(refused.text)")
        #expect(try timezone() == "Europe/Paris")
    }
}
