import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// The tracking form's example template is one the Tolt SDK reads, and a stored template that a phone without the
/// app, or the SDK, cannot use is saved (the form warns, it does not refuse) and then shown with what it gets wrong.
@Suite struct DashboardTemplateAdviceTests {
    /// The text of the hint below the template field of `page`.
    static func templateHint(_ page: String) throws -> String {
        let start = try #require(page.range(of: #"id="field-deep_link_template-hint""#))
        let text = page[start.upperBound...].drop { $0 != ">" }.dropFirst()
        return String(text.prefix { $0 != "<" })
    }

    @Test func theHintsExampleIsAnHTTPSTemplateWithTheParametersTheSDKReads() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, _) = try DashboardFormTests.signedIn(server)
        let page = try client.dashboardPage("/dashboard/programs/prg_play/tracking", session: session).text
        let hint = try Self.templateHint(page)
        #expect(hint.contains("https://acme.example/claim?tolt_code={code}&amp;tolt_click={click_id}"), "\(hint)")
        #expect(!hint.contains("code={code}&amp;click="), "\(hint)")
        #expect(hint.contains("leaves a phone without the app on an error"), "\(hint)")
        // No template stored: nothing to warn about.
        #expect(!page.contains(#"id="template-advice""#))
    }

    @Test func aTemplateTheSDKCannotReadIsSavedAndThenShownWithAWarning() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let saved = try client.dashboardPost(
            "/dashboard/programs/prg_play/tracking", session: session,
            fields: DashboardTrackingFormTests.replacing(
                DashboardTrackingFormTests.validFields(token),
                [("deep_link_template", "myapp://claim?code={code}&click={click_id}")]))
        #expect(saved.status == 303, "saved, not refused: \(saved.text)")
        let stored = try server.store.configRecords().programs.first { $0.id == "prg_play" }?.deepLinkTemplate
        #expect(stored == "myapp://claim?code={code}&click={click_id}")
        let page = try client.dashboardPage("/dashboard/programs/prg_play/tracking?saved=1", session: session).text
        let advice = try #require(page.range(of: #"<div id="template-advice">"#)).upperBound
        let notes = String(page[advice...]).components(separatedBy: "</div>")[0]
        #expect(notes.contains("The deep-link template is a scheme only the app opens"), "\(notes)")
        #expect(notes.contains("has no tolt_code={code} or tolt_click={click_id} in its query"), "\(notes)")

        // An https template with the SDK's parameters: no warning.
        let fixed = try client.dashboardPost(
            "/dashboard/programs/prg_play/tracking", session: session,
            fields: DashboardTrackingFormTests.replacing(
                DashboardTrackingFormTests.validFields(token),
                [("deep_link_template", "https://acme.example/c?tolt_code={code}&tolt_click={click_id}")]))
        #expect(fixed.status == 303, "\(fixed.text)")
        let clean = try client.dashboardPage("/dashboard/programs/prg_play/tracking", session: session).text
        #expect(!clean.contains(#"id="template-advice""#))
    }
}
