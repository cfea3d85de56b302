import Foundation
import TestSupport
import Testing

@testable import Tolt

/// The first open on disk: the file's form, a directory made when needed, what cannot be read.
@Suite(.highPriority) struct FirstOpenStorageTests {
    @Test func aTimeSavedIsReadBackToTheMillisecond() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A directory that does not exist yet, as on an app's first launch.
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path + "/app/Tolt"))
        #expect(storage.load() == nil)
        let time = Date(timeIntervalSince1970: 1_784_000_000.123)
        try storage.save(time)
        let text = try String(contentsOfFile: directory.path + "/app/Tolt/first-open", encoding: .utf8)
        #expect(text == "2026-07-14T03:33:20.123Z\n")
        let loaded = try #require(storage.load())
        #expect(abs(loaded.timeIntervalSince(time)) < 0.001)
    }

    @Test func theFirstTimeStaysWhateverComesLater() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path))
        let first = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(storage.firstOpen(storingIfAbsent: first) == first)
        #expect(storage.firstOpen(storingIfAbsent: Date()) == first)
        #expect(storage.load() == first)
    }

    /// A first open stored while the device's clock was not yet set (1970) would close every claim window for good;
    /// the first launch with a set clock replaces it, and a launch without one stores nothing.
    @Test func aFirstOpenFromAClockNotYetSetIsReplacedByTheFirstLaunchWithOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path))
        let unset = Date(timeIntervalSince1970: 42)
        #expect(storage.firstOpen(storingIfAbsent: unset) == unset, "sent, since it is all this launch has")
        #expect(storage.load() == nil, "but not stored")
        try storage.save(Date(timeIntervalSince1970: 978_307_200))  // 2001-01-01, as an older build stored it
        let set = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(storage.firstOpen(storingIfAbsent: set) == set)
        #expect(storage.load() == set)
        #expect(storage.firstOpen(storingIfAbsent: set.addingTimeInterval(86_400)) == set, "and it stays")
        #expect(storage.firstOpen(storingIfAbsent: unset) == set, "a later launch whose clock is unset sends it too")
    }

    /// A launch whose clock was not yet set gives its claim the claim's own time (stored), once the clock is set.
    @Test func aClaimAfterTheClockIsSetSendsItsOwnTime() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path))
        let lookup = FirstOpenLookup(storage: storage, launch: Date(timeIntervalSince1970: 42), deferred: false)
        let before = Date()
        let sent = await lookup.value
        #expect(sent >= before && sent <= Date())
        let stored = try #require(storage.load())
        #expect(abs(stored.timeIntervalSince(sent)) < 0.001, "stored, to the millisecond")
    }

    @Test func aFileWrittenByHandOrBrokenOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path))
        let file = try #require(storage.fileURL)
        try Data("2026-01-31T12:00:00Z".utf8).write(to: file)
        #expect(storage.load() == Date(timeIntervalSince1970: 1_769_860_800))
        try Data("2026-01-31T13:00:00.500+01:00\n".utf8).write(to: file)
        #expect(storage.load() == Date(timeIntervalSince1970: 1_769_860_800.5))
        try Data("yesterday".utf8).write(to: file)
        #expect(storage.load() == nil)
        #expect(storage.read() == .unreadable)
    }

    /// A file that exists but holds no time (written by something else, or damaged) may have held an earlier first
    /// open: it is left as it is, and claims send this launch's time.
    @Test func aFileThatCannotBeParsedIsNeverOverwritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path))
        let file = try #require(storage.fileURL)
        for garbage in ["yesterday", "", "2026-13-45T99:00:00Z\n", "\u{0}\u{1}"] {
            try Data(garbage.utf8).write(to: file)
            let now = Date()
            #expect(storage.firstOpen(storingIfAbsent: now) == now)
            #expect(try Data(contentsOf: file) == Data(garbage.utf8), "\(garbage.debugDescription) was overwritten")
        }
    }

    /// A file that exists but cannot be read is left as it is. Unreadable for anyone, root included: a symbolic
    /// link to itself (ELOOP). Unreadable for others: a file without permissions (root reads it anyway, and then
    /// gets its time).
    @Test func aFileThatCannotBeReadIsNeverOverwritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path))
        let file = try #require(storage.fileURL)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: FirstOpenStorage.fileName)
        #expect(storage.read() == .unreadable)
        let now = Date()
        #expect(storage.firstOpen(storingIfAbsent: now) == now)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == FirstOpenStorage.fileName)
        try FileManager.default.removeItem(at: file)

        let earlier = Date(timeIntervalSince1970: 1_700_000_000)
        try storage.save(earlier)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        let sent = storage.firstOpen(storingIfAbsent: Date())
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(sent == earlier || sent > earlier.addingTimeInterval(86_400))
        #expect(storage.load() == earlier)
    }

    @Test func anEarlierTimeIsNeverReplacedByALaterOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path))
        let earlier = Date(timeIntervalSince1970: 1_769_860_800)
        let later = earlier.addingTimeInterval(3_600)
        try storage.save(earlier)
        #expect(storage.firstOpen(storingIfAbsent: later) == earlier)
        #expect(storage.load() == earlier)
        // A stored time later than this launch (a clock set back since): the earlier one is kept, and stored.
        try storage.save(later)
        #expect(storage.firstOpen(storingIfAbsent: earlier) == earlier)
        #expect(storage.load() == earlier)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [FirstOpenStorage.fileName])
    }

    @Test func aStorageThatCannotBeWrittenStillGivesATime() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A regular file where the directory should be: nothing can be stored under it.
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.path + "/blocked"))
        let storage = FirstOpenStorage.directory(URL(fileURLWithPath: directory.path + "/blocked/Tolt"))
        let now = Date()
        #expect(storage.firstOpen(storingIfAbsent: now) == now)
        #expect(storage.load() == nil)
    }

    /// What Apple platforms use. Foundation on Linux has `UserDefaults` too (a suite is a file under
    /// `~/.config`), so the same code runs here, on a suite of this test's own that it removes.
    @Test func userDefaultsKeepSecondsSince1970() throws {
        let suite = "io.tolt.sdk.tests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let storage = FirstOpenStorage.userDefaults(suiteName: suite)
        #expect(storage.load() == nil)
        let first = Date(timeIntervalSince1970: 1_784_000_000.25)
        #expect(storage.firstOpen(storingIfAbsent: first) == first)
        #expect(storage.firstOpen(storingIfAbsent: Date()) == first)
        let defaults = try #require(UserDefaults(suiteName: suite))
        #expect(defaults.double(forKey: FirstOpenStorage.userDefaultsKey) == 1_784_000_000.25)
        defaults.set("not a time", forKey: FirstOpenStorage.userDefaultsKey)
        #expect(storage.load() == nil)
        #expect(storage.read() == .unreadable)
        // A value of another type is never overwritten: this launch's time is sent instead.
        let now = Date()
        #expect(storage.firstOpen(storingIfAbsent: now) == now)
        #expect(defaults.string(forKey: FirstOpenStorage.userDefaultsKey) == "not a time")
    }

    @Test func theLinuxDefaultIsAFileUnderTheApplicationSupportDirectory() throws {
        #if canImport(Darwin)
            #expect(FirstOpenStorage.platformDefault == .userDefaults())
        #else
            let file = try #require(FirstOpenStorage.platformDefault.fileURL)
            let support = try FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false)
            #expect(file.path == support.path + "/\(ProcessInfo.processInfo.processName)/Tolt/first-open")
        #endif
    }
}
