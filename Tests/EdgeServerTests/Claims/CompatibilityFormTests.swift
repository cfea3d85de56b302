import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// Codes typed on other keyboards: the full-width `ＳＡＭ２０` a Japanese, Chinese or Korean input method types for
/// `SAM20`, or a ligature or bold letters copied from a styled bio. Links answered `404` and claims `unknown_code`;
/// now they match the code they fold to, after an exact miss, and the dashboard refuses a lookalike of that kind.
@Suite struct CompatibilityFormTests {
    /// Bo also holds the full-width `ＬＥＥ`, beside Lee's `LEE` (an import only warns about such a pair).
    static let config = ConfigFixtures.standard.replacingOccurrences(
        of: #"{"code":"BARE1","active":true}"#,
        with: #"{"code":"BARE1","active":true},{"code":"\uff2c\uff25\uff25","active":true}"#)

    static func path(_ code: String) -> String {
        "/a/pk_acme/" + String(decoding: PercentEncoding.encode(code.utf8), as: UTF8.self)
    }

    @Test func aFullWidthOrStyledCodeInALinkIsItsCode() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        for typed in ["ＳＡＭ２０", "ｓａｍ２０", "SAM２０", "𝐒𝐀𝐌𝟐𝟎", "\u{200B}ＳＡＭ２０"] {
            let response = try server.client().request(
                "GET", Self.path(typed), headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 302, "\(typed)")
            #expect(
                response.header("location")?.hasPrefix("myapp://claim?tolt_code=SAM20&tolt_click=clk_") == true,
                "\(typed): the stored spelling")
        }
        for typed in ["ＳＡＭ２", "ＳＡ\u{200B}Ｍ２０", "ｎｏｐｅ"] {
            let response = try server.client().request(
                "GET", Self.path(typed), headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 404, "\(typed)")
        }
    }

    /// Bo's `ＬＥＥ`, typed as it is, is Bo's; `LEE` is Lee's; a spelling between them folds to both, a shared code.
    @Test func aStoredFullWidthCodeIsMatchedExactlyFirst() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        let bo = try client.request("GET", Self.path("ＬＥＥ"), headers: [("User-Agent", Agents.iPhone)])
        #expect(bo.status == 200 && bo.text.contains(#"id="code">ＬＥＥ<"#), "\(bo.status)")
        let lee = try client.request("GET", Self.path("lee"), headers: [("User-Agent", Agents.iPhone)])
        #expect(lee.status == 200 && lee.text.contains(#"id="code">LEE<"#), "\(lee.status)")
        #expect(try client.request("GET", Self.path("ｌｅｅ"), headers: [("User-Agent", Agents.iPhone)]).status == 404)

        #expect(try client.claim(ClaimBody.make(user: "wide", code: "ＬＥＥ")).isClaim("claimed", user: "wide"))
        #expect(try client.claim(ClaimBody.make(user: "narrow", code: "Lee")).isClaim("claimed", user: "narrow"))
        #expect(try client.claim(ClaimBody.make(user: "between", code: "ｌｅｅ")).isError(409, "code_conflict"))
        let partners = try client.customers().reduce(into: [String: String]()) {
            $0[$1["customer_id"] as? String ?? ""] = $1["partner_id"] as? String
        }
        #expect(partners == ["wide": "part_bo", "narrow": "part_lee"])
    }

    /// A claim of `ＳＡＭ２０` ties the user to Sam's `SAM20`; sent again (a lost answer), it is the same claim, as
    /// `SAM20` is; Bo's `ＬＥＥ` is not.
    @Test func aFullWidthCodeClaimsItsCodeAndIsTheSameClaimAgain() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        let first = try client.claim(ClaimBody.recent(user: "tokyo", code: " ＳＡＭ２０\u{3000}"))
        #expect(first.isClaim("claimed", user: "tokyo"), "\(first.status) \(first.text)")
        let customer = try #require(try client.customers().first { $0["customer_id"] as? String == "tokyo" })
        #expect(customer["partner_id"] as? String == "part_sam" && customer["code"] as? String == "SAM20")
        for (typed, same) in [("ＳＡＭ２０", true), ("ｓａｍ２０", true), ("SAM20", true), ("ＬＥＥ", false)] {
            let again = try client.claim(ClaimBody.recent(user: "tokyo", code: typed))
            #expect(again.isAlreadyClaimed(user: "tokyo", sameClaim: same), "\(typed): \(again.text)")
        }
    }

    /// The dashboard refuses `ＳＡＭ２０` for Lee (Sam's `SAM20` would answer to it) and for Sam (who holds it).
    @Test func theDashboardRefusesAFullWidthLookalike() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        for (partner, message) in [
            ("part_lee", "already a code of Sam"), ("part_sam", "Sam already has the code SAM20"),
        ] {
            let refused = try client.dashboardPost(
                "/dashboard/partners/\(partner)/codes", session: session,
                fields: [("csrf_token", token), ("code", "ＳＡＭ２０")])
            #expect(refused.status == 400 && refused.text.contains(message), "\(partner): \(refused.text)")
        }
        #expect(try server.store.configRecords() == before)
    }
}
