import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// The whole story of the README, end to end over sockets: a partner's link tapped on Android, the app
/// claiming the click for its user, then RevenueCat reporting the purchase, a renewal and a refund of the
/// renewal. After each step the customer and commission lists say where things stand.
@Suite struct AttributionStoryTests {
    static let config = """
        {"organizations":[{"id":"org_story","name":"Story","public_key":"pk_story","secret_key":"sk_story_secret",
          "revenuecat":{"authorization":"Bearer rc_story_hook"},
          "programs":[{"id":"prg_story","name":"Story App",
            "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.story"},
            "commission":{"percent":30,"recurring":true},
            "partners":[{"id":"part_alex","name":"Alex","status":"active","codes":[{"code":"ALEX","active":true}]}]}]}]}
        """

    @Test func anAndroidTapBecomesACustomerWhosePurchasesAndRefundsMoveTheCommissions() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        func customer() throws -> [String: Any] {
            let customers = try client.customers(key: "sk_story_secret")
            try #require(customers.count == 1)
            return customers[0]
        }
        func commissions() throws -> [[String: Any]] { try client.commissions(key: "sk_story_secret") }
        func deliver(_ body: [UInt8]) throws -> String {
            let response = try client.webhook(body, key: "pk_story", authorization: "Bearer rc_story_hook")
            try #require(response.status == 200, "\(response.text)")
            return (response.jsonObject?["data"] as? [String: Any])?["outcome"] as? String ?? ""
        }

        // 1. The tap: Android and no deep-link template, so Google Play with the click in the install referrer.
        let tap = try client.request("GET", "/a/pk_story/alex", headers: [("User-Agent", Agents.android)])
        #expect(tap.status == 302)
        let location = tap.header("location") ?? ""
        #expect(location.hasPrefix("https://play.google.com/store/apps/details?id=com.story&referrer="))
        let click = try #require(LinkResponses.clickID(in: tap), "\(location)")
        #expect(try server.waitForClick(click, organizationID: "org_story"))

        // 2. The app reads the referrer on first launch and claims the click for its user.
        let claim = try client.claim(#"{"public_id":"pk_story","app_user_id":"user-42","click_id":"\#(click)"}"#)
        #expect(claim.isClaim("claimed", user: "user-42"), "\(claim.text)")
        var state = try customer()
        #expect(state["status"] as? String == "lead" && state["click_id"] as? String == click)
        #expect(state["partner_id"] as? String == "part_alex")
        #expect(state["revenue_cents"] as? Int == 0 && state["commission_cents"] as? Int == 0)
        #expect(try commissions().isEmpty)

        // 3. The first purchase: 30 % of 7.99 is 239.7 cents, paid as 240.
        let initial = RevenueCatPayload.purchase(
            user: "user-42", price: "7.99", transaction: "GPA.1111-0000", ["store": "PLAY_STORE"])
        #expect(try deliver(initial) == "commission_created")
        state = try customer()
        #expect(state["status"] as? String == "paying")
        #expect(state["revenue_cents"] as? Int == 799 && state["commission_cents"] as? Int == 240)
        var list = try commissions()
        #expect(list.map { $0["amount"] as? Int } == [240])
        #expect(list.map { $0["status"] as? String } == ["pending"])
        #expect(list.first?["partner_id"] as? String == "part_alex")

        // 4. The renewal pays again.
        let renewal = RevenueCatPayload.purchase(
            "RENEWAL", user: "user-42", price: "7.99", transaction: "GPA.1111-0001", ["store": "PLAY_STORE"])
        #expect(try deliver(renewal) == "commission_created")
        state = try customer()
        #expect(state["status"] as? String == "paying")
        #expect(state["revenue_cents"] as? Int == 1598 && state["commission_cents"] as? Int == 480)
        list = try commissions()
        #expect(list.map { $0["transaction_id"] as? String } == ["GPA.1111-0001", "GPA.1111-0000"])
        #expect(list.map { $0["status"] as? String } == ["pending", "pending"])

        // 5. Support refunds the renewal: its commission is reversed, the first one stands.
        let refund = RevenueCatPayload.refund(user: "user-42", transaction: "GPA.1111-0001", ["store": "PLAY_STORE"])
        #expect(try deliver(refund) == "refunded")
        state = try customer()
        #expect(state["status"] as? String == "paying", "the first purchase is still paid")
        #expect(state["revenue_cents"] as? Int == 799 && state["commission_cents"] as? Int == 240)
        list = try commissions()
        #expect(list.map { $0["status"] as? String } == ["reversed", "pending"])
        #expect(list.map { $0["amount"] as? Int } == [240, 240])
        #expect(try client.commissions("status=pending", key: "sk_story_secret").count == 1)
    }
}
