import LinkCore
import Synchronization

/// The shared store: one PostgreSQL database that several nodes use together.
///
/// Each instance owns one connection (``PostgresConnection``) behind a mutex, as ``SQLiteStore`` does: the server
/// already opens one store per busy party (the ingester, the config watcher, the API's writer and readers), so
/// connections are pooled per worker thread. While the database cannot be reached every call throws
/// ``StoreError/unavailable(_:)`` at once; the connection comes back by itself when the database does.
public final class PostgresStore: Store, SQLStore {
    let connection: Mutex<PostgresConnection>
    /// Where the database is; its description masks the password.
    public let url: PostgresURL

    /// The channel ``applyConfig(_:expectedRevision:)`` notifies, in the transaction that bumps the revision.
    static let configChannel = "tolt_config"

    /// Opens a connection to `url`. Does not fail when the database is down: the first call that needs it throws
    /// `unavailable`, and later calls connect again.
    public init(url: PostgresURL) {
        self.url = url
        connection = Mutex(PostgresConnection(url: url))
    }

    static let dialect = SQLDialect.postgres

    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try connection.withLock { try body($0) }
    }

    /// Events of one organization are applied one at a time on every node: the transaction takes the organization's
    /// advisory lock first (row locks are not enough: the row a refund creates does not exist yet when the purchase
    /// reads), and runs again on a serialization failure or a deadlock.
    static func webhookTransaction<T>(_ db: PostgresConnection, organizationID: String, _ body: () throws -> T)
        throws -> T
    {
        try db.retryingTransaction {
            try db.query(
                "SELECT pg_advisory_xact_lock(\(PostgresMigrations.webhookLockClass), hashtext(?))",
                [.text(organizationID)])
            return try body()
        }
    }

    /// Applies the missing steps of ``PostgresMigrations`` in one transaction under an advisory lock: nodes that
    /// start together wait for the first one, then find nothing left to do. Marks the store with the fewest steps a
    /// build must know to use it, and refuses one a newer build migrated unless that build said this one may still
    /// use it (``SchemaCompatibility``).
    public func migrate() throws {
        try migrate(throughStep: PostgresMigrations.steps.count)
    }

    /// ``migrate()`` up to step `last` only: the store an older build made, for tests of the steps after it. Returns
    /// the schema's version before and after, as this call found it under the lock (a node that waited for another's
    /// migration finds nothing left to do).
    @discardableResult func migrate(throughStep last: Int) throws -> SchemaChange {
        try withConnection { db in
            try db.transaction {
                try db.execute(
                    """
                    SET LOCAL statement_timeout = 0;
                    SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey.0), \(PostgresMigrations.lockKey.1));
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
                    """, patient: true)
                var version = 0
                try db.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") { version = Int($0.int(0)) }
                if try SchemaCompatibility.isNewerAndUsable(
                    db, stored: version, known: PostgresMigrations.steps.count,
                    store: "the PostgreSQL store at \(url.masked)")
                {
                    return SchemaChange(from: version, to: version)
                }
                for (index, step) in PostgresMigrations.steps.prefix(last).enumerated() where index >= version {
                    try db.execute(step, patient: true)
                    try db.query("INSERT INTO schema_migrations (version) VALUES (?)", [.integer(Int64(index + 1))])
                }
                try SchemaCompatibility.mark(db, compatible: PostgresMigrations.compatibleVersion)
                return SchemaChange(from: version, to: max(version, last))
            }
        }
    }

    /// The schema's version: how many steps of ``PostgresMigrations`` were applied.
    public func schemaVersion() throws -> Int {
        try withConnection { db in
            var version = 0
            try db.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") { version = Int($0.int(0)) }
            return version
        }
    }

    /// The first node to ask creates the key; the unique id makes every other node read that one.
    public func clickSigningKey() throws -> [UInt8] {
        try withConnection { db in
            var generator = SystemRandomNumberGenerator()
            let fresh = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try db.query(
                "INSERT INTO click_signing_key (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", [.bytes(fresh)])
            var key: [UInt8]?
            try db.query("SELECT key FROM click_signing_key WHERE id = 1") { key = $0.bytes(0) }
            guard let key, key.count == 32 else { throw StoreError.database("the stored click signing key is damaged") }
            return key
        }
    }

    public func ingest(_ clicks: [ClickRecord], repeats: [ClickRecord], checkpoint: JournalCheckpoint) throws {
        // As SQLiteStore's: clicks before repeats, and a tap whose id is already stored (earlier, or earlier in
        // this batch) counts as a repeat. Taps after the first with one id never insert, so the batch's
        // candidates have distinct ids and the insert's RETURNING says which of them are new.
        var candidates: [ClickRecord] = []
        var seen = Set<String>()
        for tap in clicks + repeats where seen.insert(tap.id).inserted { candidates.append(tap) }
        try withConnection { db in
            try db.transaction {
                // A batch whose commit went through but whose answer was lost (the connection dropped after COMMIT)
                // comes again: its clicks would be skipped by their ids, but its counts added twice. The segment's
                // checkpoint, locked for the transaction, says whether it is stored already.
                var stored: Int64 = -1
                try db.query(
                    "SELECT byte_offset FROM journal_checkpoints WHERE segment = ? FOR UPDATE",
                    [.text(checkpoint.segment)]
                ) { stored = $0.int(0) }
                guard stored < checkpoint.offset else { return }
                var inserted = Set<String>()
                var start = 0
                while start < candidates.count {
                    let chunk = candidates[start..<min(start + Self.insertChunk, candidates.count)]
                    try Self.insert(chunk, into: db) { inserted.insert($0) }
                    start += Self.insertChunk
                }
                var counts = HourlyClickCounts()
                for tap in clicks + repeats { counts.add(tap, unique: inserted.remove(tap.id) != nil) }
                try Self.write(counts, into: db)
                try db.query(
                    """
                    INSERT INTO journal_checkpoints (segment, byte_offset) VALUES (?, ?)
                    ON CONFLICT (segment) DO UPDATE SET byte_offset = excluded.byte_offset
                    """, [.text(checkpoint.segment), .integer(checkpoint.offset)])
            }
        }
    }

    /// Clicks per insert statement: a batch is a few statements, each bounded in size.
    static let insertChunk = 1_000

    /// Inserts clicks whose ids are not stored yet, in one statement (a batch as arrays, unnested), calling
    /// `inserted` with each new id.
    private static func insert(
        _ clicks: ArraySlice<ClickRecord>, into db: PostgresConnection, inserted: (String) -> Void
    ) throws {
        func column(_ value: (ClickRecord) -> SQLValue) -> SQLValue { .array(clicks.map(value)) }
        try db.query(
            """
            INSERT INTO clicks (id, created_at, organization_id, program_id, partner_id, code, platform, user_agent,
                referer, ip, country)
            SELECT * FROM unnest(?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                ?::text[], ?::text[], ?::text[], ?::text[])
            ON CONFLICT (id) DO NOTHING RETURNING id
            """,
            [
                column { .text($0.id) }, column { .integer($0.createdAt) }, column { .text($0.organizationID) },
                column { .text($0.programID) }, column { .text($0.partnerID) }, column { .text($0.code) },
                column { .text($0.platform.rawValue) }, column { .text($0.userAgent) }, column { .text($0.referer) },
                column { .text($0.ip) }, column { .optional($0.country) },
            ]
        ) { inserted($0.text(0)) }
    }

    /// Adds a batch's hourly counts to the stored ones in one statement, inside the caller's transaction; the
    /// database adds each changed row to the organization's hour (`organization_click_counts`, by a trigger: step 4).
    /// Rows are upserted in key order, so two nodes' batches lock the hours they share in the same order, in both
    /// tables, and never deadlock.
    private static func write(_ counts: HourlyClickCounts, into db: PostgresConnection) throws {
        let rows = counts.rows
        guard !rows.isEmpty else { return }
        try db.query(
            """
            INSERT INTO click_counts (organization_id, hour_start, partner_id, clicks, unique_clicks)
            SELECT * FROM unnest(?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::bigint[]) ORDER BY 1, 2, 3
            ON CONFLICT (organization_id, hour_start, partner_id) DO UPDATE SET
                clicks = click_counts.clicks + excluded.clicks,
                unique_clicks = click_counts.unique_clicks + excluded.unique_clicks
            """,
            [
                .array(rows.map { .text($0.organizationID) }), .array(rows.map { .integer($0.hourStart) }),
                .array(rows.map { .text($0.partnerID) }), .array(rows.map { .integer($0.clicks) }),
                .array(rows.map { .integer($0.uniqueClicks) }),
            ])
    }

    public func deleteClicks(createdBefore time: Int64, limit: Int) throws -> Int {
        // One statement outside a transaction, so that it runs again on a new connection when the old one was lost.
        let bound = ClickID.timePrefix(milliseconds: time)
        return try withConnection { db in
            try db.query(
                Self.deleteClicksSQL, [.text(bound), .integer(time), .integer(Int64(max(1, limit)))])
            return db.changes
        }
    }
}

extension PostgresStore {
    /// Runs SQL without parameters outside a transaction (`CREATE DATABASE`, `DROP DATABASE`): for tests and
    /// tools of this package that set up databases, never for data. Waits for the answer however long it takes, as a
    /// migration's DDL does: `CREATE DATABASE` copies a template and, with many tests creating theirs at once on a
    /// busy machine, can take longer than a statement's ``PostgresConnection/answerTimeout``.
    package func administer(_ sql: String) throws {
        try withConnection { try $0.execute(sql, patient: true) }
    }
}
