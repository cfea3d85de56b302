import Foundation

/// Where the SDK keeps the app's first open, the time the claim window counts from, so that it survives
/// restarts of the app.
///
/// On Apple platforms it is a `UserDefaults` value; elsewhere (Linux, Windows, Android) a one-line ISO 8601
/// file `Tolt/first-open` under the app's folder in the user's application-support directory (on Linux
/// `$XDG_DATA_HOME/<executable>/`, by default `~/.local/share/<executable>/`). Tests and tools in this package
/// choose another place through ``ToltState``.
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

    /// The stored first open; `nil` when none is stored or what is stored cannot be read.
    package func load() -> Date? {
        switch location {
        case .userDefaults(let suiteName):
            guard let defaults = Self.defaults(suiteName),
                let seconds = defaults.object(forKey: Self.userDefaultsKey) as? Double, seconds.isFinite
            else { return nil }
            return Date(timeIntervalSince1970: seconds)
        case .file(let url):
            guard let data = try? Data(contentsOf: url) else { return nil }
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return Self.formatter().date(from: text) ?? Self.formatter(fractionalSeconds: false).date(from: text)
        }
    }

    /// Stores `date` as the first open, replacing what was there (the file atomically).
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

    /// The stored first open, or `now` stored as the first open when there is none. When it cannot be stored,
    /// `now`: claims still carry a time, the window counting from this launch.
    func firstOpen(storingIfAbsent now: Date) -> Date {
        if let stored = load() { return stored }
        try? save(now)
        return now
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
