import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The journal's background thread: it prepares spare segments and unmaps retired ones, in order, at the
/// lowest normal priority, so that this work fills the gaps between requests instead of taking a core from
/// a loop thread. It owns its thread (not one of Dispatch's shared workers) because it changes its priority.
final class JournalHousekeeper: Sendable {
    private let jobs = Mutex<Jobs>(Jobs())
    private let wakeUp = DispatchSemaphore(value: 0)

    struct Jobs {
        var queue: [@Sendable () -> Void] = []
        var busy = false
        var started = false
    }

    /// Runs `job` on the housekeeper's thread, after the jobs before it.
    func run(_ job: @escaping @Sendable () -> Void) {
        let start = jobs.withLock { jobs in
            jobs.queue.append(job)
            defer { jobs.started = true }
            return !jobs.started
        }
        if start {
            startThread(name: "tolt-journal") { [self] in work() }
        }
        wakeUp.signal()
    }

    /// Blocks until every job handed in so far has run.
    func waitUntilIdle() {
        while jobs.withLock({ !$0.queue.isEmpty || $0.busy }) { usleep(1_000) }
    }

    private func work() {
        // On Linux a priority set with `who` 0 applies to the calling thread only.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        while true {
            wakeUp.wait()
            while let job = jobs.withLock({ jobs -> (@Sendable () -> Void)? in
                guard !jobs.queue.isEmpty else { return nil }
                jobs.busy = true
                return jobs.queue.removeFirst()
            }) {
                job()
                jobs.withLock { $0.busy = false }
            }
        }
    }
}
