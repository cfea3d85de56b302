import EdgeStore
import Foundation
import LinkCore

/// A migrated SQLite store in a temporary data directory of its own, removed by ``remove()``: what a store
/// test works on, and what a server test's data directory starts as.
package final class StoreFixture {
    package let temporaryDirectory: TemporaryDirectory
    package let store: SQLiteStore

    /// The data directory (the store's file, and a journal when a test makes one).
    package var directory: String { temporaryDirectory.path }

    /// Creates the directory and the store, migrates it, and imports `config` (the `tolt-edge import` form)
    /// when one is given, as `tolt-edge import` would.
    package init(importing config: String? = nil) throws {
        temporaryDirectory = try TemporaryDirectory()
        do {
            store = try SQLiteStore(directory: temporaryDirectory.path)
            try store.migrate()
            if let config {
                try ConfigImporter.importDocument(try ConfigDocument(json: Array(config.utf8)), into: store)
            }
        } catch {
            temporaryDirectory.remove()
            throw error
        }
    }

    /// Another connection to the same file, as another process would open it.
    package func reopen() throws -> SQLiteStore {
        let other = try SQLiteStore(directory: directory)
        try other.migrate()
        return other
    }

    /// Imports `json` (the `tolt-edge import` form) into `target`, or into ``store``.
    @discardableResult
    package func importJSON(_ json: String, into target: (any Store)? = nil) throws -> ImportReport {
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(json.utf8)), into: target ?? store)
    }

    /// Removes the data directory and everything in it.
    package func remove() {
        temporaryDirectory.remove()
    }
}
