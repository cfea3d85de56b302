import Synchronization

/// A sliding-window limit: at most `limit` requests per client in any `window` seconds.
///
/// Each client keeps the times of its last `limit` requests; a request is allowed when fewer than `limit`
/// fall inside the window. Clients idle for a whole window are forgotten, and the table is bounded.
final class RateLimiter: Sendable {
    let limit: Int
    let window: Double
    private let maximumClients: Int
    private let clients = Mutex<[String: [Double]]>([:])

    init(limit: Int, window: Double, maximumClients: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.maximumClients = maximumClients
    }

    /// Counts a request at `now` (seconds); returns `nil` when allowed, or the seconds to wait.
    func acquire(_ client: String, now: Double) -> Int? {
        clients.withLock { clients in
            var times = clients[client] ?? []
            times.removeAll { $0 <= now - window }
            if times.count >= limit {
                clients[client] = times
                let wait = times[times.count - limit] + window - now
                return max(1, Int(wait.rounded(.up)))
            }
            times.append(now)
            if clients[client] == nil && clients.count >= maximumClients {
                clients = clients.filter { $0.value.last.map { $0 > now - window } ?? false }
            }
            clients[client] = times
            return nil
        }
    }
}
