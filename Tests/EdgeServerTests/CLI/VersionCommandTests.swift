import TestSupport
import Testing

@testable import EdgeStore

/// `tolt-edge --version` names what an upgrade or a rollback depends on (README, Upgrading): the store schema this
/// build migrates to, on SQLite and PostgreSQL, how old a schema builds before it may run on, and the journal format.
@Suite struct VersionCommandTests {
    @Test func versionNamesTheStoreSchemasAndTheJournalFormat() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for argument in ["--version", "version"] {
            let run = try ChildProcess.run([argument], outputIn: directory.path)
            #expect(run.status == 0, "\(argument): \(run.stderr)")
            #expect(run.stdout == "tolt-edge\n" + StoreVersions.summary + "\n", "\(argument): \(run.stdout)")
        }
        let lines = StoreVersions.summary.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("SQLite store: schema ") && lines[0].hasSuffix(" steps or more run on it)"))
        #expect(lines[1].hasPrefix("PostgreSQL store: schema "))
        #expect(lines[2].hasPrefix("click journal: format "))
    }

    /// The schema it names is the one a store it migrates is at: a fresh SQLite store's `user_version`.
    @Test func theSQLiteSchemaNamedIsTheOneAFreshStoreIsAt() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let version = try fixture.sqliteStore.withConnection { db in
            try db.rows("PRAGMA user_version") { $0.int(0) }.first ?? -1
        }
        #expect(StoreVersions.summary.hasPrefix("SQLite store: schema \(version) ("), "\(version)")
    }
}
