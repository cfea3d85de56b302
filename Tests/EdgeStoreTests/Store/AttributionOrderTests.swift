import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

@testable import EdgeStore

/// Whatever arrives first, a purchase and its user's claim pay the same (a claim applies its user's events stored
/// `unattributed`), and an id has one owner for claims and webhooks alike: ids an event ties together, the customer
/// claimed first, a renewal's subscription, the newest `TRANSFER`. On a real SQLite file and a real PostgreSQL.
@Suite struct AttributionOrderTests {
    typealias Store = WebhookStoreTests
    static let start = WebhookStoreTests.start

    /// Claims `user` for `partner` at `time`, applying its stored events with the real planner.
    @discardableResult
    static func claim(
        _ store: any EdgeStore.Store, _ user: String, id: String, partner: String = "part_sam",
        program: String = "prg_acme", at time: Int64
    ) throws -> (customer: CustomerRecord, created: Bool, replayed: [WebhookOutcome]) {
        try store.claim(
            CustomerRecord(
                id: id, organizationID: "org_acme", customerID: user, partnerID: partner, programID: program,
                code: "SAM20", clickID: nil, status: "lead", claimedAt: time, firstSeenAt: nil)
        ) { event, ledger in
            CommissionPlanner.plan(event, ledger: ledger, rule: Store.rule, now: time) { "comm_\(event.id)" }
        }
    }

    static func event(_ store: any EdgeStore.Store, _ id: String) throws -> StoredWebhookEvent? {
        try store.webhookEvents(organizationID: "org_acme", limit: 100).items.first { $0.eventID == id }
    }

    // MARK: - Webhook before claim

    /// The attack's finding 1: RevenueCat posts within seconds of the purchase, so the webhook often beats the
    /// claim the SDK is still retrying. Both orders end the same: one commission, a paying customer.
    @Test(arguments: StoreKind.allCases) func aPurchaseWhoseWebhookBeatsTheClaimPaysWhenTheClaimLands(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        let claimAt = Self.start + 60_000
        #expect(
            try Store.record(
                store, "INITIAL_PURCHASE", id: "e1", user: "late", transaction: "t1", price: "9.99",
                at: claimAt - 30_000) == .unattributed)
        let claim = try Self.claim(store, "late", id: "cust_late", at: claimAt)
        #expect(claim.created)
        #expect(claim.customer.status == "paying" && claim.customer.revenueCents == 999)
        #expect(claim.customer.commissionCents == 200)
        let stored = try #require(try Self.event(store, "e1"))
        #expect(stored.outcome == "commission_created" && stored.customer == "cust_late")
        #expect(stored.attributedAt == claimAt)
        // The other order, for comparison.
        try Self.claim(store, "early", id: "cust_early", at: claimAt)
        try Store.record(
            store, "INITIAL_PURCHASE", id: "e2", user: "early", transaction: "t2", price: "9.99", at: claimAt - 30_000)
        let early = try #require(try store.customer(organizationID: "org_acme", customerID: "early"))
        #expect([early.status, "\(early.revenueCents)", "\(early.commissionCents)"] == ["paying", "999", "200"])
        #expect(try Self.event(store, "e2")?.attributedAt == nil)
        // Applied once: a redelivery is a duplicate, a second claim applies nothing, one commission each.
        #expect(
            try Store.record(
                store, "INITIAL_PURCHASE", id: "e1", user: "late", transaction: "t1", price: "9.99",
                at: claimAt - 30_000) == .duplicate)
        #expect(!(try Self.claim(store, "late", id: "cust_again", at: claimAt + 1)).created)
        #expect(try Store.commissions(store).map(\.transactionID).sorted() == ["t1", "t2"])
    }

    /// A commission that a claim or a tie earns for an event stored `unattributed` is created when the claim or the
    /// tie applies it, not when the event arrived: it was dated at the event's arrival, before its customer's claim.
    @Test(arguments: StoreKind.allCases) func aReplayedEventsCommissionIsCreatedWhenItIsApplied(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        let claimAt = Self.start + 600_000
        let anonymous = "$RCAnonymousID:dated"
        try Store.record(
            store, "INITIAL_PURCHASE", id: "claimed", user: "dated", transaction: "t1", price: "5",
            at: claimAt - 30_000)
        try Store.record(
            store, "INITIAL_PURCHASE", id: "tied", user: anonymous, transaction: "t2", price: "5", at: claimAt - 20_000)
        try Self.claim(store, "dated", id: "cust_dated", at: claimAt)
        // A renewal of the claimed user names the anonymous id: the tie applies its purchase.
        let tieAt = claimAt + 60_000
        #expect(
            try Store.record(
                store, "RENEWAL", id: "tie", user: "dated", transaction: "t3", price: "5", at: tieAt,
                extra: #""aliases":["dated","\#(anonymous)"]"#) == .commissionCreated)
        let created = Dictionary(
            uniqueKeysWithValues: try Store.commissions(store).map { ($0.transactionID, $0.createdAt) })
        #expect(created == ["t1": claimAt, "t2": tieAt, "t3": tieAt])
        #expect(try Self.event(store, "tied")?.attributedAt == tieAt)
    }

    /// Only the claimed user's events (by `app_user_id`, `original_app_user_id` or `aliases`, as the webhook
    /// finds users) from at most two minutes before the claim; a purchase older than that stays the user's own.
    @Test(arguments: StoreKind.allCases) func aClaimAppliesItsUsersEventsFromTheTwoMinutesBeforeIt(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        let claimAt = Self.start + 600_000
        try Store.record(
            store, "INITIAL_PURCHASE", id: "old", user: "u", transaction: "t0", price: "5", at: claimAt - 120_001)
        try Store.record(
            store, "INITIAL_PURCHASE", id: "trial", user: "$RCAnonymousID:x", price: "0", at: claimAt - 90_000,
            extra: #""period_type":"TRIAL","original_app_user_id":"u""#)
        try Store.record(
            store, "RENEWAL", id: "alias", user: "known", transaction: "t2", price: "5", at: claimAt - 10_000,
            extra: #""aliases":["known","u"]"#)
        try Store.record(
            store, "INITIAL_PURCHASE", id: "other", user: "someone", transaction: "t3", price: "5",
            at: claimAt - 10_000)
        try Self.claim(store, "u", id: "cust_u", at: claimAt)
        #expect(try Self.event(store, "old")?.outcome == "unattributed")
        #expect(try Self.event(store, "trial")?.outcome == "trial_started")
        #expect(try Self.event(store, "alias")?.outcome == "commission_created")
        #expect(try Self.event(store, "other")?.outcome == "unattributed")
        let customer = try #require(try store.customer(organizationID: "org_acme", customerID: "u"))
        #expect(customer.status == "paying" && customer.revenueCents == 500)
        // The ids those events tied together are the customer's now.
        #expect(try store.customer(organizationID: "org_acme", customerID: "known")?.id == "cust_u")
        #expect(try store.customer(organizationID: "org_acme", customerID: "$RCAnonymousID:x")?.id == "cust_u")
    }

    /// The bound: at most ``CommissionPlanner/claimReplayLimit`` events a claim, oldest first.
    @Test func aClaimAppliesAtMostItsLimitOfEvents() throws {
        let fixture = try StoreFixture(.sqlite, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        let claimAt = Self.start + 600_000
        let count = CommissionPlanner.claimReplayLimit + 1
        for index in 0..<count {
            try Store.record(
                store, "RENEWAL", id: "e\(index)", user: "busy", transaction: "t\(index)", price: "1",
                at: claimAt - 60_000 + Int64(index))
        }
        try Self.claim(store, "busy", id: "cust_busy", at: claimAt)
        #expect(try Store.commissions(store).count == CommissionPlanner.claimReplayLimit)
        #expect(try Self.event(store, "e\(count - 1)")?.outcome == "unattributed", "the newest one is left")
        #expect(try Self.event(store, "e0")?.outcome == "commission_created")
    }

    /// Two connections, as two nodes on one PostgreSQL (or two processes on one SQLite file): a claim racing its
    /// user's purchase never pays twice and never loses the commission, whichever wins.
    @Test(arguments: StoreKind.allCases) func aClaimRacingItsUsersPurchasePaysOnce(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let webhooks = fixture.store
        let claims = try fixture.reopen()
        let claimAt = Self.start + 600_000
        let rounds = 12
        for round in 0..<rounds {
            let done = DispatchGroup()
            done.enter()
            TestThread.start(name: "race-webhook-\(round)") {
                defer { done.leave() }
                _ = try? Store.record(
                    webhooks, "INITIAL_PURCHASE", id: "e\(round)", user: "r\(round)", transaction: "t\(round)",
                    price: "10", at: claimAt - 5_000)
            }
            done.enter()
            TestThread.start(name: "race-claim-\(round)") {
                defer { done.leave() }
                _ = try? Self.claim(claims, "r\(round)", id: "cust_r\(round)", at: claimAt)
            }
            done.wait()
        }
        let commissions = try Store.commissions(fixture.store)
        #expect(commissions.count == rounds)
        #expect(Set(commissions.map(\.transactionID)).count == rounds)
        let events = try fixture.store.webhookEvents(organizationID: "org_acme", limit: 20).items
        #expect(events.count == rounds && events.allSatisfy { $0.outcome == "commission_created" })
    }

    // MARK: - One owner per id

    /// The attack's finding 2: the app claims the anonymous id, the user logs in, and RevenueCat aliases the two.
    /// A later claim of the known id with another code is `already_claimed` for the first customer.
    @Test(arguments: StoreKind.allCases) func idsAnEventTiesTogetherAreClaimedAlready(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        let anonymous = "$RCAnonymousID:aaaa1111"
        try Self.claim(store, anonymous, id: "cust_anon", at: Self.start)
        #expect(
            try Store.record(
                store, "INITIAL_PURCHASE", id: "e1", user: "user_42", price: "0", at: Self.start + 1_000,
                extra:
                    #""period_type":"TRIAL","original_app_user_id":"\#(anonymous)","aliases":["\#(anonymous)","user_42"]"#
            ) == .trialStarted)
        let second = try Self.claim(
            store, "user_42", id: "cust_42", partner: "part_lee", program: "prg_play", at: Self.start + 2_000)
        #expect(!second.created && second.customer.id == "cust_anon" && second.customer.partnerID == "part_sam")
        #expect(
            try Store.record(
                store, "RENEWAL", id: "e2", user: "user_42", transaction: "t2", price: "9.99", at: Self.start + 3_000)
                == .commissionCreated)
        #expect(try Store.commissions(store).map(\.partnerID) == ["part_sam"])
    }

    /// When an event's ids lead to two customers (the known id was claimed between the anonymous id's claim and
    /// the login), the one claimed first wins, for that event, later ones and claims.
    @Test(arguments: StoreKind.allCases) func ofTwoCustomersAnEventTiesTheOneClaimedFirstWins(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        try Self.claim(store, "anon", id: "cust_first", at: Self.start)
        try Self.claim(store, "known", id: "cust_second", partner: "part_lee", program: "prg_play", at: Self.start + 1)
        try Store.record(
            store, "RENEWAL", id: "e1", user: "known", transaction: "t1", price: "5", at: Self.start + 1_000,
            extra: #""original_app_user_id":"anon","aliases":["anon","known"]"#)
        try Store.record(
            store, "RENEWAL", id: "e2", user: "known", transaction: "t2", price: "5", at: Self.start + 2_000)
        #expect(try Store.commissions(store).map(\.partnerID) == ["part_sam", "part_sam"])
        #expect(try store.customer(organizationID: "org_acme", customerID: "known")?.id == "cust_first")
        #expect(!(try Self.claim(store, "known", id: "cust_third", at: Self.start + 3_000)).created)
    }

    /// The attack's finding 4: a renewal belongs to the customer whose purchase began its subscription
    /// (`original_transaction_id`), whatever id a `TRANSFER` then reports it under; and a claim of that id names
    /// the same owner as the webhook.
    @Test(arguments: StoreKind.allCases) func aRenewalFollowsItsSubscription(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        try Self.claim(store, "tB", id: "cust_b", partner: "part_lee", program: "prg_play", at: Self.start)
        try Self.claim(store, "tA", id: "cust_a", at: Self.start + 1)
        try Store.record(
            store, "INITIAL_PURCHASE", id: "e1", user: "tA", transaction: "tx1", price: "10", at: Self.start + 1_000)
        try Store.record(
            store, "TRANSFER", id: "e2", user: "", at: Self.start + 2_000,
            extra: #""transferred_from":["tA"],"transferred_to":["tB"]"#)
        try Store.record(
            store, "RENEWAL", id: "e3", user: "tB", transaction: "tx2", price: "10", at: Self.start + 3_000,
            extra: #""original_transaction_id":"tx1""#)
        try Store.record(
            store, "INITIAL_PURCHASE", id: "e4", user: "tB", transaction: "tx3", price: "10", at: Self.start + 4_000)
        let partners = Dictionary(
            uniqueKeysWithValues: try Store.commissions(store).map { ($0.transactionID, $0.partnerID) })
        #expect(partners == ["tx1": "part_sam", "tx2": "part_sam", "tx3": "part_lee"])
        // tB was claimed before tA: it stays its own, for claims as for its own purchases.
        #expect(try store.customer(organizationID: "org_acme", customerID: "tB")?.id == "cust_b")
    }

    /// The attack's finding 5: an older `TRANSFER` delivered after a newer one does not move back what the newer
    /// one moved.
    @Test(arguments: StoreKind.allCases) func anOlderTransferDeliveredLateMovesNothingBack(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = fixture.store
        try Self.claim(store, "X1", id: "cust_x", at: Self.start)
        try Self.claim(store, "Y1", id: "cust_y", partner: "part_lee", program: "prg_play", at: Self.start + 1)
        try Store.record(
            store, "TRANSFER", id: "e2", user: "", at: Self.start + 2_000,
            extra: #""transferred_from":["Y1"],"transferred_to":["Z1"]"#)
        try Store.record(
            store, "TRANSFER", id: "e1", user: "", at: Self.start + 1_000,
            extra: #""transferred_from":["X1"],"transferred_to":["Z1"]"#)
        try Store.record(
            store, "INITIAL_PURCHASE", id: "e3", user: "Z1", transaction: "z1", price: "10", at: Self.start + 3_000)
        #expect(try Store.commissions(store).map(\.partnerID) == ["part_lee"])
        #expect(try store.customer(organizationID: "org_acme", customerID: "Z1")?.id == "cust_y")
    }
}
