/// The ingester's view of a store that cannot be reached: whether an outage is going on (so that it is logged once,
/// when it begins and when it ends) and how long to wait before the next try: 50 ms, doubling to 2 s.
struct StoreOutage {
    static let firstDelay = 0.05
    static let longestDelay = 2.0

    private(set) var isOngoing = false
    private var delay = 0.0

    /// Records a failed try; returns whether it began an outage (the caller logs it).
    mutating func begin() -> Bool {
        defer { isOngoing = true }
        return !isOngoing
    }

    /// Records a successful try; returns whether it ended an outage (the caller logs it).
    mutating func end() -> Bool {
        defer {
            isOngoing = false
            delay = 0
        }
        return isOngoing
    }

    /// The pause before the next try.
    mutating func nextDelay() -> Double {
        delay = delay == 0 ? Self.firstDelay : min(delay * 2, Self.longestDelay)
        return delay
    }
}
