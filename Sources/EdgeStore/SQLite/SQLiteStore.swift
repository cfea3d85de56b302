import LinkCore
import Synchronization

/// The embedded store: one SQLite file in WAL mode.
///
/// Each instance owns one connection behind a mutex. Give each busy party (the ingester, the API workers,
/// the config watcher) its own instance: WAL lets their readers run beside one writer.
public final class SQLiteStore: Store, SQLStore {
    let connection: Mutex<SQLiteConnection>
    /// The database file.
    public let path: String

    /// Opens (creating when missing) the database at `path`.
    ///
    /// The database and its `-wal` and `-shm` files hold client addresses, User-Agents and webhook bodies, like the
    /// journal, so they are the server's user's alone (0600) whatever the umask: the database is created with that
    /// mode before SQLite opens it (SQLite gives `-wal` and `-shm` the database file's mode when it makes them), and
    /// files an older build left 0644 are changed on every open.
    public init(path: String) throws {
        self.path = path
        FileSystem.makePrivate(path, create: true)
        for suffix in ["-wal", "-shm"] { FileSystem.makePrivate(path + suffix, create: false) }
        connection = Mutex(try SQLiteConnection(path: path))
    }

    /// Opens `tolt-edge.sqlite` in `directory`, creating the directory when missing.
    public convenience init(directory: String) throws {
        guard FileSystem.makeDirectory(directory) else { throw StoreError.io("cannot create \(directory)") }
        try self.init(path: directory + "/tolt-edge.sqlite")
    }

    static let dialect = SQLDialect.sqlite

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { try body($0) }
    }

    /// `BEGIN IMMEDIATE`: it takes the file's write lock first, so events (of every organization) are recorded one
    /// at a time, each planned from what the ones before it wrote.
    static func webhookTransaction<T>(_ db: SQLiteConnection, organizationID: String, _ body: () throws -> T) throws
        -> T
    {
        try db.transaction(body)
    }

    /// Applies the steps of ``SQLiteMigrations`` the file lacks, each in its own transaction, and marks the file with
    /// the fewest steps a build must know to use it; refuses a file a newer build migrated unless that build said
    /// this one may still use it (``SchemaCompatibility``).
    public func migrate() throws {
        try migrate(throughStep: SQLiteMigrations.steps.count)
    }

    /// ``migrate()`` up to step `last` only: the store an older build made, for tests of the steps after it. Returns
    /// the schema's version before and after, for `tolt-edge migrate` to say what it did.
    @discardableResult func migrate(throughStep last: Int) throws -> SchemaChange {
        try withConnection { db in
            var version = 0
            try db.query("PRAGMA user_version") { version = Int($0.int(0)) }
            if try SchemaCompatibility.isNewerAndUsable(
                db, stored: version, known: SQLiteMigrations.steps.count, store: "the SQLite store \(path)")
            {
                return SchemaChange(from: version, to: version)
            }
            for (index, step) in SQLiteMigrations.steps.prefix(last).enumerated() where index >= version {
                try db.transaction {
                    try db.execute(step.sql)
                    try step.code?(db)
                    try db.execute("PRAGMA user_version = \(index + 1)")
                }
            }
            try SchemaCompatibility.mark(db, compatible: SQLiteMigrations.compatibleVersion)
            if version < last {
                // Nothing an older step replaced (plain secrets) stays in the write-ahead log.
                try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
            return SchemaChange(from: version, to: max(version, last))
        }
    }

    public func clickSigningKey() throws -> [UInt8] {
        try withConnection { db in
            try db.transaction {
                var hex: String?
                try db.query("SELECT value FROM meta WHERE key = 'click_signing_key'") { hex = $0.text(0) }
                if let hex, let key = Hex.decode(hex) { return key }
                var generator = SystemRandomNumberGenerator()
                let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
                try db.query(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('click_signing_key', ?)", [.text(Hex.encode(key))]
                )
                return key
            }
        }
    }

    public func ingest(_ clicks: [ClickRecord], repeats: [ClickRecord], checkpoint: JournalCheckpoint) throws {
        try withConnection { db in
            try db.transaction {
                var counts = HourlyClickCounts()
                // A click whose id is already stored counts as a repeat of it: the ingester's repeat-tap table may
                // have stored a visitor's tap on another loop under this id while this click's batch failed to
                // commit (the table remembers first taps before their commit). A plain insert would fail on the
                // id for ever and stop ingestion; counting it twice as unique would be wrong.
                for click in clicks {
                    try insert(click, into: db, ifAbsent: true)
                    counts.add(click, unique: db.changes == 1)
                }
                // After the clicks, so that a repeat finds its first tap ingested in the same batch.
                for tap in repeats {
                    try insert(tap, into: db, ifAbsent: true)
                    counts.add(tap, unique: db.changes == 1)
                }
                try counts.write(into: db)
                try db.query(
                    """
                    INSERT INTO journal_checkpoints (segment, byte_offset) VALUES (?, ?)
                    ON CONFLICT (segment) DO UPDATE SET byte_offset = excluded.byte_offset
                    """, [.text(checkpoint.segment), .integer(checkpoint.offset)])
            }
        }
    }

    /// Inserts a click; with `ifAbsent`, only when no click has its id (``SQLiteConnection/changes`` says which).
    private func insert(_ click: ClickRecord, into db: SQLiteConnection, ifAbsent: Bool) throws {
        try db.query(
            """
            INSERT INTO clicks (id, created_at, organization_id, program_id, partner_id, code, platform,
                user_agent, referer, ip, country) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """ + (ifAbsent ? " ON CONFLICT (id) DO NOTHING" : ""),
            [
                .text(click.id), .integer(click.createdAt), .text(click.organizationID),
                .text(click.programID), .text(click.partnerID), .text(click.code),
                .text(click.platform.rawValue), .text(click.userAgent), .text(click.referer),
                .text(click.ip), .optional(click.country),
            ])
    }

    public func deleteClicks(createdBefore time: Int64, limit: Int) throws -> Int {
        // One statement in a write transaction (``deleteClicksSQL`` says why it reads only what it deletes).
        let bound = ClickID.timePrefix(milliseconds: time)
        return try withConnection { db in
            try db.transaction {
                try db.query(
                    Self.deleteClicksSQL, [.text(bound), .integer(time), .integer(Int64(max(1, limit)))])
                return db.changes
            }
        }
    }
}

/// Lower-case hexadecimal, for keys kept as text.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let high = ASCII.hexValue(bytes[index]), let low = ASCII.hexValue(bytes[index + 1]) else {
                return nil
            }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
