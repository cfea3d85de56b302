import TestSupport

@testable import EdgeStore

extension StoreFixture {
    /// A store of `kind` migrated only through `sqliteStep` (SQLite) or `postgresStep` (PostgreSQL): the schema a
    /// build before a migration left, for tests of what that migration does to it. SQLite's is a file of its own in
    /// the fixture's directory; PostgreSQL's a database of its own, dropped by `remove` (call it in a `defer`).
    func olderStore(sqliteStep: Int, postgresStep: Int) throws -> (store: any Store, remove: () -> Void) {
        if kind == .sqlite {
            let store = try SQLiteStore(path: directory + "/step\(sqliteStep).sqlite")
            try store.migrate(throughStep: sqliteStep)
            return (store, {})
        }
        let url = try TestPostgres.createDatabase()
        let store = PostgresStore(url: url)
        do {
            try store.migrate(throughStep: postgresStep)
        } catch {
            TestPostgres.dropDatabase(url)
            throw error
        }
        return (store, { TestPostgres.dropDatabase(url) })
    }
}
