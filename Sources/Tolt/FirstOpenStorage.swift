import Foundation

/// Where the SDK keeps the app's first open, the time the claim window counts from, so that it survives
/// restarts of the app.
///
/// On Apple platforms it is a `UserDefaults` value; elsewhere (Linux, Windows, Android) a one-line ISO 8601
/// file `Tolt/first-open` under the app's folder in the user's application-support directory (on Linux
/// `$XDG_DATA_HOME/<executable>/`, by default `~/.local/share/<executable>/`). Tests and tools in this package
/// choose another place through ``ToltState``.
///
/// When the first open cannot be stored (storage that cannot be written, or holds something that cannot be read
/// and so is never overwritten), every launch's claims send that launch's time: the window counts from the latest
/// launch and never closes for that install. The product docs say so.
package struct FirstOpenStorage: Sendable, Equatable {
    private enum Location: Sendable, Equatable {
        case userDefaults(suiteName: String?)
        case file(URL)
    }

    private let location: Location

    /// The `UserDefaults` key: seconds since 1970, a `Double`.
    package static let userDefaultsKey = "io.tolt.sdk.firstOpen"
    /// The file's name inside its directory.
    package static let fileName = "first-open"

    /// `UserDefaults.standard`, or the suite `suiteName`.
    package static func userDefaults(suiteName: String? = nil) -> FirstOpenStorage {
        FirstOpenStorage(location: .userDefaults(suiteName: suiteName))
    }

    /// The file ``fileName`` in `directory` (created when the time is first saved).
    package static func directory(_ directory: URL) -> FirstOpenStorage {
        FirstOpenStorage(location: .file(directory.appendingPathComponent(fileName, isDirectory: false)))
    }

    /// What the platform offers: `UserDefaults` on Apple platforms, the application-support file elsewhere.
    package static var platformDefault: FirstOpenStorage {
        #if canImport(Darwin)
            return .userDefaults()
        #else
            let base =
                (try? FileManager.default.url(
                    for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false))
                ?? FileManager.default.temporaryDirectory
            let app = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
            return .directory(base.appendingPathComponent(app, isDirectory: true).appendingPathComponent("Tolt"))
        #endif
    }

    /// The file that holds the time, for the file storage.
    package var fileURL: URL? {
        if case .file(let url) = location { return url }
        return nil
    }

    /// What storage holds.
    package enum Reading: Sendable, Equatable {
        /// A first open.
        case stored(Date)
        /// Certainly nothing: no value under the key, or no file (`ENOENT`).
        case absent
        /// Something that cannot be read: a file that exists but cannot be opened or parsed, a value of another
        /// type, a suite that cannot be opened. It is never overwritten, since it may hold an earlier first open.
        case unreadable
    }

    /// What is stored, telling "nothing" from "cannot be read".
    package func read() -> Reading {
        switch location {
        case .userDefaults(let suiteName):
            guard let defaults = Self.defaults(suiteName) else { return .unreadable }
            guard let value = defaults.object(forKey: Self.userDefaultsKey) else { return .absent }
            guard let seconds = value as? Double, seconds.isFinite else { return .unreadable }
            return .stored(Date(timeIntervalSince1970: seconds))
        case .file(let url):
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                return Self.isNoSuchFile(error) ? .absent : .unreadable
            }
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard
                let date = Self.formatter().date(from: text)
                    ?? Self.formatter(fractionalSeconds: false).date(from: text)
            else { return .unreadable }
            return .stored(date)
        }
    }

    /// The stored first open; `nil` when none is stored or what is stored cannot be read.
    package func load() -> Date? {
        if case .stored(let date) = read() { return date }
        return nil
    }

    /// Stores `date` as the first open, replacing what was there (the file atomically). For tests and tools; the
    /// SDK itself stores through ``firstOpen(storingIfAbsent:)``, which never moves a stored time later.
    package func save(_ date: Date) throws {
        switch location {
        case .userDefaults(let suiteName):
            Self.defaults(suiteName)?.set(date.timeIntervalSince1970, forKey: Self.userDefaultsKey)
        case .file(let url):
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((Self.iso8601(date) + "\n").utf8).write(to: url, options: .atomic)
        }
    }

    /// The earliest time taken for a real first open, 2020-01-01: a device whose clock was never set (a new or reset
    /// phone before it reached the network) reads 1970, or 2001 or 2010 after some resets. A first open stored before
    /// it would close every claim window at once, for good; such a time is replaced, and never stored.
    static let earliestPlausible = Date(timeIntervalSince1970: 1_577_836_800)

    /// Whether a stored first open stands against `candidate`, this launch's time: it is no later, and from a clock
    /// that was set.
    private static func stands(_ stored: Date, against candidate: Date) -> Bool {
        stored <= candidate && stored >= earliestPlausible
    }

    /// The first open claims send: the earlier of the stored one and `candidate` (this launch's time), storing
    /// `candidate` when nothing is certainly stored or it is earlier than what is.
    ///
    /// The first open never moves later: what cannot be read is left alone and `candidate` is sent without being
    /// stored (the window then counts from this launch, every launch, until storage can be read again); a time
    /// stored meanwhile by another process of the app is kept when it is earlier. The one exception is a time
    /// before ``earliestPlausible``, a clock not yet set: it is replaced by the first launch whose clock is; a launch
    /// whose own clock is not set sends its time without storing it.
    func firstOpen(storingIfAbsent candidate: Date) -> Date {
        guard candidate >= Self.earliestPlausible else {
            if case .stored(let stored) = read(), stored >= Self.earliestPlausible { return stored }
            return candidate
        }
        switch read() {
        case .stored(let stored) where Self.stands(stored, against: candidate): return stored
        case .unreadable: return candidate
        case .stored, .absent: return (try? store(candidate)) ?? candidate
        }
    }

    /// Stores `candidate` unless an earlier time (or something unreadable) is stored by now; returns the earlier
    /// of the two.
    private func store(_ candidate: Date) throws -> Date {
        guard case .file(let url) = location else {
            try save(candidate)
            return candidate
        }
        // The time is written whole beside the file, then linked in place: a link fails when a file appeared
        // meanwhile, so a time another process of the app stored first is never replaced unseen.
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let staged = directory.appendingPathComponent(".\(Self.fileName)-\(UUID().uuidString)", isDirectory: false)
        try Data((Self.iso8601(candidate) + "\n").utf8).write(to: staged)
        defer { try? FileManager.default.removeItem(at: staged) }
        do {
            try FileManager.default.linkItem(at: staged, to: url)
            return candidate
        } catch {
            // A file is there now, or the file system has no hard links: decide on what it holds.
        }
        switch read() {
        case .stored(let stored) where Self.stands(stored, against: candidate): return stored
        case .unreadable: return candidate
        case .stored, .absent:
            try save(candidate)
            return candidate
        }
    }

    /// Whether a read failed because the file does not exist (`ENOENT`), rather than for a reason that leaves its
    /// content unknown (permissions, a symbolic-link loop, I/O).
    private static func isNoSuchFile(_ error: any Error) -> Bool {
        let error = error as NSError
        if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileReadNoSuchFile.rawValue { return true }
        if error.domain == NSPOSIXErrorDomain { return error.code == Int(POSIXErrorCode.ENOENT.rawValue) }
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError else { return false }
        return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(POSIXErrorCode.ENOENT.rawValue)
    }

    /// `2026-01-31T12:00:00.123Z`: what the file holds and what claims send as `first_seen_at`.
    static func iso8601(_ date: Date) -> String { formatter().string(from: date) }

    private static func formatter(fractionalSeconds: Bool = true) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions =
            fractionalSeconds ? [.withInternetDateTime, .withFractionalSeconds] : .withInternetDateTime
        return formatter
    }

    private static func defaults(_ suiteName: String?) -> UserDefaults? {
        guard let suiteName else { return .standard }
        return UserDefaults(suiteName: suiteName)
    }
}
