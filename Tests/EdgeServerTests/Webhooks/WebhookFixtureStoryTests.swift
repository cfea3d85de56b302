import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// The RevenueCat fixtures (`Tests/Fixtures/revenuecat/`, written from RevenueCat's documented event format) posted
/// as they are, over a socket: one customer's story from a trial to an expiration.
@Suite struct WebhookFixtureStoryTests {
    /// The fixtures in event-time order, and what each did.
    static let story: [(file: String, outcome: String)] = [
        ("trial_initial_purchase", "trial_started"), ("sandbox_initial_purchase", "sandbox"),
        ("initial_purchase", "commission_created"), ("non_renewing_purchase", "commission_created"),
        ("cancellation_unsubscribe", "status_changed"), ("uncancellation", "status_changed"),
        ("cancellation_refund", "refunded"), ("refund_reversed", "refund_reversed"), ("renewal", "commission_created"),
        ("billing_issue", "ignored"), ("transfer", "transferred"), ("expiration", "status_changed"),
        ("test", "ignored"),
    ]

    @Test func theFixtureCustomersStoryPostedAsItIs() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        // The story begins with a trial on 2026-02-23: the claim came before it (purchases made before the claim
        // are not the partner's).
        try server.claimUser("user_8412", at: Timestamp.parse("2026-02-20T00:00:00Z")!)
        let client = server.client()
        for (file, outcome) in Self.story {
            let body = try Array(
                Data(contentsOf: URL(fileURLWithPath: try TestFiles.fixture("revenuecat/\(file).json"))))
            #expect(try client.deliver(body) == outcome, "\(file)")
            // RevenueCat retries: a second delivery of each changes nothing.
            #expect(try client.deliver(body) == "duplicate", "\(file)")
        }
        // 20 % of 4.99, 49.99 and 4.99: 100, 1000 and 100 cents; the refund of the first was reversed.
        let commissions = try client.commissions()
        #expect(commissions.map { $0["amount"] as? Int } == [100, 1000, 100])
        #expect(commissions.allSatisfy { $0["status"] as? String == "pending" })
        let customer = try client.customer("user_8412")
        #expect(customer["status"] as? String == "canceled", "the expiration is the newest event")
        #expect(customer["revenue_cents"] as? Int == 499 + 4999 + 499)
        #expect(customer["commission_cents"] as? Int == 1200)
        // The transfer made user_9021 answer for the customer.
        #expect(
            try client.claim(ClaimBody.recent(user: "user_9021")).isAlreadyClaimed(user: "user_9021", sameClaim: true))
    }
}
