import LinkCore

/// The store logic both SQL stores share, written once over their connection (``StoreConnection``).
///
/// ``SQLiteStore`` and ``PostgresStore`` conform and get from its extensions (`SQLStore-*.swift`) the parts of
/// ``Store`` whose SQL and Swift are the same for both: configuration, customers, webhooks and commissions, the
/// click list and counts, the summaries. Each store keeps what really differs (migrations, the click ingest, the
/// signing key, the click pruning, PostgreSQL's config notifications) and says here how it differs: its
/// ``dialect`` and its ``webhookTransaction(_:organizationID:_:)``.
///
/// The extensions are generic over the concrete connection type, so they are specialized per store: no
/// existential call per statement or row.
protocol SQLStore: Store {
    associatedtype Connection: StoreConnection

    /// The statements this store writes in its own way.
    static var dialect: SQLDialect { get }

    /// Runs `body` with the store's connection, one caller at a time.
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T

    /// The transaction ``recordWebhookEvent(_:plan:)`` reads its ledger and writes its plan in. It must serialise
    /// the events of one organization (the plan's writes are computed from what the transaction read) and may run
    /// `body` again.
    static func webhookTransaction<T>(_ db: Connection, organizationID: String, _ body: () throws -> T) throws -> T
}

extension SQLStore {
    /// One page of a list: `sql` ordered by `order` (newest first), at most `limit` rows (1 to
    /// ``ClickQuery/maximumLimit``), and whether more follow.
    func page<Item>(
        _ sql: String, _ bindings: [SQLValue], order: String, limit: Int, _ transform: (Connection.Row) throws -> Item
    ) throws -> Page<Item> {
        let limit = max(1, min(limit, ClickQuery.maximumLimit))
        var bindings = bindings
        let sql = sql + " ORDER BY \(order) DESC" + Self.dialect.limit(limit + 1, bindings: &bindings)
        let rows = try withConnection { try $0.rows(sql, bindings, transform) }
        return Page(items: Array(rows.prefix(limit)), hasMore: rows.count > limit)
    }

    /// ` AND <seq> < ?` for the page after the row `id` (its `idColumn`) of the organization's `table`, with that
    /// row's `seq` appended to `bindings`; nothing without a cursor. ``StoreError/unknownCursor(_:)`` (its message
    /// names `id`, for the caller to say which parameter held it) when the organization has no such row: an empty
    /// page would pass for the list's end. (Clicks need no look-up: a click id starts with its time, so any valid
    /// one is a place.)
    func condition(
        after id: String?, seq: String, in table: String, idColumn: String = "id", organizationID: String,
        noun: String, bindings: inout [SQLValue]
    ) throws -> String {
        guard let id else { return "" }
        let found = try withConnection { db in
            try db.rows(
                "SELECT seq FROM \(table) WHERE organization_id = ? AND \(idColumn) = ?",
                [.text(organizationID), .text(id)]
            ) { $0.int(0) }
        }
        guard let position = found.first else {
            throw StoreError.unknownCursor(
                "\(id) is no \(noun) of this organization: give the last id of the page before")
        }
        bindings.append(.integer(position))
        return " AND \(seq) < ?"
    }
}
