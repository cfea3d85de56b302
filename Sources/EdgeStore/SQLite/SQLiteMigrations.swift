/// The SQLite schema, one step per version. A step is never edited once released: add a new one.
enum SQLiteMigrations {
    static let steps: [String] = [
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
    ]
}
