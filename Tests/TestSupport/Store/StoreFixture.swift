import EdgeStore
import Foundation
import LinkCore

/// A migrated store of its own, removed by ``remove()``: SQLite in a temporary data directory, or a fresh
/// PostgreSQL database (``TestPostgres``) with a temporary data directory for the journal. What a store test
/// works on, and what a server test's data directory starts as.
package final class StoreFixture {
    package let kind: StoreKind
    package let temporaryDirectory: TemporaryDirectory
    package let store: any Store
    /// The PostgreSQL database, for ``StoreKind/postgres``.
    package let postgres: PostgresURL?

    /// The data directory (the SQLite file, and a journal when a test makes one).
    package var directory: String { temporaryDirectory.path }

    /// Where the store is, as a server or a command is told.
    package var location: StoreLocation { StoreLocation(dataDirectory: directory, postgres: postgres) }

    /// The SQLite store, for the tests that are about SQLite itself (files, pragmas).
    package var sqliteStore: SQLiteStore {
        guard let store = store as? SQLiteStore else { preconditionFailure("not a SQLite fixture") }
        return store
    }

    /// Creates the directory and the store, migrates it, and imports `config` (the `tolt-edge import` form)
    /// when one is given, as `tolt-edge import` would. A PostgreSQL fixture without `TOLT_TEST_POSTGRES` throws
    /// (the test fails, saying how to run it); its database is made with `databaseOptions`
    /// (``TestPostgres/createDatabase(options:)``).
    package init(_ kind: StoreKind = .sqlite, importing config: String? = nil, databaseOptions: String = "") throws {
        self.kind = kind
        temporaryDirectory = try TemporaryDirectory()
        var database: PostgresURL?
        do {
            switch kind {
            case .sqlite: store = try SQLiteStore(directory: temporaryDirectory.path)
            case .postgres:
                database = try TestPostgres.createDatabase(options: databaseOptions)
                store = PostgresStore(url: database!)
            }
            postgres = database
            try store.migrate()
            if let config {
                try ConfigImporter.importDocument(try ConfigDocument(json: Array(config.utf8)), into: store)
            }
        } catch {
            if let database { TestPostgres.dropDatabase(database) }
            temporaryDirectory.remove()
            throw error
        }
    }

    /// Another connection to the same store, as another process would open it.
    package func reopen() throws -> any Store {
        try location.openMigrated()
    }

    /// Imports `json` (the `tolt-edge import` form) into `target`, or into ``store``.
    @discardableResult
    package func importJSON(_ json: String, into target: (any Store)? = nil) throws -> ImportReport {
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(json.utf8)), into: target ?? store)
    }

    /// Removes the data directory and everything in it, and the PostgreSQL database.
    package func remove() {
        if let postgres { TestPostgres.dropDatabase(postgres) }
        temporaryDirectory.remove()
    }
}
