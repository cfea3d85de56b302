/// The statements of the shared store logic (``SQLStore``) that SQLite and PostgreSQL write differently, in one
/// place: everything else is the same SQL for both.
struct SQLDialect: Sendable {
    /// Reads the configuration's revision.
    let configRevision: String
    /// Reads the revision at the start of ``SQLStore/applyConfig(_:expectedRevision:)``'s transaction, so that of
    /// two imports the second waits for the first and then sees its revision.
    let configRevisionForUpdate: String
    /// Moves the revision on by one.
    let configRevisionIncrement: String
    /// Run last in ``SQLStore/applyConfig(_:expectedRevision:)``'s transaction to tell other nodes; nil without.
    let configChangeNotice: String?
    /// Whether a `LIMIT` is a parameter (one prepared statement serves every page size: a PostgreSQL connection
    /// prepares each new text on the server) or written into the statement.
    let limitIsParameter: Bool
    /// The size in bytes of the text column `body` (the UTF-8 the store keeps), read without copying it out: SQLite
    /// before 3.43 has no `octet_length`, and its `length` of text counts characters.
    let bodyBytes: String
    /// ` COLLATE …` for an `ORDER BY` of text in byte order: SQLite's `BINARY`; PostgreSQL's "C", since a column
    /// without one sorts in the database's collation, which may be a locale's.
    let byteOrder: String

    /// SQLite: `BEGIN IMMEDIATE` holds the write lock from the transaction's start, so a plain read is already
    /// locked.
    static let sqlite = SQLDialect(
        configRevision: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'config_revision'",
        configRevisionForUpdate: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'config_revision'",
        configRevisionIncrement:
            "UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'config_revision'",
        configChangeNotice: nil,
        limitIsParameter: false,
        bodyBytes: "length(CAST(body AS BLOB))",
        byteOrder: " COLLATE BINARY")

    /// PostgreSQL: the revision row is locked `FOR UPDATE`; `NOTIFY` reaches every listening node when the
    /// transaction commits (``ConfigWatcher``).
    static let postgres = SQLDialect(
        configRevision: "SELECT CAST(value AS bigint) FROM meta WHERE key = 'config_revision'",
        configRevisionForUpdate: "SELECT CAST(value AS bigint) FROM meta WHERE key = 'config_revision' FOR UPDATE",
        configRevisionIncrement:
            "UPDATE meta SET value = CAST(CAST(value AS bigint) + 1 AS text) WHERE key = 'config_revision'",
        configChangeNotice: "NOTIFY \(PostgresStore.configChannel)",
        limitIsParameter: true,
        bodyBytes: "octet_length(body)",
        byteOrder: #" COLLATE "C""#)

    /// ` LIMIT n` for a statement with `bindings`: as the next parameter (appended to `bindings`) or as a literal.
    func limit(_ limit: Int, bindings: inout [SQLValue]) -> String {
        guard limitIsParameter else { return " LIMIT \(limit)" }
        bindings.append(.integer(Int64(limit)))
        return " LIMIT ?\(bindings.count)"
    }
}
