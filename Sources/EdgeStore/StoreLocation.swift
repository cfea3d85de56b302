/// Where a node's store lives, and how to open connections to it. The one place above which nothing knows
/// which database is in use: today the embedded SQLite file in the data directory; a shared PostgreSQL
/// store will be chosen here too.
public struct StoreLocation: Sendable, Equatable {
    /// The data directory: the SQLite file (and, beside it, the click journal).
    public var dataDirectory: String

    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
    }

    /// Opens one connection. Each busy party (ingester, config watcher, API writer and readers) opens its own.
    public func connect() throws -> any Store {
        try SQLiteStore(directory: dataDirectory)
    }

    /// Opens one connection and brings the schema up to date.
    public func openMigrated() throws -> any Store {
        let store = try connect()
        try store.migrate()
        return store
    }
}
