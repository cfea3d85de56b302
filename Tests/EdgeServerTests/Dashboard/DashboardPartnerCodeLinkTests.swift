import EdgeServer
import Foundation
import TestSupport
import Testing

/// A partner's page offers a code's link to copy and scan only while it works: a code another active partner holds
/// (an import only warns about it) is marked shared, naming the other partner, as its link answers 404; an inactive
/// code's link is shown with why it answers 404 and nothing to copy. A refused reactivation is shown beside the
/// button that was pressed.
@Suite struct DashboardPartnerCodeLinkTests {
    /// The `<li>` of `code` on a partner page.
    static func item(_ code: String, in page: String) throws -> String {
        let heading = try #require(page.range(of: "<h3>\(code)"), "no \(code) in the page")
        let start = try #require(page[..<heading.lowerBound].range(of: "<li", options: .backwards))
        let end = try #require(page[heading.upperBound...].range(of: "</li>"))
        return String(page[start.lowerBound..<end.upperBound])
    }

    @Test func aSharedCodeIsMarkedAndItsLinkIsNotOfferedAsWorking() throws {
        // part_a and part_b of the standard configuration both hold SHARED (and shared) as active codes.
        let server = try TestServer(configure: { $0.publicURL = try? PublicURL("https://links.example.com") })
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        #expect(
            try client.request("GET", "/a/pk_acme/SHARED", headers: [("User-Agent", Agents.android)]).status == 404)
        let page = try client.dashboardPage("/dashboard/partners/part_a", session: session).text
        let shared = try Self.item("SHARED", in: page)
        #expect(shared.contains("(shared)"), "\(shared)")
        #expect(shared.contains("Shared: B also holds SHARED as an active code, so this link answers 404"), "\(shared)")
        #expect(!shared.contains("Copy link") && !shared.contains(#"class="qr""#), "\(shared)")
        let list = try client.dashboardPage("/dashboard/partners", session: session).text
        #expect(list.contains("SHARED <strong class=\"shared\">(shared: its link answers 404)</strong>"))

        // A working code keeps its copy button and QR code; an inactive one says why its link is dead.
        let sam = try client.dashboardPage("/dashboard/partners/part_sam", session: session).text
        let working = try Self.item("SAM20", in: sam)
        // "answers 404", not "404": the link's address holds the server's ephemeral port (a port 40400-40499 failed it).
        #expect(working.contains("Copy link") && working.contains(#"class="qr""#) && !working.contains("answers 404"))
        let inactive = try Self.item("OLD10", in: sam)
        #expect(inactive.contains("Inactive: this link answers 404"), "\(inactive)")
        #expect(!inactive.contains("Copy link") && !inactive.contains(#"class="qr""#), "\(inactive)")
        let idle = try Self.item(
            "IDLE5", in: try client.dashboardPage("/dashboard/partners/part_idle", session: session).text)
        #expect(idle.contains("The partner is inactive: this link answers 404") && !idle.contains("Copy link"))
    }

    @Test func aRefusedReactivationIsShownBesideItsButton() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        // part_lee takes SAM20's text as an inactive code, then tries to reactivate it while part_sam holds it.
        try server.fixture.importJSON(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","partners":[{"id":"part_lee","codes":[{"code":"SAM20","active":false}]}]}]}]}"#
        )
        let refused = try client.dashboardPost(
            "/dashboard/partners/part_lee/codes/SAM20/reactivate", session: session, fields: [("csrf_token", token)])
        #expect(refused.status == 400)
        let item = try Self.item("SAM20", in: refused.text)
        #expect(item.contains(#"id="code-error">SAM20 is already a code of Sam"#), "\(item)")
        #expect(!refused.text.contains(#"id="field-code-error""#), "not under the add-a-code field")
    }
}
