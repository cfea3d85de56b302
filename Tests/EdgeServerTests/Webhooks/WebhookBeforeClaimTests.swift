import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Over a real socket: a purchase whose webhook beats its user's claim is paid when the claim lands (the claim
/// route applies the stored event), and the event list and the metrics say so.
@Suite struct WebhookBeforeClaimTests {
    @Test(arguments: StoreKind.allCases) func aPurchasePostedBeforeTheClaimIsPaidByTheClaim(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let client = server.client()
        let purchasedAt = WallClock.milliseconds() - 30_000
        let purchase = RevenueCatPayload.purchase(
            user: "wbc1", price: "9.99", transaction: "wbc-0",
            ["purchased_at_ms": purchasedAt, "event_timestamp_ms": purchasedAt + 2_000])
        #expect(try client.deliver(purchase) == "unattributed")
        let before = try MetricsTests.scrape(client)
        try server.claimUser("wbc1")
        // Counted as what it did once the claim applied it, apart from the outcomes counted on arrival.
        let after = try MetricsTests.scrape(client)
        let replays = "tolt_edge_claim_replayed_events_total"
        #expect(after.value(replays, ["outcome": "commission_created"]) == 1)
        #expect(after.value(replays, ["outcome": "unattributed"]) == 0)
        #expect(
            after.value("tolt_edge_webhook_outcomes_total", ["outcome": "unattributed"])
                == before.value("tolt_edge_webhook_outcomes_total", ["outcome": "unattributed"]))
        let customer = try client.customer("wbc1")
        #expect(customer["status"] as? String == "paying")
        #expect(customer["revenue_cents"] as? Int == 999)
        #expect(customer["commission_cents"] as? Int == 200)
        #expect(try client.commissions().map { $0["transaction_id"] as? String } == ["wbc-0"])
        let response = try client.request(
            "GET", "/v1/webhook_events", headers: [("Authorization", "Bearer sk_acme_secret")])
        let event = try #require((response.jsonObject?["data"] as? [[String: Any]])?.first, "\(response.text)")
        #expect(event["outcome"] as? String == "commission_created")
        let attributedAt = try #require(event["attributed_at"] as? String, "\(event)")
        #expect(Timestamp.parse(attributedAt) != nil)
        // An event applied on arrival says null.
        try server.claimUser("wbc2")
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "wbc2", price: "1", transaction: "wbc-1"))
                == "commission_created")
        let newest = try client.request(
            "GET", "/v1/webhook_events?limit=1", headers: [("Authorization", "Bearer sk_acme_secret")])
        let first = try #require((newest.jsonObject?["data"] as? [[String: Any]])?.first)
        #expect(first["attributed_at"] is NSNull)
    }
}
