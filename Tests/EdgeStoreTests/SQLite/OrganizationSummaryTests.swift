import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// `organizationSummary(organizationID:)` and `commissionTotals(organizationID:)` on a real SQLite file, with
/// customers made by claims and commissions made by the real planner from RevenueCat events: counts by status,
/// totals by status and partner, reversed commissions, and nothing of another organization.
@Suite struct OrganizationSummaryTests {
    static let rule = CommissionRule(amount: .percent(basisPoints: 2000), recurring: true, durationMonths: nil)
    static let start: Int64 = 1_780_000_000_000

    /// Claims `user` for `partner` of `program` in `organization`.
    static func claim(
        _ store: any Store, _ user: String, partner: String, program: String, organization: String = "org_acme"
    ) throws {
        let result = try store.claim(
            CustomerRecord(
                id: "cust_\(user)", organizationID: organization, customerID: user, partnerID: partner,
                programID: program, code: "CODE", clickID: nil, status: "lead", claimedAt: start, firstSeenAt: nil))
        #expect(result.created)
    }

    /// Records a RevenueCat event of `type` through the planner (20% on every purchase).
    @discardableResult
    static func record(
        _ store: any Store, _ type: String, id: String, user: String, transaction: String, price: String? = nil,
        at time: Int64, organization: String = "org_acme", extra: String = ""
    ) throws -> WebhookOutcome {
        var fields = [
            #""id":"\#(id)""#, #""type":"\#(type)""#, #""environment":"PRODUCTION""#, #""app_user_id":"\#(user)""#,
            #""event_timestamp_ms":\#(time)"#, #""purchased_at_ms":\#(time)"#,
            #""transaction_id":"\#(transaction)""#,
        ]
        if let price { fields.append(#""price":\#(price)"#) }
        if !extra.isEmpty { fields.append(extra) }
        let body = Array(#"{"api_version":"1.0","event":{\#(fields.joined(separator: ","))}}"#.utf8)
        let event = try RevenueCatEvent(body: body)
        let record = WebhookEventRecord(organizationID: organization, event: event, receivedAt: time, body: body)
        return try store.recordWebhookEvent(record) { event, ledger in
            CommissionPlanner.plan(event, ledger: ledger, rule: rule, now: time) { "comm_\(organization)_\(event.id)" }
        }.outcome
    }

    /// `org_acme` with five customers (two paying, one of them with a refunded renewal) and `org_other` with a
    /// paying customer of its own and a lead.
    static func populated(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.standard)
        let store = fixture.store
        for user in ["user-1", "user-2", "user-5"] { try claim(store, user, partner: "part_sam", program: "prg_acme") }
        for user in ["user-3", "user-4"] { try claim(store, user, partner: "part_lee", program: "prg_play") }
        for user in ["user-z", "user-y"] {
            try claim(store, user, partner: "part_zed", program: "prg_other", organization: "org_other")
        }
        // user-1: a purchase and a renewal (200 cents each), then the renewal refunded: its commission reversed.
        #expect(
            try record(store, "INITIAL_PURCHASE", id: "e1", user: "user-1", transaction: "t1", price: "9.99", at: start)
                == .commissionCreated)
        #expect(
            try record(store, "RENEWAL", id: "e2", user: "user-1", transaction: "t2", price: "9.99", at: start + 1000)
                == .commissionCreated)
        #expect(
            try record(
                store, "CANCELLATION", id: "e3", user: "user-1", transaction: "t2", at: start + 2000,
                extra: #""cancel_reason":"CUSTOMER_SUPPORT""#) == .refunded)
        // user-3: one purchase of 5.00 (100 cents).
        #expect(
            try record(store, "INITIAL_PURCHASE", id: "e4", user: "user-3", transaction: "t3", price: "5", at: start)
                == .commissionCreated)
        // org_other: a large purchase and its refund, which must count nowhere in org_acme.
        #expect(
            try record(
                store, "INITIAL_PURCHASE", id: "e1", user: "user-z", transaction: "t1", price: "100", at: start,
                organization: "org_other") == .commissionCreated)
        #expect(
            try record(
                store, "INITIAL_PURCHASE", id: "e9", user: "user-z", transaction: "t9", price: "50", at: start,
                organization: "org_other") == .commissionCreated)
        #expect(
            try record(
                store, "CANCELLATION", id: "e10", user: "user-z", transaction: "t9", at: start + 1,
                organization: "org_other", extra: #""cancel_reason":"CUSTOMER_SUPPORT""#) == .refunded)
        return fixture
    }

    @Test(arguments: StoreKind.allCases) func countsCustomersByStatusAndSumsCommissionsByStatus(kind: StoreKind) throws
    {
        let fixture = try Self.populated(kind)
        defer { fixture.remove() }
        let summary = try fixture.store.organizationSummary(organizationID: "org_acme")
        #expect(summary.claims == 5)
        #expect(summary.customersByStatus == ["lead": 3, "paying": 2])
        #expect(summary.customers(withStatus: .paying) == 2)
        #expect(summary.customers(withStatus: .refunded) == 0)
        #expect(summary.commissions(withStatus: .pending) == CommissionTotal(count: 2, amountCents: 300))
        #expect(summary.commissions(withStatus: .reversed) == CommissionTotal(count: 1, amountCents: 200))

        // The same numbers the lists show, row by row.
        let customers = try fixture.store.customers(CustomerQuery(organizationID: "org_acme", limit: 100)).items
        #expect(Int64(customers.count) == summary.claims)
        for (status, count) in summary.customersByStatus {
            #expect(Int64(customers.filter { $0.status == status }.count) == count, "\(status)")
        }
        let commissions = try fixture.store.commissions(CommissionQuery(organizationID: "org_acme", limit: 100)).items
        for status in CommissionStatus.allCases {
            let listed = commissions.filter { $0.status == status }
            #expect(
                summary.commissions(withStatus: status)
                    == CommissionTotal(
                        count: Int64(listed.count), amountCents: listed.reduce(0) { $0 + $1.amountCents }))
        }
    }

    @Test(arguments: StoreKind.allCases) func totalsPerPartnerAndStatus(kind: StoreKind) throws {
        let fixture = try Self.populated(kind)
        defer { fixture.remove() }
        #expect(
            try fixture.store.commissionTotals(organizationID: "org_acme") == [
                PartnerCommissionTotal(
                    partnerID: "part_lee", status: .pending, total: CommissionTotal(count: 1, amountCents: 100)),
                PartnerCommissionTotal(
                    partnerID: "part_sam", status: .pending, total: CommissionTotal(count: 1, amountCents: 200)),
                PartnerCommissionTotal(
                    partnerID: "part_sam", status: .reversed, total: CommissionTotal(count: 1, amountCents: 200)),
            ])
    }

    @Test(arguments: StoreKind.allCases) func anotherOrganizationCountsOnlyItsOwn(kind: StoreKind) throws {
        let fixture = try Self.populated(kind)
        defer { fixture.remove() }
        let other = try fixture.store.organizationSummary(organizationID: "org_other")
        #expect(other.claims == 2)
        let listed = try fixture.store.customers(CustomerQuery(organizationID: "org_other", limit: 100)).items
        #expect(other.customersByStatus == Dictionary(listed.map { ($0.status, Int64(1)) }, uniquingKeysWith: +))
        #expect(other.customers(withStatus: .lead) == 1)
        #expect(other.commissions(withStatus: .pending) == CommissionTotal(count: 1, amountCents: 2000))
        #expect(other.commissions(withStatus: .reversed) == CommissionTotal(count: 1, amountCents: 1000))
        #expect(
            try fixture.store.commissionTotals(organizationID: "org_other") == [
                PartnerCommissionTotal(
                    partnerID: "part_zed", status: .pending, total: CommissionTotal(count: 1, amountCents: 2000)),
                PartnerCommissionTotal(
                    partnerID: "part_zed", status: .reversed, total: CommissionTotal(count: 1, amountCents: 1000)),
            ])
    }

    @Test(arguments: StoreKind.allCases) func anOrganizationWithNothingHasZeroes(kind: StoreKind) throws {
        let fixture = try Self.populated(kind)
        defer { fixture.remove() }
        for organization in ["org_nobody", ""] {
            let summary = try fixture.store.organizationSummary(organizationID: organization)
            #expect(summary == OrganizationSummary(claims: 0, customersByStatus: [:], commissionsByStatus: [:]))
            #expect(summary.commissions(withStatus: .pending) == CommissionTotal())
            #expect(try fixture.store.commissionTotals(organizationID: organization).isEmpty)
        }
        // A fresh store, nothing claimed at all.
        let empty = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { empty.remove() }
        #expect(try empty.store.organizationSummary(organizationID: "org_acme").claims == 0)
        #expect(try empty.store.commissionTotals(organizationID: "org_acme").isEmpty)
    }

    /// The summaries read covering indexes (migration step 9), never the rows: they stay quick however many
    /// customers and commissions an organization has.
    @Test func theSummariesReadOnlyCoveringIndexes() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        for sql in [
            SQLiteStore.customerStatusCountsSQL, SQLiteStore.commissionStatusTotalsSQL,
            SQLiteStore.partnerCommissionTotalsSQL,
        ] {
            let plan = try fixture.sqliteStore.withConnection { db in
                try db.rows("EXPLAIN QUERY PLAN " + sql) { $0.text(3) }
            }
            #expect(plan.contains { $0.contains("USING COVERING INDEX") }, "\(sql): \(plan)")
            #expect(!plan.contains { $0.contains("SCAN") && !$0.contains("COVERING") }, "\(sql): \(plan)")
        }
    }

    /// The customer list's first page walks `customers_by_organization` backwards instead of sorting every
    /// customer of the organization with its revenue and commission subqueries.
    @Test func theCustomerListReadsNewestFirstWithoutSorting() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let plan = try fixture.sqliteStore.withConnection { db in
            try db.rows(
                "EXPLAIN QUERY PLAN \(SQLiteStore.customerSelect) WHERE c.organization_id = ? ORDER BY c.seq DESC LIMIT 21"
            ) { $0.text(3) }
        }
        #expect(plan.contains { $0.contains("customers_by_organization") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
