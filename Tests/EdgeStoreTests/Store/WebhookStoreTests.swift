import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

@testable import EdgeStore

/// `recordWebhookEvent(_:plan:)` on a real SQLite file and a real PostgreSQL database, with the real planner: what the seam promises any store
/// (one event per organization and id, the customer found by its ids or by its transaction, the plan applied
/// whole), without a server.
@Suite struct WebhookStoreTests {
    static let rule = CommissionRule(amount: .percent(basisPoints: 2000), recurring: true, durationMonths: nil)
    static let start: Int64 = 1_780_000_000_000

    /// A store with `org_acme` and one claimed customer, `user-1` of `part_sam`.
    static func claimed(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        _ = try fixture.store.claim(
            CustomerRecord(
                id: "cust_1", organizationID: "org_acme", customerID: "user-1", partnerID: "part_sam",
                programID: "prg_acme", code: "SAM20", clickID: nil, status: "lead", claimedAt: start,
                firstSeenAt: nil))
        return fixture
    }

    /// Records `event` (a documented-shape body with these fields) through the planner.
    @discardableResult
    static func record(
        _ store: any Store, _ type: String, id: String, user: String, transaction: String? = nil,
        price: String? = nil, at time: Int64, extra: String = ""
    ) throws -> WebhookOutcome {
        var fields = [
            #""id":"\#(id)""#, #""type":"\#(type)""#, #""environment":"PRODUCTION""#, #""app_user_id":"\#(user)""#,
            #""event_timestamp_ms":\#(time)"#, #""purchased_at_ms":\#(time)"#,
        ]
        if let transaction { fields.append(#""transaction_id":"\#(transaction)""#) }
        if let price { fields.append(#""price":\#(price)"#) }
        if !extra.isEmpty { fields.append(extra) }
        let body = Array(#"{"api_version":"1.0","event":{\#(fields.joined(separator: ","))}}"#.utf8)
        let event = try RevenueCatEvent(body: body)
        let record = WebhookEventRecord(organizationID: "org_acme", event: event, receivedAt: time, body: body)
        return try store.recordWebhookEvent(record) { event, ledger in
            CommissionPlanner.plan(event, ledger: ledger, rule: rule, now: time) { "comm_\(event.id)" }
        }.outcome
    }

    static func commissions(_ store: any Store) throws -> [CommissionRecord] {
        try store.commissions(CommissionQuery(organizationID: "org_acme", limit: 100)).items
    }

    @Test(arguments: StoreKind.allCases) func aPurchaseARenewalAndARefundOfTheRenewal(kind: StoreKind) throws {
        let fixture = try Self.claimed(kind)
        defer { fixture.remove() }
        let store = fixture.store
        #expect(
            try Self.record(
                store, "INITIAL_PURCHASE", id: "e1", user: "user-1", transaction: "t1", price: "9.99", at: Self.start)
                == .commissionCreated)
        #expect(
            try Self.record(
                store, "RENEWAL", id: "e2", user: "user-1", transaction: "t2", price: "9.99", at: Self.start + 1000)
                == .commissionCreated)
        #expect(
            try Self.record(
                store, "CANCELLATION", id: "e3", user: "user-1", transaction: "t2", at: Self.start + 2000,
                extra: #""cancel_reason":"CUSTOMER_SUPPORT""#) == .refunded)
        let commissions = try Self.commissions(store)
        #expect(commissions.map(\.transactionID) == ["t2", "t1"])
        #expect(commissions.map(\.status) == [.reversed, .pending])
        #expect(commissions.map(\.amountCents) == [200, 200])
        #expect(commissions.allSatisfy { $0.partnerID == "part_sam" && $0.customerID == "user-1" })
        let customer = try #require(try store.customer(organizationID: "org_acme", customerID: "user-1"))
        #expect(customer.status == "paying" && customer.revenueCents == 999 && customer.commissionCents == 200)
        let events = try store.webhookEvents(organizationID: "org_acme", limit: 10).items
        #expect(events.map(\.eventID) == ["e3", "e2", "e1"])
        #expect(events.map(\.outcome) == ["refunded", "commission_created", "commission_created"])
        #expect(events.allSatisfy { $0.customer == "cust_1" })
    }

    @Test(arguments: StoreKind.allCases) func aRefundUnderAnotherUserIDFindsTheCustomerOfItsTransaction(kind: StoreKind)
        throws
    {
        let fixture = try Self.claimed(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try Self.record(
            store, "INITIAL_PURCHASE", id: "e1", user: "user-1", transaction: "t1", price: "5", at: Self.start)
        // The refund names a user id no claim and no transfer leads to (yet): its transaction does.
        #expect(
            try Self.record(
                store, "CANCELLATION", id: "e2", user: "someone-else", transaction: "t1", at: Self.start + 1000,
                extra: #""cancel_reason":"CUSTOMER_SUPPORT""#) == .refunded)
        let customer = try #require(try store.customer(organizationID: "org_acme", customerID: "user-1"))
        #expect(customer.status == "refunded" && customer.revenueCents == 0 && customer.commissionCents == 0)
    }

    @Test(arguments: StoreKind.allCases) func aTransferredIDFindsTheCustomerAndCannotBeClaimedAgain(kind: StoreKind)
        throws
    {
        let fixture = try Self.claimed(kind)
        defer { fixture.remove() }
        let store = fixture.store
        #expect(
            try Self.record(
                store, "TRANSFER", id: "e1", user: "", at: Self.start,
                extra: #""transferred_from":["user-1"],"transferred_to":["user-2"]"#) == .transferred)
        #expect(try store.customer(organizationID: "org_acme", customerID: "user-2")?.id == "cust_1")
        let claim = try store.claim(
            CustomerRecord(
                id: "cust_2", organizationID: "org_acme", customerID: "user-2", partnerID: "part_lee",
                programID: "prg_play", code: "LEE", clickID: nil, status: "lead", claimedAt: Self.start,
                firstSeenAt: nil))
        #expect(!claim.created && claim.customer.id == "cust_1" && claim.customer.partnerID == "part_sam")
        #expect(
            try Self.record(
                store, "RENEWAL", id: "e2", user: "user-2", transaction: "t1", price: "5", at: Self.start + 1)
                == .commissionCreated)
    }

    /// Four connections to one store, as server processes or an import beside a server would have: the unique
    /// index, not the API's one writer, keeps a delivery and its racing copy to one event and one commission.
    @Test(arguments: StoreKind.allCases) func racingDeliveriesOnTwoConnectionsStoreOneEvent(kind: StoreKind) throws {
        let fixture = try Self.claimed(kind)
        defer { fixture.remove() }
        let stores = [fixture.store, try fixture.reopen(), try fixture.reopen(), try fixture.reopen()]
        let outcomes = Mutex<[WebhookOutcome]>([])
        let done = DispatchGroup()
        for (index, store) in stores.enumerated() {
            done.enter()
            TestThread.start(name: "webhook-race-\(index)") {
                defer { done.leave() }
                let outcome = try? Self.record(
                    store, "INITIAL_PURCHASE", id: "e-race", user: "user-1", transaction: "t-race", price: "9.99",
                    at: Self.start)
                outcomes.withLock { $0.append(outcome ?? .ignored) }
            }
        }
        done.wait()
        let all = outcomes.withLock { $0 }
        #expect(all.filter { $0 == .commissionCreated }.count == 1, "\(all)")
        #expect(all.filter { $0 == .duplicate }.count == stores.count - 1, "\(all)")
        #expect(try Self.commissions(fixture.store).count == 1)
        #expect(try fixture.store.webhookEvents(organizationID: "org_acme", limit: 10).items.count == 1)
    }
}
