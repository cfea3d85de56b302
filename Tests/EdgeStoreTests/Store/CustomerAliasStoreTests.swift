import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// The ids tied to each customer (`customer_aliases`) as ``Store/customers(_:)`` lists them
/// (``CustomerRecord/aliases``): the first 100 in byte order, whatever the database's collation, read for a whole
/// page by the index of migration step 11 (PostgreSQL's 6), which stores of the step before get.
@Suite struct CustomerAliasStoreTests {
    static let organization = "org_acme"

    /// Runs `sql` with `bindings` on either store.
    static func run(_ sql: String, _ bindings: [SQLValue] = [], on store: any Store) throws {
        if let store = store as? SQLiteStore {
            try store.withConnection { try $0.query(sql, bindings) }
        } else {
            let store = try #require(store as? PostgresStore)
            try store.withConnection { try $0.query(sql, bindings) }
        }
    }

    /// Claims `user` for `part_sam` in `organization` (one millisecond after `order` others); returns its `cust_…`.
    @discardableResult
    static func claim(_ user: String, order: Int64 = 0, in store: any Store, organization: String = organization)
        throws -> String
    {
        let id = "cust_\(user)"
        _ = try store.claim(
            CustomerRecord(
                id: id, organizationID: organization, customerID: user, partnerID: "part_sam", programID: "prg_acme",
                code: "SAM20", clickID: nil, status: "lead", claimedAt: 1_767_225_600_000 + order, firstSeenAt: nil))
        return id
    }

    /// Ties `ids` to `customer` as the webhook does.
    static func tie(_ ids: [String], to customer: String, in store: any Store, organization: String = organization)
        throws
    {
        for id in ids {
            try run(
                """
                INSERT INTO customer_aliases (organization_id, app_user_id, customer, changed_at) VALUES (?, ?, ?, 1)
                """, [.text(organization), .text(id), .text(customer)], on: store)
        }
    }

    static func listed(_ store: any Store, organization: String = organization) throws -> [String: CustomerRecord] {
        let page = try store.customers(CustomerQuery(organizationID: organization, limit: 100))
        return Dictionary(uniqueKeysWithValues: page.items.map { ($0.customerID, $0) })
    }

    /// 101 ids that start with a lower-case `a` and one with an upper-case `Z`: in byte order `Zeta` comes first, in
    /// a locale's (here ICU's `en-US`, the PostgreSQL database's own collation) last, so a list cut at 100 in the
    /// locale's order would leave it out. The customer's own id (`Owner`), another customer's ids and an id tied to
    /// the same `cust_…` id in another organization (a row no webhook writes) stay out, though they would come
    /// before `Zeta`.
    @Test(arguments: StoreKind.allCases) func theFirstHundredInByteOrderWhateverTheDatabasesCollation(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(
            kind, importing: ConfigFixtures.acme,
            databaseOptions: "TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'")
        defer { fixture.remove() }
        let store = fixture.store
        if let postgres = store as? PostgresStore {
            let before = try postgres.withConnection { db in
                try db.rows("SELECT CASE WHEN 'a000' < 'Zeta' THEN 'locale' ELSE 'bytes' END") { $0.text(0) }
            }
            #expect(before == ["locale"], "the database sorts text in a locale's order")
        }
        let owner = try Self.claim("Owner", in: store)
        let other = try Self.claim("other", order: 1, in: store)
        let many = (0...100).map { "a" + String(1000 + $0).dropFirst() }  // a000 … a100
        try Self.tie(many.shuffled() + ["Zeta", "Owner"], to: owner, in: store)
        try Self.tie(["b-other"], to: other, in: store)
        try Self.tie(["Elsewhere"], to: owner, in: store, organization: "org_b")

        let listed = try Self.listed(store)
        #expect(listed["Owner"]?.aliases == ["Zeta"] + many.prefix(99))
        #expect(listed["Owner"]?.aliasesTruncated == true)
        #expect(listed["other"]?.aliases == ["b-other"])
        #expect(listed["other"]?.aliasesTruncated == false)
        let one = try store.customers(CustomerQuery(organizationID: Self.organization, customerID: "a050"))
        #expect(one.items.map(\.aliases.count) == [100])
    }

    /// One statement reads a page's ids from `customer_aliases_by_customer` in its order: no sort, no scan of the
    /// organization's ids. (PostgreSQL is kept off its sequential and bitmap scans, which an empty table invites:
    /// the index, in the collation the statement orders by, must then serve the order itself.)
    @Test(arguments: StoreKind.allCases) func aPageReadsItsIDsFromTheIndexInOrder(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let bindings: [SQLValue] = [.text("org_a"), .text("cust_1"), .text("u1"), .text("cust_2"), .text("u2")]
        let plan: [String]
        if let store = fixture.store as? SQLiteStore {
            plan = try store.withConnection { db in
                try db.rows("EXPLAIN QUERY PLAN " + SQLiteStore.aliasesSQL(customers: 2), bindings) { $0.text(3) }
            }
            #expect(plan.filter { $0.contains("customer_aliases_by_customer") }.count == 2, "\(plan)")
        } else {
            let store = try #require(fixture.store as? PostgresStore)
            plan = try store.withConnection { db in
                try db.execute("SET enable_seqscan = off; SET enable_bitmapscan = off")
                return try db.rows("EXPLAIN " + PostgresStore.aliasesSQL(customers: 2), bindings) { $0.text(0) }
            }
            #expect(plan.filter { $0.contains("Index") && $0.contains("customer_aliases_by_customer") }.count == 2)
        }
        #expect(!plan.contains { $0.contains("TEMP B-TREE") || $0.contains("Sort") }, "\(plan)")
        #expect(!plan.contains { $0.contains("SCAN customer_aliases") }, "\(plan)")
    }

    /// A store migrated by the build before (SQLite step 10, PostgreSQL step 5), with ids tied before event times
    /// were kept and after, gets the index and lists them.
    @Test(arguments: StoreKind.allCases) func aStoreOfTheStepBeforeGetsTheIndexAndListsItsIDs(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (old, removeOld) = try fixture.olderStore(sqliteStep: 10, postgresStep: 5)
        defer { removeOld() }
        try Self.run(
            """
            INSERT INTO organizations (id, name, public_key, secret_key) VALUES ('org_acme', 'A', 'pk_a', 'sha256:00')
            """, on: old)
        for (index, user) in ["u1", "u2"].enumerated() {
            try Self.run(
                """
                INSERT INTO customers (id, organization_id, customer_id, partner_id, program_id, code, status, claimed_at)
                VALUES (?, 'org_acme', ?, 'part_sam', 'prg_acme', 'SAM20', 'lead', ?)
                """, [.text("cust_\(user)"), .text(user), .integer(1_767_225_600_000 + Int64(index))], on: old)
        }
        try Self.run(
            """
            INSERT INTO customer_aliases (organization_id, app_user_id, customer, changed_at)
            VALUES ('org_acme', 'u1', 'cust_u1', 5), ('org_acme', 'u1-old', 'cust_u1', NULL),
                ('org_acme', 'u1-new', 'cust_u1', 7), ('org_acme', 'u2-phone', 'cust_u2', NULL)
            """, on: old)

        try old.migrate()
        let indexes: [String]
        if let store = old as? SQLiteStore {
            #expect(try SQLiteMigrationsTests.version(store) == SQLiteMigrations.steps.count)
            indexes = try store.withConnection { db in
                try db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'customer_aliases'") {
                    $0.text(0)
                }
            }
        } else {
            let store = try #require(old as? PostgresStore)
            #expect(try store.schemaVersion() == PostgresMigrations.steps.count)
            indexes = try store.withConnection { db in
                try db.rows("SELECT indexname FROM pg_indexes WHERE tablename = 'customer_aliases'") { $0.text(0) }
            }
        }
        #expect(indexes.contains("customer_aliases_by_customer"), "\(indexes)")
        let listed = try Self.listed(old)
        #expect(listed["u1"]?.aliases == ["u1-new", "u1-old"])
        #expect(listed["u2"]?.aliases == ["u2-phone"])
        #expect(listed.values.allSatisfy { !$0.aliasesTruncated })
    }
}
