import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// Codes that read the same but are written with other Unicode code points: `CAFÉ` with U+00C9, or with `E` and the
/// combining U+0301; `AÅ` with U+00C5, or with the Angstrom sign U+212B. Links, claims and the store's unique index
/// tell them apart by their bytes; Swift's `==` (canonical equivalence) does not, and where the dashboard, the
/// importer and the claims' `same_claim` used it, they did one thing and said another.
@Suite struct CodeSpellingTests {
    /// Lee holds `CAFÉ` (U+00C9) and `AÅ` (U+00C5); Bo holds `AÅ` written with the Angstrom sign.
    static let config = ConfigFixtures.standard
        .replacingOccurrences(
            of: #"{"code":"LEE","active":true}"#,
            with: #"{"code":"LEE","active":true},{"code":"CAF\u00c9","active":true},{"code":"A\u00c5","active":true}"#
        )
        .replacingOccurrences(
            of: #"{"code":"BARE1","active":true}"#,
            with: #"{"code":"BARE1","active":true},{"code":"A\u212b","active":true}"#)

    /// A deactivation addressed to `CAFE` + U+0301 answered `303` as done: it imported that spelling as an inactive
    /// code, which the store keeps apart from `CAFÉ`, so Lee had one more code and `CAFÉ` kept working. Now it is
    /// no code of Lee's (`404`), and nothing changes; the stored spelling is deactivated as before.
    @Test func aCodeAddressedInAnotherSpellingIsNotThePartnersCode() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        let other = try client.dashboardPost(
            "/dashboard/partners/part_lee/codes/CAFE%CC%81/deactivate", session: session,
            fields: [("csrf_token", token)])
        #expect(other.status == 404, "\(other.status)")
        #expect(try server.store.configRecords() == before)
        let stored = try client.dashboardPost(
            "/dashboard/partners/part_lee/codes/CAF%C3%89/deactivate", session: session,
            fields: [("csrf_token", token)])
        #expect(stored.status == 303, "\(stored.status)")
        let codes = try server.store.configRecords().codes.filter { $0.partnerID == "part_lee" }
        #expect(codes.count == 3, "no code was added: \(codes.map(\.code.unicodeScalars.count))")
        #expect(codes.first { $0.code.unicodeScalars.elementsEqual("CAF\u{C9}".unicodeScalars) }?.active == false)
    }

    /// A user claimed with Lee's `AÅ` who then claims Bo's `AÅ` (the Angstrom sign) is `already_claimed` with
    /// `same_claim: false`: another partner's code was sent. It said `true`, as if Bo's code were in effect.
    @Test func anotherPartnersCodeThatLooksTheSameIsNotTheSameClaim() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        let first = try client.claim(ClaimBody.make(user: "angstrom", code: "A\u{C5}"))
        #expect(first.isClaim("claimed", user: "angstrom"), "\(first.status) \(first.text)")
        let again = try client.claim(ClaimBody.make(user: "angstrom", code: "a\u{C5}"))
        #expect(again.isAlreadyClaimed(user: "angstrom", sameClaim: true), "\(again.text)")
        let other = try client.claim(ClaimBody.make(user: "angstrom", code: "A\u{212B}"))
        #expect(other.isAlreadyClaimed(user: "angstrom", sameClaim: false), "\(other.text)")
        #expect(
            try client.customers().first { $0["customer_id"] as? String == "angstrom" }?["partner_id"] as? String
                == "part_lee")
    }
}
