/// Events a loop logs at most once a second, because a client can cause them as fast as it likes (connections
/// closed for HTTP/2 rapid reset, or for taking too little of their answers): each line says how many there were
/// since the line before.
struct LoggedCount {
    private var unlogged = 0
    private var loggedSecond: UInt64 = .max

    /// Counts `count` events in the monotonic clock's `second`; returns how many the line to log now is to name (the
    /// events since the last line), or `nil` when a line was logged within that second already.
    mutating func add(_ count: Int, inSecond second: UInt64) -> Int? {
        unlogged += count
        guard second != loggedSecond else { return nil }
        defer { (unlogged, loggedSecond) = (0, second) }
        return unlogged
    }
}
