import Synchronization

/// Brings a node's store up when it can be reached: migrates it once, and hands out connections that open on first
/// use once it has (``DeferredStore``). A node whose store is down at start-up (a shared database restarting) starts
/// anyway, answers `503` where it needs the store, and catches up when the store returns; a node whose store is
/// plainly broken (its data directory cannot be made, the file is not a database) fails at start-up as before.
public final class StoreStartup: Sendable {
    /// Where the store lives.
    public let location: StoreLocation
    private let migrated = Mutex(false)

    public init(location: StoreLocation) {
        self.location = location
    }

    /// Whether ``prepare()`` has succeeded.
    public var isPrepared: Bool { migrated.withLock { $0 } }

    /// Migrates the store unless that is done; throws what opening or migrating threw (``StoreError/unavailable(_:)``
    /// while the store cannot be reached). Safe to call from several threads: one migrates, the others wait.
    public func prepare() throws {
        try migrated.withLock { done in
            guard !done else { return }
            _ = try location.openMigrated()
            done = true
        }
    }

    /// A connection that opens itself on first use, once the store is prepared; until then every call throws
    /// ``StoreError/unavailable(_:)``.
    public func connection() -> DeferredStore {
        DeferredStore { [self] in
            guard isPrepared else { throw StoreError.unavailable("the store is not reachable yet (not migrated)") }
            return try location.connect()
        }
    }
}
