/// A value bound to a statement parameter, for either store's connection.
///
/// One type for both stores, so that the store logic written once over ``StoreConnection`` builds its bindings
/// once. Each connection turns it into its own form: SQLite binds it natively, PostgreSQL sends its text format
/// (`SQLValue+Postgres.swift`).
enum SQLValue {
    case null
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    /// A one-dimensional array (`text[]`, `bigint[]`): a whole batch in one parameter, unnested by the statement,
    /// so that one prepared statement inserts a batch of any size. PostgreSQL only: SQLite refuses it.
    case array([SQLValue])

    static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
    static func optional(_ number: Int?) -> SQLValue { number.map { .integer(Int64($0)) } ?? .null }
    static func optional(_ number: Int64?) -> SQLValue { number.map(SQLValue.integer) ?? .null }
}
