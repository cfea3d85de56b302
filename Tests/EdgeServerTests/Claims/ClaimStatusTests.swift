import Foundation
import TestSupport
import Testing

@testable import EdgeServer

/// `POST /client/claims` over a real socket: each rule and each status code of the claim rules.
@Suite struct ClaimStatusTests {
    @Test func aNewUserIsClaimedWithExactlyTheDocumentedAnswer() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let response = try client.claim(ClaimBody.recent(user: "user-1"))
        #expect(response.isClaim("claimed", user: "user-1"), "\(response.status) \(response.text)")
        #expect(response.header("content-type")?.hasPrefix("application/json") == true)
        #expect(response.header("access-control-allow-origin") == "*")

        let customers = try client.customers()
        try #require(customers.count == 1)
        #expect(customers[0]["customer_id"] as? String == "user-1")
        #expect(customers[0]["partner_id"] as? String == "part_sam")
        #expect(customers[0]["program_id"] as? String == "prg_acme")
        #expect(customers[0]["code"] as? String == "SAM20")
        #expect(customers[0]["status"] as? String == "lead")
        #expect(customers[0]["click_id"] is NSNull)
    }

    @Test func anAppUserIDIsEchoedAsJSONWhateverItHolds() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let user = #"usér "quoted" \ 🚀 <b>"#
        let response = try server.client().claim(ClaimBody.make(user: user, code: "LEE"))
        #expect(response.status == 200)
        let data = response.jsonObject?["data"] as? [String: Any]
        #expect(data?["app_user_id"] as? String == user)
        #expect(data?["status"] as? String == "claimed")
        #expect(try server.client().customers("customer_id=" + percentEncoded(user)).count == 1)
    }

    @Test func theFirstCodeWinsAndNothingChanges() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.claim(ClaimBody.recent(user: "u1")).isClaim("claimed", user: "u1"))
        let before = try client.customerText()
        // `same_claim` says whether the partner came from this claim's own code (any case): a retry whose answer
        // was lost, or the app claiming again on a later launch.
        for (body, sameClaim) in [
            (ClaimBody.make(user: "u1", code: "LEE"), false),  // another partner
            (ClaimBody.recent(user: "u1"), true),  // the same code again
            (ClaimBody.recent(user: "u1", code: " sam20 "), true),  // in another case, pasted with spaces
            (ClaimBody.make(user: "u1", code: "NOPE"), false),  // whatever the code
            (ClaimBody.make(user: "u1", code: "SHARED"), false),
            (ClaimBody.make(user: "u1", code: "SAM20", firstSeenAt: WallClock.iso(offset: -400 * .day)), true),
            (ClaimBody.make(user: "u1", clickID: "clk_not_even_a_click"), false),
        ] {
            let response = try client.claim(body)
            #expect(
                response.isAlreadyClaimed(user: "u1", sameClaim: sameClaim),
                "\(body): \(response.status) \(response.text)")
            #expect(response.header("access-control-allow-origin") == "*")
        }
        #expect(try client.customerText() == before)
    }

    @Test func firstCodeWinsIsPerOrganization() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.claim(ClaimBody.make(user: "u1", code: "LEE")).isClaim("claimed", user: "u1"))
        #expect(
            try client.claim(ClaimBody.make(publicID: "pk_other", user: "u1", code: "ZED")).isClaim(
                "claimed", user: "u1"))
        #expect(try client.customers(key: "sk_other_secret").map { $0["partner_id"] as? String } == ["part_zed"])
        #expect(try client.customers().map { $0["partner_id"] as? String } == ["part_lee"])
    }

    @Test func codesMatchWithoutCaseAndKeepTheirStoredCase() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for (index, code) in ["sam20", "Sam20", "sAM20", "SAM20"].enumerated() {
            #expect(
                try client.claim(ClaimBody.recent(user: "u\(index)", code: code)).isClaim("claimed", user: "u\(index)"))
        }
        #expect(try client.claim(ClaimBody.make(user: "lee", code: "lEe")).isClaim("claimed", user: "lee"))
        let customers = try client.customers()
        #expect(customers.count == 5)
        #expect(Set(customers.compactMap { $0["code"] as? String }) == ["SAM20", "LEE"])
    }

    @Test func anUnknownPublicKeyIs404() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for key in ["pk_nope", "sk_acme_secret", "PK_ACME", "org_acme"] {
            let response = try client.claim(ClaimBody.recent(user: "u1", publicID: key))
            #expect(response.isError(404, "unknown_public_key"), "\(key): \(response.text)")
            #expect(response.message.contains("public_id"))
            #expect(response.header("access-control-allow-origin") == "*")
        }
        #expect(try client.customers().isEmpty)
    }

    @Test func unknownInactiveAndPartnerInactiveCodesAre404() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        // Unknown, a prefix of a code, an inactive code, an active code of an inactive partner, another
        // organization's code.
        for code in ["NOPE", "SAM2", "OLD10", "old10", "IDLE5", "ZED"] {
            let response = try client.claim(ClaimBody.recent(user: "u-\(code)", code: code))
            #expect(response.isError(404, "unknown_code"), "\(code): \(response.status) \(response.text)")
            #expect(response.message.contains("code"))
        }
        #expect(try client.customers().isEmpty)
    }

    @Test func aCodeTwoPartnersHoldIs409() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for code in ["SHARED", "shared", "Shared"] {
            let response = try client.claim(ClaimBody.recent(user: "u1", code: code))
            #expect(response.isError(409, "code_conflict"), "\(code): \(response.status) \(response.text)")
            #expect(response.message.contains("code"))
        }
        #expect(try client.customers().isEmpty)
        // The refused user can still be claimed with a code of one partner.
        #expect(try client.claim(ClaimBody.recent(user: "u1")).isClaim("claimed", user: "u1"))
    }

    @Test func otherMethodsAre405() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        for method in ["GET", "PUT", "DELETE"] {
            let response = try server.client().request(method, "/client/claims")
            #expect(response.isError(405, "method_not_allowed"), "\(method): \(response.status) \(response.text)")
            #expect(response.header("allow")?.contains("POST") == true)
            #expect(response.header("access-control-allow-origin") == "*")
        }
    }

    private func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
