import Foundation
import TestSupport
import Testing

@testable import Tolt

/// The first open on disk: the file's form, a directory made when needed, what cannot be read.
@Suite struct FirstOpenStorageTests {
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
