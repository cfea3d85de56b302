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

    /// Throws ``StoreError/newerSchema(_:)`` with what to do when a build that knows `known` steps may not use a
    /// store at `stored` that needs `required` (nil: the newer build did not say, so it may not). Returns whether
    /// the store is newer than this build (and usable): such a store is neither migrated nor marked.
    static func check(stored: Int, required: Int?, known: Int, store: String) throws -> Bool {
        guard stored > known else { return false }
        if let required, required <= known { return true }
        let needs = required.map { "a build that knows at least \($0) steps" } ?? "the build that migrated it"
        throw StoreError.newerSchema(
            "\(store) is at schema version \(stored), from a newer tolt-edge than this one (which knows versions up "
                + "to \(known)); it needs \(needs). Run that build or a newer one on it; nothing was changed")
    }

    /// The upsert that marks the store with this build's number, once its steps are applied: a write only when the
    /// number changes.
    static let markSQL =
        "INSERT INTO meta (key, value) VALUES ('\(metaKey)', ?) "
        + "ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE meta.value <> excluded.value"

    /// The stored number, read with `SELECT value FROM meta WHERE key = …`, or nil when absent or not a number.
    static let readSQL = "SELECT value FROM meta WHERE key = '\(metaKey)'"
}
