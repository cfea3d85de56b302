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
}
