import Foundation

/// One launch's first open: read from storage, with this launch's time stored when none certainly is, once and off
/// the caller's thread. `configure` starts it; in a process that Apple's prewarming launched, the first claim does.
///
/// iOS 15 and later may launch an app before the user opens it (prewarming), even before the device's first unlock,
/// when `UserDefaults` reads come back empty: storing then would record this launch over an earlier first open that
/// could not be read. Such a process says so in its environment (`ActivePrewarm=1`), so it leaves storage alone
/// until a claim, which needs the user, and so an unlocked device.
final class FirstOpenLookup: @unchecked Sendable {
    // @unchecked: `task` and `recorded` are read and written only while holding `lock`; the rest is immutable.
    private let lock = NSLock()
    private var task: Task<Date, Never>?
    /// The earliest first open the app recorded (``record(_:)``) before the lookup started: applied when it starts.
    private var recorded: Date?
    private let storage: FirstOpenStorage
    /// This launch's time (the first `configure`'s): what is stored when nothing is, and sent when storage cannot
    /// be read. When the lookup is deferred to a claim, still the launch's, which is earlier than the claim.
    private let launch: Date

    /// A lookup in `storage` for a launch at `launch`, started now unless `deferred`.
    init(storage: FirstOpenStorage, launch: Date, deferred: Bool) {
        self.storage = storage
        self.launch = launch
        if !deferred { start() }
    }

    /// The first open claims send, looked up now when it was deferred. A launch whose clock was not yet set stored
    /// nothing (``FirstOpenStorage/earliestPlausible``); by the claim the clock may be, and the first open is then
    /// the claim's time, stored, rather than a 1970 that every claim window refuses.
    var value: Date {
        get async {
            let first = await start().value
            guard first < FirstOpenStorage.earliestPlausible else { return first }
            return storage.firstOpen(storingIfAbsent: Date())
        }
    }

    /// Moves the first open earlier to `date`, an open the app knows of from before the SDK's first launch (see
    /// ``Tolt/recordFirstOpen(_:)``): stored unless an earlier time is (or what is stored cannot be read: then claims
    /// send it without storing it). Never later: a `date` after the first open changes nothing. A lookup deferred by
    /// prewarming applies it when it starts, so storage is still left alone until then.
    func record(_ date: Date) {
        lock.lock()
        defer { lock.unlock() }
        guard let task else {
            recorded = min(recorded ?? date, date)
            return
        }
        let storage = storage
        self.task = Task.detached { Self.earlier(await task.value, storage.firstOpen(storingIfAbsent: date)) }
    }

    /// The earlier of two first opens, but a time from a clock not yet set (``FirstOpenStorage/earliestPlausible``)
    /// gives way to the other.
    private static func earlier(_ first: Date, _ second: Date) -> Date {
        if first < FirstOpenStorage.earliestPlausible { return second }
        if second < FirstOpenStorage.earliestPlausible { return first }
        return min(first, second)
    }

    @discardableResult
    private func start() -> Task<Date, Never> {
        lock.lock()
        defer { lock.unlock() }
        if let task { return task }
        let (storage, launch, recorded) = (storage, launch, recorded)
        // Off the caller's thread: configure runs at launch, often on the main thread, and storage is I/O.
        let task = Task.detached {
            let first = storage.firstOpen(storingIfAbsent: launch)
            guard let recorded else { return first }
            return Self.earlier(first, storage.firstOpen(storingIfAbsent: recorded))
        }
        self.task = task
        return task
    }
}
