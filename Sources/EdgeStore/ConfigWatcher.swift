import LinkCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the current ``LinkTable`` and rebuilds it when the configuration's revision moves, whoever moved it
/// (this server, or another process such as `tolt-edge import`).
public final class ConfigWatcher: Sendable {
    private let store: any Store
    private let current: Mutex<LinkTable>
    private let generationCounter = Atomic<UInt64>(0)
    private let stopping = StopSignal()
    private let log: @Sendable (String) -> Void

    /// Loads the first table; throws when the store cannot be read.
    public init(store: any Store, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.store = store
        self.log = log
        // Listening before the first load: a change committed after it is always heard. (A store that is down
        // now fails the load below anyway.)
        if store.notifiesConfigChanges { _ = try? store.waitForConfigChange(seconds: 0) }
        current = Mutex(LinkTable(try store.configRecords()))
    }

    /// The table now in force.
    public var table: LinkTable { current.withLock { $0 } }

    /// Bumped on every swap: a loop thread compares it (one acquiring load) before taking a new table.
    public var generation: UInt64 { generationCounter.load(ordering: .acquiring) }

    /// Rebuilds the table when the stored revision differs from the one in force. Returns whether it did.
    @discardableResult
    public func refresh() throws -> Bool {
        let revision = try store.configRevision()
        guard revision != table.revision else { return false }
        let fresh = LinkTable(try store.configRecords())
        current.withLock { $0 = fresh }
        generationCounter.wrappingAdd(1, ordering: .releasing)
        log(
            "configuration revision \(fresh.revision) loaded: \(fresh.organizations.count) organizations, \(fresh.linkCount) codes"
        )
        return true
    }

    /// Keeps the table current until ``stop()``; runs on the calling thread. With a store that notifies
    /// (PostgreSQL's `LISTEN`/`NOTIFY`), it waits on the notification, `interval` seconds at a time, and still checks
    /// the revision every `fallbackInterval` seconds, for a notification lost while the connection was down; with
    /// one that does not (SQLite), it checks the revision every `interval` seconds.
    public func run(interval: Double = 0.25, fallbackInterval: Double = 1) {
        var notified = true
        var lastCheck = -Double.infinity
        var unavailable = false
        while !stopping.isSignalled {
            let now = Clock.monotonicSeconds()
            if notified || !store.notifiesConfigChanges || now - lastCheck >= fallbackInterval {
                lastCheck = now
                do {
                    try refresh()
                    if unavailable { log("configuration store reachable again") }
                    unavailable = false
                } catch let error as StoreError where error.isUnavailable {
                    // Once per outage: the links keep being answered from the table in force.
                    if !unavailable {
                        log("configuration store unavailable, keeping the current configuration: \(error)")
                    }
                    unavailable = true
                } catch {
                    log("configuration reload failed, keeping the current one: \(error)")
                }
            }
            notified = false
            if store.notifiesConfigChanges && !unavailable {
                do {
                    notified = try store.waitForConfigChange(seconds: interval)
                } catch {
                    stopping.wait(seconds: interval)
                }
            } else {
                stopping.wait(seconds: interval)
            }
        }
    }

    /// Makes ``run(interval:fallbackInterval:)`` return at once, or after the refresh it is doing; the caller joins its thread.
    public func stop() { stopping.signal() }
}
