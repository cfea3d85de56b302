import LinkCore

/// The SQLite schema, one step per version. A step is never edited once released: add a new one.
enum SQLiteMigrations {
    /// One version's change: SQL, and code for what SQL cannot do (SQLite has no SHA-256), run in the same
    /// transaction after it.
    struct Step: ExpressibleByStringLiteral, Sendable {
        let sql: String
        let code: (@Sendable (SQLiteConnection) throws -> Void)?

        init(stringLiteral sql: String) {
            self.sql = sql
            code = nil
        }

        init(sql: String, code: @escaping @Sendable (SQLiteConnection) throws -> Void) {
            self.sql = sql
            self.code = code
        }
    }

    /// The fewest steps a build must know to use a store this build has migrated (``SchemaCompatibility``): an
    /// older build refuses it. All of them until a step says otherwise: when a new step is one the build before it
    /// can live with (an index, a table that build never touches, a column with a default it need not fill), set
    /// this to the number of steps before it, so that a rollback to that build still runs. (A new journal format
    /// needs no step: builds keep a segment of a later format for the build that wrote it.)
    ///
    /// 9: step 10 adds two nullable columns and a table an older build never reads; that build claims without
    /// replaying stored events and ties ids without their time, which is what it always did. Step 11 is an index,
    /// which SQLite keeps up for a build that does not know it. Step 12 adds two nullable columns to `programs` that
    /// an older build neither reads nor writes: its imports update a program's other columns by name and leave these
    /// as they are, and it serves no association files. Step 13 adds a table an older build never reads, two nullable
    /// columns to `commissions` and indexes: that build inserts commissions by column name (null: unpaid, which they
    /// are), turns them `reversed` or back (which a later payout reads as it finds it), and lists them without
    /// their payouts; SQLite keeps the indexes up for it. Step 14 is two indexes on the configuration's tables, which
    /// SQLite keeps up for an older build's imports as for this one's.
    static var compatibleVersion: Int { 9 }

    static let steps: [Step] = [
        // 1: configuration, clicks, journal checkpoints.
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE organizations (
            id TEXT PRIMARY KEY, name TEXT NOT NULL,
            public_key TEXT NOT NULL UNIQUE, secret_key TEXT NOT NULL UNIQUE);
        CREATE TABLE programs (
            id TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations(id), name TEXT NOT NULL,
            claim_window_days INTEGER, deep_link_template TEXT, google_play_url TEXT, app_store_url TEXT);
        CREATE TABLE partners (
            id TEXT PRIMARY KEY, program_id TEXT NOT NULL REFERENCES programs(id), name TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'inactive')));
        CREATE TABLE codes (
            reference INTEGER PRIMARY KEY, partner_id TEXT NOT NULL REFERENCES partners(id), code TEXT NOT NULL,
            code_folded TEXT NOT NULL, active INTEGER NOT NULL, UNIQUE (partner_id, code_folded));
        CREATE TABLE clicks (
            id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, organization_id TEXT NOT NULL,
            program_id TEXT NOT NULL, partner_id TEXT NOT NULL, code TEXT NOT NULL, platform TEXT NOT NULL,
            user_agent TEXT NOT NULL, referer TEXT NOT NULL, ip TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX clicks_by_organization ON clicks (organization_id, id);
        CREATE TABLE journal_checkpoints (segment TEXT PRIMARY KEY, byte_offset INTEGER NOT NULL);
        INSERT INTO meta (key, value) VALUES ('config_revision', '0');
        """,
        // 2: customers made by claims. One per app user id in an organization: the store, not luck, makes
        // the first claim win.
        """
        CREATE TABLE customers (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
            organization_id TEXT NOT NULL REFERENCES organizations(id), customer_id TEXT NOT NULL,
            partner_id TEXT NOT NULL, program_id TEXT NOT NULL, code TEXT NOT NULL, click_id TEXT,
            status TEXT NOT NULL, claimed_at INTEGER NOT NULL, first_seen_at INTEGER,
            UNIQUE (organization_id, customer_id));
        CREATE INDEX customers_by_partner ON customers (organization_id, partner_id, seq);
        """,
        // 3: RevenueCat webhooks and commissions. The organization's webhook authorization and each program's
        // commission rule; every event once per organization and RevenueCat event id; transactions (a
        // purchase, its refund state, which can arrive first); one commission per transaction; user ids a
        // TRANSFER moved to a customer; and on the customer, its lifecycle (status apart from refunds) with the
        // event time that orders it, and the time of the first payment, which starts a rule's duration.
        """
        ALTER TABLE organizations ADD COLUMN revenuecat_authorization TEXT;
        ALTER TABLE programs ADD COLUMN commission_percent_bp INTEGER;
        ALTER TABLE programs ADD COLUMN commission_fixed_cents INTEGER;
        ALTER TABLE programs ADD COLUMN commission_recurring INTEGER;
        ALTER TABLE programs ADD COLUMN commission_duration_months INTEGER;
        ALTER TABLE customers ADD COLUMN lifecycle TEXT NOT NULL DEFAULT 'lead';
        ALTER TABLE customers ADD COLUMN status_changed_at INTEGER;
        ALTER TABLE customers ADD COLUMN first_paid_at INTEGER;
        CREATE TABLE customer_aliases (
            organization_id TEXT NOT NULL, app_user_id TEXT NOT NULL, customer TEXT NOT NULL,
            PRIMARY KEY (organization_id, app_user_id)) WITHOUT ROWID;
        CREATE TABLE webhook_events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, organization_id TEXT NOT NULL, event_id TEXT NOT NULL,
            received_at INTEGER NOT NULL, type TEXT NOT NULL, environment TEXT, app_user_id TEXT, customer TEXT,
            outcome TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (organization_id, event_id));
        CREATE INDEX webhook_events_by_organization ON webhook_events (organization_id, seq);
        CREATE TABLE transactions (
            organization_id TEXT NOT NULL, transaction_id TEXT NOT NULL, customer TEXT, revenue_cents INTEGER,
            purchased_at INTEGER, refunded INTEGER NOT NULL DEFAULT 0, refund_changed_at INTEGER,
            PRIMARY KEY (organization_id, transaction_id)) WITHOUT ROWID;
        CREATE INDEX transactions_by_customer ON transactions (customer, revenue_cents, refunded);
        CREATE TABLE commissions (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, organization_id TEXT NOT NULL,
            created_at INTEGER NOT NULL, partner_id TEXT NOT NULL, program_id TEXT NOT NULL,
            customer TEXT NOT NULL, event_id TEXT NOT NULL, transaction_id TEXT NOT NULL, product_id TEXT,
            revenue_cents INTEGER NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'reversed')),
            UNIQUE (organization_id, transaction_id));
        CREATE INDEX commissions_by_organization ON commissions (organization_id, seq);
        CREATE INDEX commissions_by_customer ON commissions (customer);
        """,
        // 4: secrets at rest as digests. Organizations' secret keys and RevenueCat authorizations become
        // `sha256:<hex>` (SecretDigest); the store never again holds a key the API would accept. Pages the old values
        // lived on are zeroed (secure_delete) and the WAL is truncated once the migration commits (SQLiteStore).
        Step(sql: "PRAGMA secure_delete = ON;") { db in
            let rows = try db.rows("SELECT id, secret_key, revenuecat_authorization FROM organizations") {
                ($0.text(0), $0.text(1), $0.optionalText(2))
            }
            for (id, key, authorization) in rows {
                try db.query(
                    "UPDATE organizations SET secret_key = ?, revenuecat_authorization = ? WHERE id = ?",
                    [
                        .text(SecretDigest.isDigest(key) ? key : SecretDigest.of(key)),
                        .optional(authorization.map { SecretDigest.isDigest($0) ? $0 : SecretDigest.of($0) }),
                        .text(id),
                    ])
            }
        },
        // 5: a program's branding for its pages: the app's name and icon, the button colour, and the image and
        // text of link previews. Every column may be null (the page then shows its defaults).
        """
        ALTER TABLE programs ADD COLUMN app_name TEXT;
        ALTER TABLE programs ADD COLUMN app_icon_url TEXT;
        ALTER TABLE programs ADD COLUMN brand_color TEXT;
        ALTER TABLE programs ADD COLUMN og_image_url TEXT;
        ALTER TABLE programs ADD COLUMN og_description TEXT;
        """,
        // 6: a click's country (ISO 3166-1 alpha-2), looked up by the ingester with `--geoip`; null without it and
        // for clicks stored before this step.
        "ALTER TABLE clicks ADD COLUMN country TEXT;",
        // 7: hourly click counts (SQLiteMigrations+ClickCounts).
        clickCounts,
        // 8 (issue 17, the dashboard): the organization's IANA time zone, for the Overview's days.
        "ALTER TABLE organizations ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';",
        // 9: covering indexes for the dashboard's summaries (SQLiteMigrations+Summaries).
        summaries,
        // 10: attribution whatever the order of arrival (SQLiteMigrations+Attribution).
        attribution,
        // 11: the ids tied to each customer, for the customer list (SQLiteMigrations+Aliases).
        aliases,
        // 12: the apps that open a program's links directly (universal links, App Links), as JSON arrays in the import
        // form; null for none.
        """
        ALTER TABLE programs ADD COLUMN ios_app_ids TEXT;
        ALTER TABLE programs ADD COLUMN android_apps TEXT;
        """,
        // 13: payouts, and on each commission the payout that paid it and the one that took it back
        // (SQLiteMigrations+Payouts).
        payouts,
        // 14: one organization's configuration read from the organization down (`configRecords(organizationID:)`,
        // for `GET /v1/partners` and the dashboard): its programs in id order, and each program's partners. Without
        // them each read scanned every organization's programs and partners. A partner's codes need none: the codes'
        // unique index starts with `partner_id`.
        """
        CREATE INDEX programs_by_organization ON programs (organization_id, id);
        CREATE INDEX partners_by_program ON partners (program_id);
        """,
    ]
}
