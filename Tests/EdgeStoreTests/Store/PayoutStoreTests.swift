import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

@testable import EdgeStore

/// `createPayout`, `payouts` and `partnerBalances` on a real SQLite file and a real PostgreSQL database, with
/// commissions made by the real planner (`WebhookStoreTests`): what a payout takes, that it takes each commission
/// once, what it takes back, and that nothing is written when it refuses.
@Suite struct PayoutStoreTests {
    static let start = WebhookStoreTests.start
    static let minute: Int64 = 60_000

    /// A purchase of `user-1` (`part_sam`, 20 %) of $10.00 at `start + minutes`: a commission of 200 cents.
    static func purchase(_ store: any Store, _ transaction: String, minutes: Int64) throws {
        let outcome = try WebhookStoreTests.record(
            store, "RENEWAL", id: "e_\(transaction)", user: "user-1", transaction: transaction, price: "10",
            at: start + minutes * minute)
        #expect(outcome == .commissionCreated)
    }

    /// A refund of `transaction`, or (`reversed`) the reversal of its refund.
    static func refund(_ store: any Store, _ transaction: String, minutes: Int64, reversed: Bool = false) throws {
        try WebhookStoreTests.record(
            store, reversed ? "REFUND_REVERSED" : "CANCELLATION", id: "r_\(transaction)_\(minutes)", user: "user-1",
            transaction: transaction, at: start + minutes * minute,
            extra: reversed ? "" : #""cancel_reason":"CUSTOMER_SUPPORT""#)
    }

    static func payout(_ store: any Store, before minutes: Int64, reference: String? = nil) throws -> PayoutOutcome {
        try store.createPayout(
            PayoutRecord(
                id: EntityID.make(prefix: "pay_"), organizationID: "org_acme", partnerID: "part_sam",
                createdAt: start + 1_000 * minute, createdBefore: start + minutes * minute, reference: reference,
                amountCents: -1, commissionCount: -1, commissionCents: -1, reversalCount: -1, reversalCents: -1))
    }

    static func created(_ outcome: PayoutOutcome) throws -> PayoutRecord {
        guard case .created(let payout) = outcome else { throw TestError("not created: \(outcome)") }
        return payout
    }

    /// Each commission's transaction → (payout, reversal payout).
    static func marks(_ store: any Store) throws -> [String: [String?]] {
        Dictionary(
            uniqueKeysWithValues: try WebhookStoreTests.commissions(store).map {
                ($0.transactionID, [$0.payoutID, $0.reversalPayoutID])
            })
    }

    static func balance(_ store: any Store, _ partner: String = "part_sam") throws -> PartnerBalance {
        try store.partnerBalances(organizationID: "org_acme", partnerIDs: [partner])[partner] ?? PartnerBalance()
    }

    @Test(arguments: StoreKind.allCases) func aPayoutTakesThePendingCommissionsBeforeItsTimeOnce(kind: StoreKind)
        throws
    {
        let fixture = try WebhookStoreTests.claimed(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try Self.purchase(store, "t1", minutes: 1)
        try Self.purchase(store, "t2", minutes: 2)
        try Self.purchase(store, "t3", minutes: 3)
        try Self.refund(store, "t2", minutes: 4)  // refunded before any payout: never paid, never taken back
        #expect(try Self.balance(store) == PartnerBalance(unpaidCents: 400, owedBackCents: 0, paidCents: 0))

        // Half-open: the commission created at minute 3 is not before minute 3.
        let first = try Self.created(try Self.payout(store, before: 3, reference: "tr_1"))
        #expect(first.amountCents == 200 && first.commissionCount == 1 && first.commissionCents == 200)
        #expect(first.reversalCount == 0 && first.reversalCents == 0 && first.currency == "USD")
        #expect(first.reference == "tr_1" && first.createdBefore == Self.start + 3 * Self.minute)
        #expect(try Self.marks(store) == ["t1": [first.id, nil], "t2": [nil, nil], "t3": [nil, nil]])
        // The same payout again (a retry whose answer was lost): nothing left to take, nothing written.
        #expect(try Self.payout(store, before: 3) == .nothingToPay)
        let second = try Self.created(try Self.payout(store, before: 10))
        #expect(second.commissionCount == 1 && second.amountCents == 200)
        #expect(try Self.marks(store)["t3"] == [second.id, nil])
        #expect(try Self.payout(store, before: 10) == .nothingToPay)
        #expect(try Self.balance(store) == PartnerBalance(unpaidCents: 0, owedBackCents: 0, paidCents: 400))

        let listed = try store.payouts(PayoutQuery(organizationID: "org_acme"))
        #expect(listed.items == [second, first] && !listed.hasMore)
        let page = try store.payouts(PayoutQuery(organizationID: "org_acme", limit: 1))
        #expect(page.items == [second] && page.hasMore)
        #expect(try store.payouts(PayoutQuery(organizationID: "org_acme", startingAfter: second.id)).items == [first])
        #expect(try store.payouts(PayoutQuery(organizationID: "org_acme", partnerID: "part_lee")).items.isEmpty)
        #expect(try store.payouts(PayoutQuery(organizationID: "org_other")).items.isEmpty)
        #expect(throws: StoreError.self) {
            try store.payouts(PayoutQuery(organizationID: "org_other", startingAfter: first.id))
        }

        var query = CommissionQuery(organizationID: "org_acme", paid: true)
        #expect(try store.commissions(query).items.map(\.transactionID) == ["t3", "t1"])
        query.paid = false
        #expect(try store.commissions(query).items.map(\.transactionID) == ["t2"])
        query = CommissionQuery(
            organizationID: "org_acme", createdSince: Self.start + 2 * Self.minute,
            createdBefore: Self.start + 3 * Self.minute)
        #expect(try store.commissions(query).items.map(\.transactionID) == ["t2"])
    }

    @Test(arguments: StoreKind.allCases) func aPaidCommissionRefundedIsTakenBackFromTheNextPayout(kind: StoreKind)
        throws
    {
        let fixture = try WebhookStoreTests.claimed(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try Self.purchase(store, "t1", minutes: 1)
        try Self.purchase(store, "t2", minutes: 2)
        let first = try Self.created(try Self.payout(store, before: 5))
        #expect(first.amountCents == 400)
        try Self.refund(store, "t1", minutes: 6)
        #expect(try Self.balance(store) == PartnerBalance(unpaidCents: 0, owedBackCents: 200, paidCents: 400))

        // Only a reversal to take: a negative payout is refused and nothing is written.
        #expect(try Self.payout(store, before: 10) == .negativeBalance(cents: 200))
        #expect(try store.payouts(PayoutQuery(organizationID: "org_acme")).items == [first])
        #expect(try Self.marks(store) == ["t1": [first.id, nil], "t2": [first.id, nil]])

        try Self.purchase(store, "t3", minutes: 11)
        // 200 owed, 200 owed back: a payout of nothing, which records that the reversal is settled.
        let zero = try Self.created(try Self.payout(store, before: 12))
        #expect(zero.amountCents == 0 && zero.commissionCount == 1 && zero.reversalCount == 1)
        #expect(zero.reversalCents == 200 && zero.commissionCents == 200)
        #expect(try Self.marks(store)["t1"] == [first.id, zero.id])
        #expect(try Self.payout(store, before: 20) == .nothingToPay, "the reversal is taken back once")

        // A refund reversed after its commission was taken back: the commission is owed again, and paid again.
        try Self.refund(store, "t1", minutes: 21, reversed: true)
        #expect(try Self.balance(store) == PartnerBalance(unpaidCents: 200, owedBackCents: 0, paidCents: 400))
        // Listed as unpaid, as its balance says (a filter on `payout_id` alone listed it as paid, and the
        // pending-and-unpaid list no longer added up to `unpaid_cents`).
        var unpaid = CommissionQuery(organizationID: "org_acme", status: .pending, paid: false)
        #expect(try store.commissions(unpaid).items.map(\.transactionID) == ["t1"])
        unpaid.paid = true
        #expect(try store.commissions(unpaid).items.map(\.transactionID) == ["t3", "t2"])
        let again = try Self.created(try Self.payout(store, before: 30))
        #expect(again.amountCents == 200 && again.commissionCount == 1)
        #expect(try Self.marks(store)["t1"] == [again.id, nil])
        #expect(try Self.balance(store) == PartnerBalance(unpaidCents: 0, owedBackCents: 0, paidCents: 600))
    }

    /// A retry of a post whose answer was lost, after an event came in between (here a refund's reversal that makes a
    /// commission owed again), recorded a second payout of the same transfer. A post naming a reference the
    /// partner's payout already holds is that payout, with nothing written; another reference is a new payout.
    @Test(arguments: StoreKind.allCases) func aReferenceAlreadyRecordedIsThatPayoutAgain(kind: StoreKind) throws {
        let fixture = try WebhookStoreTests.claimed(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try Self.purchase(store, "t1", minutes: 1)
        try Self.purchase(store, "t2", minutes: 2)
        let first = try Self.created(try Self.payout(store, before: 5, reference: "bank-42"))
        try Self.refund(store, "t1", minutes: 6)
        try Self.purchase(store, "t3", minutes: 7)
        let netted = try Self.created(try Self.payout(store, before: 8, reference: "bank-43"))
        #expect(netted.amountCents == 0 && netted.reversalCount == 1)
        try Self.refund(store, "t1", minutes: 9, reversed: true)
        let marks = try Self.marks(store)

        #expect(try Self.payout(store, before: 5, reference: "bank-42") == .existing(first))
        #expect(try Self.payout(store, before: 30, reference: "bank-43") == .existing(netted))
        #expect(try Self.marks(store) == marks, "nothing written")
        #expect(try store.payouts(PayoutQuery(organizationID: "org_acme")).items == [netted, first])
        let next = try Self.created(try Self.payout(store, before: 30, reference: "bank-44"))
        #expect(next.amountCents == 200 && next.commissionCount == 1)
    }

    /// What a payout's `partner_id` (and the lists' filter) asks of a partner the table in force does not know: one
    /// keyed read, the same answer as the whole configuration's.
    @Test(arguments: StoreKind.allCases) func aPartnerIsLookedUpByItsOrganization(kind: StoreKind) throws {
        let fixture = try WebhookStoreTests.claimed(kind)
        defer { fixture.remove() }
        let records = try fixture.store.configRecords()
        let organizations = records.organizations.map(\.id) + ["org_nobody"]
        let partners = records.partners.map(\.id) + ["part_nobody", ""]
        #expect(records.partners.count >= 1)
        for organization in organizations {
            for partner in partners {
                #expect(
                    try fixture.store.isPartner(partner, of: organization)
                        == records.isPartner(partner, of: organization), "\(partner) of \(organization)")
            }
        }
        #expect(try fixture.store.isPartner("part_sam", of: "org_acme"))
    }

    @Test(arguments: StoreKind.allCases) func balancesArePerPartner(kind: StoreKind) throws {
        let fixture = try WebhookStoreTests.claimed(kind)
        defer { fixture.remove() }
        try Self.purchase(fixture.store, "t1", minutes: 1)
        let balances = try fixture.store.partnerBalances(
            organizationID: "org_acme", partnerIDs: ["part_sam", "part_idle"])
        #expect(balances == ["part_sam": PartnerBalance(unpaidCents: 200)])
        #expect(try fixture.store.partnerBalances(organizationID: "org_other", partnerIDs: ["part_sam"]).isEmpty)
    }

    /// Two connections (two processes on one SQLite file; two nodes on one PostgreSQL database) post payouts of one
    /// partner at the same moment, round after round: each commission is taken by exactly one payout.
    @Test(arguments: StoreKind.allCases) func racingPayoutsNeverTakeACommissionTwice(kind: StoreKind) throws {
        let fixture = try WebhookStoreTests.claimed(kind)
        defer { fixture.remove() }
        let stores = [fixture.store, try fixture.reopen(), try fixture.reopen()]
        var created: [PayoutRecord] = []
        for round in 0..<8 {
            for index in 0..<5 {
                try Self.purchase(fixture.store, "t\(round)_\(index)", minutes: Int64(round * 10 + index))
            }
            let outcomes = Mutex<[PayoutOutcome]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: stores.count) { index in
                do {
                    let outcome = try Self.payout(stores[index], before: 1_000)
                    outcomes.withLock { $0.append(outcome) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let results = outcomes.withLock { $0 }
            let payouts = results.compactMap { try? Self.created($0) }
            #expect(payouts.count == 1, "round \(round): \(results)")
            #expect(results.filter { $0 == .nothingToPay }.count == stores.count - 1, "round \(round): \(results)")
            #expect(payouts.first?.commissionCount == 5 && payouts.first?.amountCents == 1_000)
            created += payouts
        }
        let commissions = try fixture.store.commissions(CommissionQuery(organizationID: "org_acme", limit: 100)).items
        #expect(commissions.count == 40)
        for payout in created {
            #expect(commissions.filter { $0.payoutID == payout.id }.count == 5)
        }
        #expect(try Self.balance(fixture.store).paidCents == 8_000)
    }

    /// SQLite step 13 and PostgreSQL step 8 on a store the build before left, with a commission in it: the commission
    /// is unpaid, a payout takes it, and the compatibility marks stay where they were (9, 4), since an older build
    /// (a rollback, a node not yet upgraded) inserts commissions naming its own columns, and such a commission is
    /// unpaid, as this test's last insert shows.
    @Test(arguments: StoreKind.allCases) func aStoreOfTheStepBeforeKeepsItsCommissionsUnpaid(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (old, removeOld) = try fixture.olderStore(sqliteStep: 12, postgresStep: 7)
        defer { removeOld() }
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(ConfigFixtures.acme.utf8)), into: old)
        _ = try old.claim(
            CustomerRecord(
                id: "cust_1", organizationID: "org_acme", customerID: "user-1", partnerID: "part_sam",
                programID: "prg_acme", code: "SAM20", clickID: nil, status: "lead", claimedAt: Self.start,
                firstSeenAt: nil))
        try Self.purchase(old, "t1", minutes: 1)

        try old.migrate()
        #expect(try AppLinksMigrationTests.compatibleMark(old) == [kind == .sqlite ? "9" : "4"])
        #expect(try Self.marks(old) == ["t1": [nil, nil]])
        #expect(try Self.balance(old) == PartnerBalance(unpaidCents: 200))

        try CustomerAliasStoreTests.run(
            """
            INSERT INTO commissions (id, organization_id, created_at, partner_id, program_id, customer, event_id,
                transaction_id, product_id, revenue_cents, amount, currency, status)
            VALUES ('comm_old', 'org_acme', ?, 'part_sam', 'prg_acme', 'cust_1', 'e_old', 't_old', NULL, 500, 100,
                'USD', 'pending')
            """, [.integer(Self.start + 2 * Self.minute)], on: old)
        let payout = try Self.created(try Self.payout(old, before: 10))
        #expect(payout.commissionCount == 2 && payout.amountCents == 300)
        #expect(try Self.marks(old) == ["t1": [payout.id, nil], "t_old": [payout.id, nil]])
    }

    /// A payout's sums find their rows through their partial indexes (step 13), however many commissions earlier
    /// payouts took;
    /// the list's time filter is checked in `commissions_by_created` as the list walks back by `seq`, never sorted.
    @Test func thePayoutAndTheTimeFilterReadTheirIndexes() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        func plan(_ sql: String) throws -> [String] {
            try fixture.sqliteStore.withConnection { db in try db.rows("EXPLAIN QUERY PLAN " + sql) { $0.text(3) } }
        }
        let sums = "SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM commissions WHERE "
        let pending = try plan(sums + SQLiteStore.payoutPendingCondition)
        #expect(pending.contains { $0.contains("USING INDEX commissions_payable") }, "\(pending)")
        let netted = try plan(sums + SQLiteStore.payoutNettedCondition)
        #expect(netted.contains { $0.contains("USING INDEX commissions_to_net") }, "\(netted)")
        let list = try plan(
            """
            SELECT m.id, m.payout_id FROM commissions m JOIN customers c ON c.id = m.customer
            WHERE m.organization_id = ? AND m.created_at >= ? AND m.created_at < ? ORDER BY m.seq DESC LIMIT 21
            """)
        #expect(list.contains { $0.contains("INDEX commissions_by_created") }, "\(list)")
        #expect(!list.contains { $0.contains("TEMP B-TREE") }, "\(list)")
    }
}
