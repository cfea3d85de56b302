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
    /// Run before the first load, until it succeeds (migrating a store that was down at start-up, say).
    private let prepare: @Sendable () throws -> Void
    /// Failed first loads, for the log and the backoff; touched by the watcher's thread only (and at start-up).
    private let firstLoadFailures = Atomic<Int>(0)

    /// Loads the first table; throws when the store cannot be read.
    public init(store: any Store, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.store = store
        self.log = log
        prepare = {}
        // Listening before the first load: a change committed after it is always heard. (A store that is down
        // now fails the load below anyway.)
        if store.notifiesConfigChanges { _ = try? store.waitForConfigChange(seconds: 0) }
        current = Mutex(LinkTable(try store.configRecords()))
        // Generation 0 means "no configuration yet" (``isLoaded``); this one is loaded.
        generationCounter.store(1, ordering: .releasing)
    }

    /// Starts without a configuration: ``loadFirst()`` or ``run(interval:)`` loads the first one, calling `prepare`
    /// before each attempt until one succeeds. Until then ``isLoaded`` is `false` and ``table`` is empty: the server
    /// answers `503` where it needs the configuration, and starts even while its store is down.
    public init(
        store: any Store, preparing prepare: @escaping @Sendable () throws -> Void,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.log = log
        self.prepare = prepare
        current = Mutex(LinkTable(ConfigRecords()))
    }

    /// The table now in force.
    public var table: LinkTable { current.withLock { $0 } }

    /// Bumped on every swap: a loop thread compares it (one acquiring load) before taking a new table. 0 until the
    /// first configuration is loaded.
    public var generation: UInt64 { generationCounter.load(ordering: .acquiring) }

    /// Whether a configuration has been loaded (one acquiring load): until then links and claims are answered `503`.
    public var isLoaded: Bool { generation != 0 }

    /// Tries once to prepare the store and load the first configuration (at start-up, so that a node whose store is
    /// up serves its links from its first request). Returns whether a configuration is loaded; on failure it logs
    /// why, and ``run(interval:)`` goes on trying.
    @discardableResult
    public func loadFirst() -> Bool {
        guard !isLoaded else { return true }
        do {
            try prepare()
            try refresh()
        } catch {
            let failures = firstLoadFailures.wrappingAdd(1, ordering: .relaxed).newValue
            // The first failure, then about once a minute at the longest backoff: never a line per attempt.
            if failures == 1 || failures % 12 == 0 {
                log(
                    "no configuration yet: the store cannot be read (\(error)); links and claims are answered 503 "
                        + "until it can (\(failures) attempt\(failures == 1 ? "" : "s") so far, retrying)")
            }
        }
        return isLoaded
    }

    /// Rebuilds the table when the stored revision differs from the one in force, or when none is loaded yet.
    /// Returns whether it did.
    @discardableResult
    public func refresh() throws -> Bool {
        let before = table.revision
        let revision = try store.configRevision()
        guard revision != before || !isLoaded else { return false }
        let fresh = LinkTable(try store.configRecords())
        // Over the table compared (the stored revision may also have gone back, a store restored from a copy), or
        // over an older one: a newer table ``install(_:)`` put in meanwhile (from an API write) stays, never replaced
        // by what this slower read found, and one it put in that this read has passed is replaced now, not at the
        // next change.
        let swapped = current.withLock { table in
            guard table.revision == before || fresh.revision > table.revision else { return false }
            table = fresh
            return true
        }
        guard swapped else { return false }
        loaded(fresh)
        return true
    }

    /// Puts in the table of `records` at once, when they are newer than the table in force (revisions only grow: each
    /// import adds one), so that a write this node made answers on its own links before its answer goes out, not at
    /// the next check (up to `interval`, ``run(interval:fallbackInterval:)``). The partner API calls it with what its
    /// writer reads after an import. Returns whether it did; never before the first configuration is loaded (until
    /// then the watcher prepares the store and the click signer first).
    @discardableResult
    public func install(_ records: ConfigRecords) -> Bool {
        guard isLoaded, records.revision > table.revision else { return false }
        let fresh = LinkTable(records)
        let swapped = current.withLock { table in
            guard fresh.revision > table.revision else { return false }
            table = fresh
            return true
        }
        guard swapped else { return false }
        loaded(fresh)
        return true
    }

    /// After a swap: the loops take the new table at their next request.
    private func loaded(_ fresh: LinkTable) {
        generationCounter.wrappingAdd(1, ordering: .releasing)
        log(
            "configuration revision \(fresh.revision) loaded: \(fresh.organizations.count) organizations, \(fresh.linkCount) codes"
        )
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
            if !isLoaded {
                // No configuration yet: try again with backoff, from `interval` up to 5 s.
                if loadFirst() {
                    let failures = firstLoadFailures.load(ordering: .relaxed)
                    log("first configuration loaded (\(failures) failed attempt\(failures == 1 ? "" : "s") before)")
                    lastCheck = Clock.monotonicSeconds()
                } else {
                    let failures = firstLoadFailures.load(ordering: .relaxed)
                    stopping.wait(seconds: min(5, interval * Double(1 << min(failures, 10))))
                }
                continue
            }
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
