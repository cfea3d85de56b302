/// Where a node's store lives, and how to open connections to it. The one place above which nothing knows
/// which database is in use: the embedded SQLite file in the data directory, or a shared PostgreSQL database
/// (then the data directory holds only the node's click journal).
public struct StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// The data directory: the SQLite file (without ``postgres``) and the click journal.
    public var dataDirectory: String
    /// The shared PostgreSQL store, when one was chosen (`--store` or `TOLT_STORE`).
    public var postgres: PostgresURL?

    public init(dataDirectory: String, postgres: PostgresURL? = nil) {
        self.dataDirectory = dataDirectory
        self.postgres = postgres
    }

    /// The location a command asked for: `store` (the `--store` flag) wins over `environment` (`TOLT_STORE`); an
    /// empty value is no value; without either, SQLite in `dataDirectory`. A value that is not a PostgreSQL URL
    /// throws ``StoreError/invalidConfig(_:)`` with a message for the user (the password masked).
    public static func choose(dataDirectory: String, store: String?, environment: String?) throws(StoreError)
        -> StoreLocation
    {
        let chosen = [store, environment].compactMap { $0 }.first { !$0.isEmpty }
        guard let chosen else { return StoreLocation(dataDirectory: dataDirectory) }
        return StoreLocation(dataDirectory: dataDirectory, postgres: try PostgresURL(chosen))
    }

    /// Opens one connection. Each busy party (ingester, config watcher, API writer and readers) opens its own.
    public func connect() throws -> any Store {
        if let postgres { return PostgresStore(url: postgres) }
        return try SQLiteStore(directory: dataDirectory)
    }

    /// Opens one connection and brings the schema up to date.
    public func openMigrated() throws -> any Store {
        let store = try connect()
        try store.migrate()
        return store
    }

    /// Brings the schema up to date and says from which version to which: `tolt-edge migrate`'s report, so that an
    /// operator told to run it at a quiet time sees whether it did anything.
    public func migrateReporting() throws -> SchemaChange {
        if let postgres {
            return try PostgresStore(url: postgres).migrate(throughStep: PostgresMigrations.steps.count)
        }
        return try SQLiteStore(directory: dataDirectory).migrate(throughStep: SQLiteMigrations.steps.count)
    }

    /// For logs: `PostgreSQL at postgres://user:***@host/db` or `SQLite in ./data`.
    public var description: String {
        if let postgres { return "PostgreSQL at \(postgres.masked)" }
        return "SQLite in \(dataDirectory)"
    }
}

/// A store's schema version before and after a migration (equal when nothing was left to do, or when the store is
/// a newer build's that this one may still use).
public struct SchemaChange: Sendable, Equatable {
    public var from: Int
    public var to: Int

    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}
