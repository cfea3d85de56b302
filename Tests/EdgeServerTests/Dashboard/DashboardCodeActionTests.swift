import Foundation
import LinkCore
import TestSupport
import Testing

/// A code's deactivate and reactivate addresses, signed in as one organization, tell nothing of another's partners:
/// another organization's partner is "No such partner" whatever the code, held or not.
@Suite struct DashboardCodeActionTests {
    @Test func anotherOrganizationsPartnerIsNoSuchPartnerWhetherItHoldsTheCodeOrNot() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        func post(_ path: String) throws -> (status: Int, text: String) {
            let response = try client.dashboardPost(path, session: session, fields: [("csrf_token", token)])
            let main = response.text.range(of: "<main").map { String(response.text[$0.lowerBound...]) } ?? response.text
            // The page without its nonces, which differ on every answer.
            return (
                response.status,
                main.replacingOccurrences(of: #"nonce="[0-9a-f]+""#, with: "", options: .regularExpression)
            )
        }
        // `part_zed` is org_other's and holds `ZED`.
        for action in ["deactivate", "reactivate"] {
            let held = try post("/dashboard/partners/part_zed/codes/ZED/\(action)")
            let notHeld = try post("/dashboard/partners/part_zed/codes/NOPE/\(action)")
            #expect(held.status == 404 && notHeld.status == 404)
            #expect(held.text.contains("No such partner."), "\(held.text)")
            #expect(held.text == notHeld.text, "the answer says nothing of the code")
        }
        // One's own partner with a code it does not hold is still "No such code".
        let own = try post("/dashboard/partners/part_sam/codes/NOPE/deactivate")
        #expect(own.status == 404 && own.text.contains("No such code."))
        #expect(try server.store.configRecords() == before)
    }
}
