import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Migrations are versioned and idempotent: running them again, from any connection, changes nothing.
@Suite struct SQLiteMigrationsTests {
    static func version(_ store: SQLiteStore) throws -> Int {
        try store.withConnection { db in try db.rows("PRAGMA user_version") { Int($0.int(0)) } }.first ?? -1
    }

    static func schema(_ store: SQLiteStore) throws -> [String] {
        try store.withConnection { db in
            try db.rows("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name") {
                $0.text(0)
            }
        }
    }

    @Test func aNewStoreIsAtTheNewestVersionInWALMode() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try Self.version(fixture.sqliteStore) == SQLiteMigrations.steps.count)
        let mode = try fixture.sqliteStore.withConnection { db in try db.rows("PRAGMA journal_mode") { $0.text(0) } }
        #expect(mode == ["wal"])
        let tables = try Self.schema(fixture.sqliteStore).filter { $0.hasPrefix("table ") }.map {
            $0.split(separator: ":")[0]
        }
        for table in [
            "organizations", "programs", "partners", "codes", "clicks", "journal_checkpoints", "customers", "meta",
            "webhook_events", "transactions", "commissions", "customer_aliases",
        ] {
            #expect(tables.contains("table \(table)"), "\(table)")
        }
    }

    @Test func migratingAgainChangesNothingAndKeepsTheData() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let click = ClickRecord(
            id: "clk_0000000000000000000000000000000000000001", createdAt: 1_767_225_600_000,
            organizationID: "org_acme",
            programID: "prg_acme", partnerID: "part_sam", code: "SAM20", platform: .ios, userAgent: "ua", referer: "",
            ip: "127.0.0.1")
        try fixture.sqliteStore.ingest([click], checkpoint: JournalCheckpoint(segment: "node/segment", offset: 64))
        let key = try fixture.sqliteStore.clickSigningKey()
        let schema = try Self.schema(fixture.sqliteStore)
        let records = try fixture.sqliteStore.configRecords()

        try fixture.sqliteStore.migrate()
        try fixture.sqliteStore.migrate()
        let other = try fixture.reopen() as! SQLiteStore  // migrates on open, as serve and import do
        try other.migrate()

        for store in [fixture.sqliteStore, other] {
            #expect(try Self.version(store) == SQLiteMigrations.steps.count)
            #expect(try Self.schema(store) == schema)
            #expect(try store.configRecords() == records)
            #expect(try store.clicks(ClickQuery(organizationID: "org_acme")).items == [click])
            #expect(try store.journalOffset(segment: "node/segment") == 64)
            #expect(try store.clickSigningKey() == key, "the signing key is made once and kept")
        }
    }

    @Test func anOlderStoreIsBroughtForwardStepByStep() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // A store made by the first release: only step 1 applied, holding the acme configuration in step 1's
        // columns (today's import reads and writes later steps' columns, so it cannot write this store).
        try fixture.importJSON(ConfigFixtures.acme)
        var records = try fixture.sqliteStore.configRecords()
        let old = try SQLiteStore(path: fixture.directory + "/old.sqlite")
        try old.withConnection { db in
            try db.execute(SQLiteMigrations.steps[0].sql)
            try db.execute("PRAGMA user_version = 1")
            for organization in records.organizations {
                try db.query(
                    "INSERT INTO organizations (id, name, public_key, secret_key) VALUES (?, ?, ?, ?)",
                    [
                        .text(organization.id), .text(organization.name), .text(organization.publicKey),
                        .text(organization.secretKeyDigest),
                    ])
            }
            for program in records.programs {
                try db.query(
                    """
                    INSERT INTO programs (id, organization_id, name, claim_window_days, deep_link_template,
                        google_play_url, app_store_url) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(program.id), .text(program.organizationID), .text(program.name),
                        .optional(program.claimWindowDays), .optional(program.deepLinkTemplate),
                        .optional(program.googlePlayURL), .optional(program.appStoreURL),
                    ])
            }
            for partner in records.partners {
                try db.query(
                    "INSERT INTO partners (id, program_id, name, status) VALUES (?, ?, ?, ?)",
                    [.text(partner.id), .text(partner.programID), .text(partner.name), .text(partner.status)])
            }
            for code in records.codes {
                try db.query(
                    "INSERT INTO codes (reference, partner_id, code, code_folded, active) VALUES (?, ?, ?, ?, ?)",
                    [
                        .integer(Int64(code.reference)), .text(code.partnerID), .text(code.code),
                        .text(code.code.lowercased()), .integer(code.active ? 1 : 0),
                    ])
            }
        }
        records.revision = 0  // step 1's revision; the rows were written without an import
        try old.migrate()
        #expect(try Self.version(old) == SQLiteMigrations.steps.count)
        #expect(try old.configRecords() == records, "no commission rule and no authorization until imported")
        #expect(try old.customers(CustomerQuery(organizationID: "org_acme")).items.isEmpty, "step 2's table exists")
    }

    /// A store of the claims release (step 2) keeps its customers through step 3: `lead`, nothing paid yet, and
    /// the webhook then works on them.
    @Test func customersOfStepTwoComeThroughStepThree() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let old = try SQLiteStore(path: fixture.directory + "/step2.sqlite")
        try old.migrate(throughStep: 2)
        try old.withConnection { db in
            try db.execute(
                """
                INSERT INTO organizations (id, name, public_key, secret_key) VALUES ('org_a', 'A', 'pk_a', 'sk_a_secret');
                INSERT INTO customers (id, organization_id, customer_id, partner_id, program_id, code, status, claimed_at)
                VALUES ('cust_1', 'org_a', 'user-1', 'part_a', 'prg_a', 'A1', 'lead', 1767225600000);
                """)
        }
        try old.migrate()
        #expect(try Self.version(old) == SQLiteMigrations.steps.count)
        let customer = try #require(try old.customer(organizationID: "org_a", customerID: "user-1"))
        #expect(customer.status == "lead" && customer.revenueCents == 0 && customer.commissionCents == 0)
        var renewal = RevenueCatEvent(id: "e1", type: "RENEWAL")
        renewal.environment = "PRODUCTION"
        renewal.appUserID = "user-1"
        renewal.transactionID = "t1"
        let event = WebhookEventRecord(
            organizationID: "org_a", event: renewal, receivedAt: 1_767_225_700_000, body: Array("{}".utf8))
        var seen: CommissionLedger?
        let (outcome, _) = try old.recordWebhookEvent(event) { _, ledger in
            seen = ledger
            return WebhookPlan(outcome: .ignored)
        }
        #expect(outcome == .ignored)
        #expect(seen?.customer?.id == "cust_1" && seen?.customer?.lifecycle == .lead)
    }

    /// A store of step 9 keeps its aliases and transactions through step 10: an id a `TRANSFER` moved before event
    /// times were kept (`changed_at` null) still leads to its customer and may be moved by any later transfer; a
    /// purchase recorded before it is a purchase at a known price.
    @Test func aliasesAndTransactionsOfStepNineComeThroughStepTen() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let old = try SQLiteStore(path: fixture.directory + "/step9.sqlite")
        try old.migrate(throughStep: 9)
        try old.withConnection { db in
            try db.execute(
                """
                INSERT INTO organizations (id, name, public_key, secret_key) VALUES ('org_a', 'A', 'pk_a', 'sk_a_secret');
                INSERT INTO customers (id, organization_id, customer_id, partner_id, program_id, code, status, claimed_at)
                VALUES ('cust_1', 'org_a', 'user-1', 'part_a', 'prg_a', 'A1', 'paying', 1767225600000),
                    ('cust_2', 'org_a', 'user-2', 'part_b', 'prg_a', 'B1', 'lead', 1767225600001);
                INSERT INTO customer_aliases (organization_id, app_user_id, customer) VALUES ('org_a', 'moved', 'cust_1');
                INSERT INTO transactions (organization_id, transaction_id, customer, revenue_cents, purchased_at)
                VALUES ('org_a', 't1', 'cust_1', 999, 1767225600000);
                """)
        }
        try old.migrate()
        #expect(try Self.version(old) == SQLiteMigrations.steps.count)
        #expect(try old.customer(organizationID: "org_a", customerID: "moved")?.id == "cust_1")
        #expect(try old.customer(organizationID: "org_a", customerID: "user-1")?.revenueCents == 999)
        let body = Array(
            #"{"api_version":"1.0","event":{"id":"e1","type":"TRANSFER","environment":"PRODUCTION","transferred_from":["user-2"],"transferred_to":["moved"],"event_timestamp_ms":1767225700000}}"#
                .utf8)
        let transfer = try RevenueCatEvent(body: body)
        let (outcome, _) = try old.recordWebhookEvent(
            WebhookEventRecord(organizationID: "org_a", event: transfer, receivedAt: 1_767_225_700_000, body: body)
        ) { CommissionPlanner.plan($0, ledger: $1, rule: nil, now: 1_767_225_700_000) { "comm_1" } }
        #expect(outcome == .transferred)
        #expect(try old.customer(organizationID: "org_a", customerID: "moved")?.id == "cust_2")
    }
}
