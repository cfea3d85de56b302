import Synchronization

/// A sliding-window limit: at most `limit` requests per client in any `window` seconds.
///
/// Each client keeps the times of its last `limit` requests; a request is allowed when fewer than `limit` fall
/// inside the window. Clients are spread over shards, each with its own lock, so workers rarely wait on one
/// another. Memory is bounded: a full shard forgets clients idle for a whole window (at most once a second, so
/// a flood of new addresses does not rescan it per request); if it is still full, a new client is answered
/// without being tracked. Clients already tracked keep their budgets: a flood of fresh addresses cannot reset
/// the count of one that is hammering.
final class RateLimiter: Sendable {
    let limit: Int
    let window: Double
    private let shards: [LockedShard]
    private let maximumClientsPerShard: Int

    struct Shard {
        var clients: [String: [Double]] = [:]
        var lastSweep = 0.0
    }

    final class LockedShard: Sendable {
        let state = Mutex(Shard())
    }

    init(limit: Int, window: Double, maximumClients: Int = 100_000, shardCount: Int = 16) {
        self.limit = limit
        self.window = window
        maximumClientsPerShard = max(1, maximumClients / shardCount)
        shards = (0..<shardCount).map { _ in LockedShard() }
    }

    /// Counts a request at `now` (seconds); returns `nil` when allowed, or the seconds to wait.
    func acquire(_ client: String, now: Double) -> Int? {
        var hasher = Hasher()
        hasher.combine(client)
        let shard = shards[Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))]
        return shard.state.withLock { shard in
            var times = shard.clients[client] ?? []
            times.removeAll { $0 <= now - window }
            if times.count >= limit {
                shard.clients[client] = times
                return max(1, Int((times[times.count - limit] + window - now).rounded(.up)))
            }
            if times.isEmpty && shard.clients[client] == nil && shard.clients.count >= maximumClientsPerShard {
                sweep(&shard, now: now)
                if shard.clients.count >= maximumClientsPerShard { return nil }
            }
            times.append(now)
            shard.clients[client] = times
            return nil
        }
    }

    private func sweep(_ shard: inout Shard, now: Double) {
        guard now - shard.lastSweep >= 1 else { return }
        shard.lastSweep = now
        shard.clients = shard.clients.filter { $0.value.last.map { $0 > now - window } ?? false }
    }
}
