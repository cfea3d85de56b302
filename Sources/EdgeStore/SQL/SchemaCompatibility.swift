/// Whether this build may use a store whose schema a newer build has migrated: a rollback (a new build's data, an
/// older build started on it again).
///
/// Each store keeps, beside its schema version, the fewest migration steps a build must know to use it
/// (`compatible_schema_version` in `meta`), written by every build that migrates it. A build that finds a version
/// above its own steps uses the store only when that number is within its steps: a newer build's step that older
/// builds can live with (an index, a table they never touch) leaves the number where it was, one they would misuse
/// raises it. Without this, an older build ran on a schema it did not know: it wrote rows without the columns and
/// counts the newer steps keep, and nothing said so.
enum SchemaCompatibility {
    /// The `meta` key of the fewest steps a build must know to use the store.
    static let metaKey = "compatible_schema_version"

    /// Whether a store at schema version `stored` is a newer build's that this build, which knows `known` steps, may
    /// use as it is (then it is neither migrated nor marked); `false` for a store this build or an older one migrated.
    /// Throws ``StoreError/newerSchema(_:)`` with what to do when the newer build's mark asks for more steps than
    /// `known`, or there is none (the newer build did not say, so this one may not). `store` names it in the message.
    static func isNewerAndUsable(
        _ db: some StoreConnection, stored: Int, known: Int, store: String
    ) throws -> Bool {
        guard stored > known else { return false }
        let required = try mark(in: db)
        if let required, required <= known { return true }
        let needs = required.map { "a build that knows at least \($0) steps" } ?? "the build that migrated it"
        throw StoreError.newerSchema(
            "\(store) is at schema version \(stored), from a newer tolt-edge than this one (which knows versions up "
                + "to \(known)); it needs \(needs). Run that build or a newer one on it; nothing was changed")
    }

    /// Marks the store with `compatible`, this build's number, once its steps are applied. Read first: a store that
    /// holds the number already is not written (opening a store that is up to date writes nothing for it).
    static func mark(_ db: some StoreConnection, compatible: Int) throws {
        guard try mark(in: db) != compatible else { return }
        try db.query(
            "INSERT INTO meta (key, value) VALUES ('\(metaKey)', ?) "
                + "ON CONFLICT (key) DO UPDATE SET value = excluded.value", [.text(String(compatible))])
    }

    /// The stored number, or nil when absent or not a number.
    private static func mark(in db: some StoreConnection) throws -> Int? {
        try db.rows("SELECT value FROM meta WHERE key = '\(metaKey)'") { Int($0.text(0)) }.first ?? nil
    }
}
