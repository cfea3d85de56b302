import EdgeStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How many link requests the loops answer per second, so background work can stand aside under a load test.
///
/// Each loop counts on its own counter (no cache line shared between loop threads); a reader sums them.
final class LoadGauge: Sendable {
    /// One loop's counter, padded to a cache line of its own.
    final class Counter: Sendable {
        let count = Atomic<Int>(0)
        private let padding: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    }

    let counters: [Counter]
    /// Above this many link requests a second, the server counts as busy.
    let busyRate: Double
    private let last = Mutex<(count: Int, time: Double)>((0, 0))

    init(loops: Int, busyRate: Double = 20_000) {
        counters = (0..<loops).map { _ in Counter() }
        self.busyRate = busyRate
    }

    /// Whether the loops answered more than ``busyRate`` link requests a second since the previous call.
    func isBusy() -> Bool {
        let total = counters.reduce(0) { $0 + $1.count.load(ordering: .relaxed) }
        let seconds = Clock.monotonicSeconds()
        return last.withLock { last in
            defer { last = (total, seconds) }
            let elapsed = seconds - last.time
            guard last.time > 0, elapsed > 0 else { return false }
            return Double(total - last.count) / elapsed > busyRate
        }
    }
}
