import TestSupport
import Testing

@testable import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// Segments hold whole client addresses until they are ingested: the journal is readable by the server's user only.
@Suite struct JournalPermissionsTests {
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0xFFFF }
        return status.st_mode & 0o777
    }

    @Test func theDirectoryIs0700AndSegments0600EvenOverAnOlderDirectory() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // An older build made the directory 0755.
        #expect(mkdir(fixture.directory + "/journal", 0o755) == 0)
        #expect(chmod(fixture.directory + "/journal", 0o755) == 0)
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        #expect(Self.mode(journal.directory) == 0o700)
        let writer = journal.makeWriter(stream: 0)
        ClickJournalTests.append(1, to: writer)
        let segments = journal.segmentNames()
        #expect(segments.count == 1)
        for name in segments { #expect(Self.mode(journal.directory + "/" + name) == 0o600, "\(name)") }
        writer.close()
    }
}
