import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// One journal at a time on a data directory: a second one (another `tolt-edge serve` on the same `--data`) would
/// take the first one's open segments for an earlier process's leftovers, ingest and delete them, and every click
/// the first journals afterwards would go into unlinked files. The second is refused, touching nothing; the kernel's
/// lock, not the pid in the file, decides. The server processes are in `EdgeServerTests`' `SecondServerTests`.
@Suite struct DataDirectoryLockTests {
    @Test func aSecondJournalOnTheSameDirectoryIsRefusedAndTouchesNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let (first, writer) = try fixture.openJournal()
        var expected = (0..<5).map { ClickJournalTests.append($0, to: writer) }
        let segments = first.segmentNames()
        let sizes = try segments.map { try ClickJournalTests.size(first.directory + "/" + $0) }
        #expect(segments.count == 1)

        #expect {
            _ = try ClickJournal(dataDirectory: fixture.directory)
        } throws: { error in
            "\(error)".hasPrefix(
                "data directory \(fixture.directory) is in use by another tolt-edge serve (pid \(getpid())): ")
                && "\(error)".hasSuffix("the lock is \(fixture.directory)/journal.lock")
        }
        #expect(first.segmentNames() == segments, "no segment taken")
        #expect(try segments.map { try ClickJournalTests.size(first.directory + "/" + $0) } == sizes)

        // The first goes on writing into the same file, and its ingester stores every click.
        expected += (5..<10).map { ClickJournalTests.append($0, to: writer) }
        #expect(first.segmentNames() == segments)
        try ClickIngester(journal: first, store: try fixture.reopen()).pass()
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        withExtendedLifetime(writer) {}
    }

    /// `EdgeServer.stop()` releases, so a server of the same process may start on the directory afterwards; a journal
    /// freed without it releases too.
    @Test func aReleasedOrFreedJournalLeavesTheDirectoryToTheNext() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let first = try ClickJournal(dataDirectory: data.path)
        first.release()
        first.release()  // again: nothing happens
        do {
            let second = try ClickJournal(dataDirectory: data.path)
            #expect(second.nodeID == first.nodeID)
            _ = withExtendedLifetime(second) {
                #expect(throws: StoreError.self) { _ = try ClickJournal(dataDirectory: data.path) }
            }
        }
        #expect(throws: Never.self) { _ = try ClickJournal(dataDirectory: data.path) }
    }

    /// The file names its holder for people; a pid left behind by a crash (the lock went with the process) stops
    /// nothing, and a clean release leaves no pid behind.
    @Test func theLockFileNamesItsHolderAndAPIDLeftBehindStopsNothing() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let path = data.path + "/journal.lock"
        try "4194304\n".write(toFile: path, atomically: false, encoding: .utf8)
        let journal = try ClickJournal(dataDirectory: data.path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        journal.release()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "")
    }

    /// The lock is the kernel's: a descriptor of another open file description holding it (what another process
    /// would have) refuses the journal even when the file names no pid, and its message then names none.
    @Test func theLockNotThePIDDecides() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let path = data.path + "/journal.lock"
        let holder = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(holder >= 0)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
        #expect {
            _ = try ClickJournal(dataDirectory: data.path)
        } throws: { error in
            "\(error)".hasPrefix("data directory \(data.path) is in use by another tolt-edge serve: stop that one")
        }
        #expect(!FileManager.default.fileExists(atPath: data.path + "/journal"), "nothing made")
        #expect(!FileManager.default.fileExists(atPath: data.path + "/node-id"), "nothing made")
        #expect(flock(holder, LOCK_UN) == 0)
        #expect(throws: Never.self) { _ = try ClickJournal(dataDirectory: data.path) }
    }

    /// The lock file is written and emptied, so it must be the directory's own: a hard link to a file elsewhere (a
    /// symbolic one is refused by O_NOFOLLOW) or a directory in its place is refused, and the other file is left as
    /// it was.
    @Test func aLockFileThatIsAHardLinkOrADirectoryIsRefusedAndLeftAlone() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let elsewhere = data.path + "/elsewhere.txt"
        try "keep me\n".write(toFile: elsewhere, atomically: false, encoding: .utf8)
        let path = data.path + "/journal.lock"
        #expect(link(elsewhere, path) == 0)
        #expect(throws: StoreError.self) { _ = try ClickJournal(dataDirectory: data.path) }
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "keep me\n")
        #expect(unlink(path) == 0)
        #expect(symlink(elsewhere, path) == 0)
        #expect(throws: StoreError.self) { _ = try ClickJournal(dataDirectory: data.path) }
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "keep me\n")
        #expect(unlink(path) == 0)
        #expect(mkdir(path, 0o700) == 0)
        #expect(throws: StoreError.self) { _ = try ClickJournal(dataDirectory: data.path) }
        #expect(rmdir(path) == 0)
        #expect(throws: Never.self) { _ = try ClickJournal(dataDirectory: data.path) }
    }
}
