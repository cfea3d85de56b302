import Synchronization

/// A sliding-window limit: at most `limit` requests per client in any `window` seconds.
///
/// A client is a ``ClientNetwork``: an IPv4 address (however it is spelled) or an IPv6 /64. Each keeps the times of
/// its last `limit` allowed requests; a request is allowed when fewer than `limit` fall inside the window, and a
/// refused one is not counted. Clients are spread over shards, each a ``RateLimitTable`` under its own lock, so
/// workers rarely wait on one another, and every request costs O(1).
///
/// Memory is bounded by `maximumClients` (about 200 bytes each with a limit of 30). When a shard is full, a new
/// client takes the place of its oldest idle client; a limited client stays until its window has passed, so a
/// flood of fresh addresses can neither free it nor get past the limit itself: should every tracked client be
/// limited, a new one is refused too (the limit fails closed).
final class RateLimiter: Sendable {
    /// The clients tracked at most, by default: filling them all with limited clients takes 3.9 million allowed
    /// requests inside one window (65,000 a second), beyond what the claim path answers.
    static let defaultMaximumClients = 131_072

    let limit: Int
    let window: Double
    /// The clients tracked at most, over all shards.
    let maximumClients: Int
    private let shards: [LockedShard]

    final class LockedShard: Sendable {
        let table: Mutex<RateLimitTable>

        init(_ table: RateLimitTable) { self.table = Mutex(table) }
    }

    init(limit: Int, window: Double, maximumClients: Int = RateLimiter.defaultMaximumClients, shardCount: Int = 16) {
        self.limit = limit
        self.window = window
        let perShard = max(1, maximumClients / shardCount)
        self.maximumClients = perShard * shardCount
        shards = (0..<shardCount).map { _ in
            LockedShard(RateLimitTable(limit: limit, window: window, capacity: perShard))
        }
    }

    /// Counts a request from the address `client` (an IP literal, as ``ClientAddress`` gives it) at `now`
    /// (seconds); returns `nil` when allowed, or the seconds to wait.
    func acquire(_ client: String, now: Double) -> Int? {
        acquire(ClientNetwork(address: client), now: now)
    }

    /// Counts a request from `network` at `now` (seconds); returns `nil` when allowed, or the seconds to wait.
    func acquire(_ network: ClientNetwork, now: Double) -> Int? {
        shard(network).table.withLock { $0.acquire(network, now: now) }
    }

    /// The seconds `network` must wait at `now` before its next request would be allowed, without counting one;
    /// `nil` when it has room. With ``acquire(_:now:)`` called only for the requests that count, this limits those
    /// alone: failed authentications (``APIHandler/authenticationFailures``), checked before a key is read and
    /// counted once it proved wrong.
    func wait(_ network: ClientNetwork, now: Double) -> Int? {
        shard(network).table.withLock { $0.wait(network, now: now) }
    }

    /// The shard that tracks `network`. Hashing is seeded per process, so no one can aim a flood of addresses at
    /// one shard.
    private func shard(_ network: ClientNetwork) -> LockedShard {
        shards[Int(UInt(bitPattern: network.hashValue) % UInt(shards.count))]
    }

    /// How many clients are tracked now.
    var trackedClients: Int {
        shards.reduce(0) { total, shard in total + shard.table.withLock { $0.count } }
    }
}
