import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Moves journal records into the store in batches, exactly once: each batch and the segment's new offset
/// are committed in one transaction, and a segment is deleted only after its last record is committed.
public final class ClickIngester: Sendable {
    /// The most clicks one transaction inserts.
    public static let batchSize = 1000

    private let journal: ClickJournal
    private let store: any Store
    private let state = Mutex<State>(State())
    private let log: @Sendable (String) -> Void

    private let stopping = StopSignal()

    struct State {
        var offsets: [String: Int64] = [:]
        var ingested = 0
    }

    public init(journal: ClickJournal, store: any Store, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.journal = journal
        self.store = store
        self.log = log
    }

    /// How many clicks this ingester has committed.
    public var ingestedCount: Int { state.withLock { $0.ingested } }

    /// Ingests until ``stop()``, every `interval` seconds, at the lowest CPU priority. Runs on the calling thread.
    ///
    /// While `isBusy()` says the server is under heavy load, ingestion waits: even at the lowest priority it
    /// takes the idle moments between requests and shares the core (and, on a VM, its hyperthread sibling)
    /// with the loops; measured under a saturating load test, that cost the link path 25–40% of its
    /// throughput. The journal absorbs the clicks of a load test, and the store catches up when the load drops
    /// (or at shutdown). Only when the journal outgrows `maximumBacklog` bytes (by default a quarter of the
    /// room the data volume has for it, ``ClickJournal/backlogLimit(held:)``) does ingestion go on under load, so
    /// that a long load test cannot fill the disk.
    public func run(
        interval: Double = 0.1, isBusy: @Sendable () -> Bool = { false }, maximumBacklog: Int? = nil
    ) {
        // SCHED_IDLE: the thread runs only when a core would otherwise idle. Linux applies it to this thread only.
        var parameters = sched_param()
        if pthread_setschedparam(pthread_self(), 5 /* SCHED_IDLE, not exported to Swift */, &parameters) != 0 {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        }
        while !stopping.isSignalled {
            if isBusy() {
                let held = journal.totalBytes()
                if held < maximumBacklog ?? journal.backlogLimit(held: held) {
                    stopping.wait(seconds: interval)
                    continue
                }
            }
            var didWork = false
            do {
                didWork = try pass(maximumBatches: 10)
            } catch {
                log("click ingestion failed, will retry: \(error)")
            }
            if !didWork { stopping.wait(seconds: interval) }
        }
    }

    /// Makes ``run(interval:isBusy:maximumBacklog:)`` return after its current pass. The caller joins the thread
    /// that runs it before a ``drain()``, so that the drain never reads a segment beside it.
    public func stop() { stopping.signal() }

    /// Ingests everything in the journal now, sealed segments completely. Returns whether it moved anything.
    ///
    /// `maximumBatches` bounds the work of one call, so that ``run(interval:isBusy:maximumBacklog:)`` looks at
    /// the load again between slices of a large backlog.
    @discardableResult
    public func pass(maximumBatches: Int = .max) throws -> Bool {
        // Names first, then the live set: a segment listed but not live by then is sealed for good.
        let names = journal.segmentNames()
        let live = journal.liveSegments()
        var moved = false
        var budget = maximumBatches
        for name in names where budget > 0 {
            moved = try ingest(segment: name, isLive: live.contains(name), budget: &budget) || moved
        }
        return moved
    }

    /// Ingests until no segment is left; used at shutdown, after every writer is closed.
    public func drain() throws {
        while try pass() {}
    }

    private func ingest(segment name: String, isLive: Bool, budget: inout Int) throws -> Bool {
        let key = journal.checkpointKey(name)
        var offset: Int64
        if let known = state.withLock({ $0.offsets[key] }) {
            offset = known
        } else {
            offset = try store.journalOffset(segment: key)
        }
        let reader = JournalSegmentReader(path: journal.directory + "/" + name)
        var moved = false
        while true {
            var batch: [ClickRecord] = []
            var frames = 0
            var next = offset
            let end = try reader.read(from: offset, maximumFrames: Self.batchSize) { payload, after in
                frames += 1
                if let click = JournalRecord.decode(payload) {
                    batch.append(click)
                } else {
                    log("skipped an undecodable journal record in \(name) at \(next)")
                }
                next = after
            }
            if next > offset {
                try store.ingest(batch, checkpoint: JournalCheckpoint(segment: key, offset: next))
                state.withLock {
                    $0.offsets[key] = next
                    $0.ingested += batch.count
                }
                offset = next
                moved = true
                budget -= 1
            }
            if frames == Self.batchSize {
                if budget > 0 { continue }
                return moved
            }
            // A segment no writer holds ends at its seal or at its first torn frame: a frame cut off by a crash
            // was never answered, since its response went out only after the whole frame was written.
            if end == .sealed || !isLive {
                if end == .torn {
                    log("journal segment \(name) ends in a partial record at \(offset); it was never answered")
                }
                unlink(journal.directory + "/" + name)
                try store.forgetJournalSegment(key)
                state.withLock { _ = $0.offsets.removeValue(forKey: key) }
                moved = true
            }
            return moved
        }
    }
}
