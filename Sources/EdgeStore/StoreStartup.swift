import Synchronization

/// Brings a node's store up when it can be reached: migrates it once, and hands out connections that open on first
/// use once it has (``DeferredStore``). A node whose store is down at start-up (a shared database restarting) starts
/// anyway, answers `503` where it needs the store, and catches up when the store returns; a node whose store is
/// plainly broken (its data directory cannot be made, the file is not a database) fails at start-up as before.
public final class StoreStartup: Sendable {
    /// Where the store lives.
    public let location: StoreLocation
    /// Held while one caller migrates, so that the others wait for it rather than migrate too.
    private let migrating = Mutex(())
    /// Set once the migration succeeded; read without the lock, so that a request on a node whose store is still
    /// coming up gets its `503` at once instead of waiting on a migration in progress.
    private let migrated = Atomic<Bool>(false)
    /// Why the last ``prepare()`` failed, for the `unavailable` that connections throw until one succeeds.
    private let lastFailure = Mutex<String?>(nil)

    public init(location: StoreLocation) {
        self.location = location
    }

    /// Whether ``prepare()`` has succeeded.
    public var isPrepared: Bool { migrated.load(ordering: .acquiring) }

    /// Migrates the store unless that is done; throws what opening or migrating threw (``StoreError/unavailable(_:)``
    /// while the store cannot be reached). Safe to call from several threads: one migrates, the others wait.
    public func prepare() throws {
        guard !isPrepared else { return }
        try migrating.withLock { _ in
            guard !isPrepared else { return }
            do {
                _ = try location.openMigrated()
            } catch {
                lastFailure.withLock { $0 = "\(error)" }
                throw error
            }
            migrated.store(true, ordering: .releasing)
        }
    }

    /// A connection that opens itself on first use, once the store is prepared; until then every call throws
    /// ``StoreError/unavailable(_:)`` saying that this node has not opened the store since it started, and why (the
    /// store itself may well be migrated: a node that starts while a migrated database is down waits here too).
    public func connection() -> DeferredStore {
        DeferredStore { [self] in
            guard isPrepared else { throw StoreError.unavailable(notOpenedYet) }
            return try location.connect()
        }
    }

    /// Why a connection cannot open yet: what the last attempt to open the store met.
    private var notOpenedYet: String {
        let reason = lastFailure.withLock { $0 }
        return "this node has not opened the store since it started"
            + (reason.map { " (last attempt: \($0))" } ?? " (it has not tried yet)")
    }
}
