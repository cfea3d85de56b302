/// One database connection as the shared store logic (``SQLStore``) sees it: statements with ``SQLValue``
/// bindings, rows read through ``StoreRow``, the rows a statement changed, and transactions.
///
/// ``SQLiteConnection`` and ``PostgresConnection`` conform; what differs between them (how a transaction begins,
/// how a lost connection is retried, how errors map to ``StoreError``) stays inside each. The store logic is generic
/// over the concrete type, so it is specialized per store: no existential call per row.
protocol StoreConnection: AnyObject {
    associatedtype Row: StoreRow

    /// Prepares (once, then from the connection's cache) and runs a statement, calling `row` for each result row.
    /// Parameters are marked as SQLite marks them: `?` takes the next number, `?N` number N.
    func query(_ sql: String, _ bindings: [SQLValue], row: (Row) throws -> Void) throws

    /// Runs statements without parameters and without rows (`BEGIN`, DDL, `NOTIFY`).
    func execute(_ sql: String) throws(StoreError)

    /// Rows changed by the last statement.
    var changes: Int { get }

    /// Runs `body` in a write transaction, rolling back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T

    /// Runs `body` in a read transaction: every statement in it sees the same moment of the database, so a write
    /// committed meanwhile is seen whole or not at all.
    func readTransaction<T>(_ body: () throws -> T) throws -> T
}

extension StoreConnection {
    /// Runs a statement whose rows, if any, are not wanted.
    func query(_ sql: String, _ bindings: [SQLValue] = []) throws {
        try query(sql, bindings) { _ in }
    }

    /// Runs a statement without parameters, calling `row` for each result row.
    func query(_ sql: String, row: (Row) throws -> Void) throws {
        try query(sql, [], row: row)
    }

    /// Runs a statement and returns its rows mapped by `transform`.
    func rows<T>(_ sql: String, _ bindings: [SQLValue] = [], _ transform: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        try query(sql, bindings) { result.append(try transform($0)) }
        return result
    }
}

/// The current row of a running statement, read by column number (from 0).
protocol StoreRow {
    /// Whether the column is NULL (``int(_:)`` and ``text(_:)`` cannot tell).
    func isNull(_ column: Int32) -> Bool
    /// An integer column; 0 for NULL.
    func int(_ column: Int32) -> Int64
    /// A text column; empty for NULL.
    func text(_ column: Int32) -> String
}

extension StoreRow {
    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}
