import TestSupport
import Testing

@testable import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// `tolt-edge.sqlite` and its `-wal` and `-shm` files hold addresses, User-Agents and webhook bodies, like the
/// journal: they are readable by the server's user only, from creation, and files an older build left 0644 are made
/// so when the store opens them.
@Suite struct SQLiteFilePermissionsTests {
    static let names = ["tolt-edge.sqlite", "tolt-edge.sqlite-wal", "tolt-edge.sqlite-shm"]

    @Test func theDatabaseAndItsWALAndSharedMemoryFilesAre0600() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // The fixture's store is open, in WAL mode, and has written (migrations): all three files are there.
        for name in Self.names {
            #expect(JournalPermissionsTests.mode(fixture.directory + "/" + name) == 0o600, "\(name)")
        }
    }

    @Test func filesAnOlderBuildLeft0644Are0600OnceOpened() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        for name in Self.names { #expect(chmod(fixture.directory + "/" + name, 0o644) == 0, "\(name)") }
        let reopened = try SQLiteStore(directory: fixture.directory)
        try reopened.migrate()
        for name in Self.names {
            #expect(JournalPermissionsTests.mode(fixture.directory + "/" + name) == 0o600, "\(name)")
        }
    }

    /// The mode holds whatever the process's umask lets through: the database is created 0600 before SQLite opens it,
    /// and SQLite gives the files it makes beside it the database's mode.
    @Test func aNewDatabaseIs0600BeforeItsFirstWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteStore(path: directory.path + "/new.sqlite")
        #expect(JournalPermissionsTests.mode(directory.path + "/new.sqlite") == 0o600)
        try store.migrate()
        for suffix in ["", "-wal", "-shm"] {
            #expect(JournalPermissionsTests.mode(directory.path + "/new.sqlite" + suffix) == 0o600, "\(suffix)")
        }
    }
}
