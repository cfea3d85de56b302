import LinkCore
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
    private let state: Mutex<State>
    private let log: @Sendable (String) -> Void
    private let preparation: ClickPreparation

    private let stopping = StopSignal()

    /// The most damaged places logged one by one per segment; the rest are summed up when the segment is done.
    static let damageLogLimit = 10
    /// Failed country lookups are logged at the first and then once per this many, never per click.
    static let countryFailureLogInterval = 1000

    /// The visitors of the ingester's own repeat-tap table (8 MiB): it sees the taps of every loop.
    public static let repeatTapVisitors = 1 << 16

    struct State {
        var segments: [String: SegmentProgress] = [:]
        /// First taps across every loop's segments, when repeat taps are counted (``RepeatTapTable``).
        var repeatTaps: RepeatTapTable?
        var ingested = 0
        /// Of ``ingested``, the clicks of segments this process's writers created (``ClickJournal/isOwnSegment(_:)``).
        var ingestedOwn = 0
        var damaged = 0
        var torn = 0
        var countryFailures = 0
        /// Segments of a later journal format than this build reads, kept for the build that wrote them and logged
        /// once each.
        var newerSegments: Set<String> = []
    }

    /// How far a segment is ingested, and what the ingester learned about it on the way.
    struct SegmentProgress {
        /// The byte offset just past the last frame committed (its checkpoint).
        var offset: Int64
        var format: JournalSegmentFormat?
        /// The number of the frame just before ``offset``, when known.
        var lastNumber: UInt32?
        /// Damaged places logged, and not logged (past ``ClickIngester/damageLogLimit``), in this segment.
        var damageLogged = 0
        var damageUnlogged = 0
    }

    /// `preparation` says what a click's country and stored address are (``ClickPreparation``). With a
    /// `repeatWindow` (milliseconds, the link path's `--dedupe-window`), a click whose visitor and code tapped first,
    /// on another loop, less than the window before or after is counted as a repeat of that first tap (see
    /// ``classify(_:in:)``).
    public init(
        journal: ClickJournal, store: any Store, preparation: ClickPreparation = ClickPreparation(),
        repeatWindow: Int64 = 0,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.journal = journal
        self.store = store
        self.preparation = preparation
        self.log = log
        state = Mutex(
            State(
                repeatTaps: repeatWindow > 0
                    ? RepeatTapTable(visitors: Self.repeatTapVisitors, window: repeatWindow) : nil))
    }

    /// How many clicks this ingester has committed.
    public var ingestedCount: Int { state.withLock { $0.ingested } }
    /// How many clicks of segments this process's writers created it has committed: what a count of the clicks
    /// they wrote is compared with, for the journal's backlog.
    public var ownIngestedCount: Int { state.withLock { $0.ingestedOwn } }
    /// How many damaged places in segments it stepped over (each logged with its segment and offset): bytes that
    /// held no valid record, between two that did or at the end of a segment.
    public var damagedCount: Int { state.withLock { $0.damaged } }
    /// How many segments it found ending in a torn record: the rest of a write a crash or a failed write cut short.
    public var tornTailCount: Int { state.withLock { $0.torn } }
    /// How many clicks were stored without a country because the lookup failed on a damaged database.
    public var countryFailureCount: Int { state.withLock { $0.countryFailures } }

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
        var lastReport = Clock.monotonicSeconds()
        var outage = StoreOutage()
        while !stopping.isSignalled {
            // The writers' shares of the journal's bound, from what is unread now: whether the store takes clicks
            // or not, this runs every `interval` (or after each slice of work).
            journal.room.refresh(measuringUnread: backlogBytes)
            // What the writers could not write, once a second at most (they count; they never log on a loop).
            if Clock.monotonicSeconds() - lastReport >= 1 {
                lastReport = Clock.monotonicSeconds()
                for failure in journal.takeFailures() { log("journal: " + failure) }
                if let report = journal.room.takeReport() { log(report) }
            }
            if isBusy() {
                let held = journal.totalBytes()
                // Ingestion under load starts well before the bound, so a load test alone never reaches it.
                let limit = min(maximumBacklog ?? journal.backlogLimit(held: held), journal.room.maximumBytes / 2)
                if held < limit {
                    stopping.wait(seconds: interval)
                    continue
                }
            }
            var didWork = false
            do {
                didWork = try pass(maximumBatches: 10)
                if outage.end() { log("store reachable again: ingesting the clicks journaled meanwhile") }
            } catch let error as StoreError where error.isUnavailable {
                // A shared store that is down: the clicks stay in the journal (the link path never waits on the
                // store), one line says so per outage, and the next try comes after a growing pause.
                if outage.begin() { log("store unavailable, clicks stay in the journal until it returns: \(error)") }
                stopping.wait(seconds: outage.nextDelay())
                continue
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
            moved = try ingest(segment: name, writer: live[name], budget: &budget) || moved
        }
        return moved
    }

    /// Ingests until no segment is left; used at shutdown, after every writer is closed.
    public func drain() throws {
        while try pass() {}
    }

    /// Ingests one segment; `writer` says, while a writer holds it, the marker its frames carry and where to tell
    /// the writer how far the segment is committed (so that it seals the segment once it idles, ``JournalWriter``).
    private func ingest(segment name: String, writer: LiveSegment?, budget: inout Int) throws -> Bool {
        let writerMarker = writer?.marker
        let key = journal.checkpointKey(name)
        let isOwn = journal.isOwnSegment(name)
        let reader = JournalSegmentReader(path: journal.directory + "/" + name)
        var progress: SegmentProgress
        if let known = state.withLock({ $0.segments[key] }) {
            progress = known
        } else {
            progress = SegmentProgress(offset: try store.journalOffset(segment: key))
        }
        if let writerMarker { progress.format = .version2(marker: writerMarker) }
        let format: JournalSegmentFormat
        if let known = progress.format {
            format = known
        } else {
            // A segment no writer holds: its header says how it was written. One whose header could not be written
            // is deleted before its writer lets go of it, so a segment listed but no longer held may be gone.
            guard access(journal.directory + "/" + name, F_OK) == 0 else {
                state.withLock { _ = $0.segments.removeValue(forKey: key) }
                return false
            }
            let (detection, bytes) = try reader.detectFormat()
            switch detection {
            case .format(let detected):
                format = detected
            case .newer(let later):
                // A rollback: a newer build's segment. Its clicks are that build's to store; reading it as damage
                // would drop them, so it is left as it is.
                if state.withLock({ $0.newerSegments.insert(name).inserted }) {
                    log(
                        "journal: \(name) is in \(later), newer than this build reads "
                            + "(\(JournalFrame.formatVersion)): kept, not stored; start the build that wrote it (or a "
                            + "newer one) on this data directory to store its clicks")
                }
                return false
            case .unwritten:
                if bytes > 0 {
                    log("journal: \(name) ends in a torn segment header (\(bytes) bytes) and holds no record: deleted")
                    state.withLock { $0.torn += 1 }
                }
                try forget(name, key: key)
                return true
            case .damaged:
                guard let learned = try reader.learnFormat() else {
                    log("journal: \(name) holds no readable record; its header is damaged: deleted")
                    state.withLock { $0.damaged += 1 }
                    try forget(name, key: key)
                    return true
                }
                log("journal: the header of \(name) is damaged; reading it in the format its records share")
                state.withLock { $0.damaged += 1 }
                format = learned
            }
            progress.format = format
            state.withLock { [progress] in $0.segments[key] = progress }
        }
        var moved = false
        while true {
            var batch: [TapToClassify] = []
            var damages: [JournalSegmentReader.Damage] = []
            var skipped: [String] = []
            var countryFailures: [String] = []
            var next = progress.offset
            let outcome = try reader.read(
                from: progress.offset, format: format, previousNumber: progress.lastNumber,
                maximumFrames: Self.batchSize, writerGone: writerMarker == nil,
                frame: { kind, payload, after in
                    let isRepeat = kind == JournalFrame.Kind.repeatTap.rawValue
                    if kind != JournalFrame.Kind.click.rawValue && !isRepeat {
                        skipped.append("a record of unknown kind \(kind) in \(name) before byte \(after)")
                    } else if var click = JournalRecord.decode(payload) {
                        // The visitor's key is taken from the whole address, before preparation cuts it, and from
                        // the User-Agent's bytes as journaled.
                        let address = click.ip
                        let agent = Array(JournalRecord.keptUserAgent(of: payload))
                        if let failure = preparation.prepare(&click) { countryFailures.append(failure) }
                        batch.append(
                            TapToClassify(click: click, address: address, userAgent: agent, isRepeat: isRepeat))
                    } else {
                        skipped.append("an undecodable journal record in \(name) before byte \(after)")
                    }
                    next = after
                }, damage: { damages.append($0) })
            if next > progress.offset {
                let (clicks, repeats) = state.withLock { Self.classify(batch, in: $0.repeatTaps) }
                try store.ingest(clicks, repeats: repeats, checkpoint: JournalCheckpoint(segment: key, offset: next))
                writer?.ingested.offset.store(Int(next), ordering: .releasing)
                progress.offset = next
                progress.lastNumber = outcome.lastNumber
                moved = true
                budget -= 1
            }
            for line in skipped { log("journal: skipped " + line) }
            if !countryFailures.isEmpty { reportCountryFailures(countryFailures) }
            for damage in damages { report(damage, in: name, progress: &progress) }
            state.withLock { [progress] in
                $0.segments[key] = progress
                $0.ingested += batch.count
                if isOwn { $0.ingestedOwn += batch.count }
                $0.damaged += damages.count
            }
            switch outcome.end {
            case .limit:
                if budget > 0 { continue }
                return moved
            case .open:
                return moved
            case .sealed, .clean:
                break
            case .torn(let offset, let length):
                // The rest of a write a crash or a failed write cut short: its response waited for the whole
                // write, so its click was never answered.
                log(
                    "journal: \(name) ends in a torn record at byte \(offset) (\(length) bytes of a write cut short); "
                        + "dropped: it was never answered")
                state.withLock { $0.torn += 1 }
            case .damaged(let offset, let length):
                log(
                    "journal: \(name) ends in \(length) damaged bytes at byte \(offset), with no valid record after "
                        + "them: skipped (any record there is lost)")
                state.withLock { $0.damaged += 1 }
            }
            if progress.damageUnlogged > 0 {
                log("journal: \(name) had \(progress.damageUnlogged) more damaged places, not logged one by one")
            }
            try forget(name, key: key)
            return true
        }
    }

    /// The bytes of segment files not yet ingested: each segment's size past the offset the ingester reached in it
    /// (from its start, for a segment it has not opened yet). A segment kept for the newer build that wrote it is not
    /// this build's backlog: counted, it would hold the journal's room (`--journal-max-bytes`) for as long as it stays
    /// and refuse every tap after a rollback. Reads the directory; never called on a loop thread.
    public func backlogBytes() -> Int {
        let (offsets, newer) = state.withLock { ($0.segments.mapValues(\.offset), $0.newerSegments) }
        return journal.segmentNames().reduce(0) { total, name in
            guard !newer.contains(name) else { return total }
            var info = stat()
            guard stat(journal.directory + "/" + name, &info) == 0 else { return total }
            let done = offsets[journal.checkpointKey(name)] ?? 0
            return total + max(0, Int(info.st_size) - Int(done))
        }
    }

    /// Splits a batch into clicks and repeat taps (each carrying its first tap's id).
    ///
    /// The loops tell repeats on their own connections (repeat-tap frames); taps of one visitor that reached two
    /// loops (two connections) each got a click id. The ingester's table is the second line: a click whose key
    /// (code reference, address, User-Agent) matches a first tap it ingested less than the window before or after
    /// becomes a repeat of that tap, so the counts are right even though its answer carried its own id (which is
    /// then not listed; a claim with it still works, claims check the id's signature). The table lives in memory
    /// and is bounded: after a restart, or once a key is evicted, such a click counts as a first tap.
    /// The key is made from a ``TapToClassify``'s address and User-Agent as journaled, never from the click's
    /// stored (cut) values.
    static func classify(_ batch: [TapToClassify], in table: RepeatTapTable?)
        -> (clicks: [ClickRecord], repeats: [ClickRecord])
    {
        var clicks: [ClickRecord] = []
        var repeats: [ClickRecord] = []
        for entry in batch {
            let tap = entry.click
            let isRepeat = entry.isRepeat
            guard let table, let id = ClickID(parsing: tap.id) else {
                if isRepeat { repeats.append(tap) } else { clicks.append(tap) }
                continue
            }
            let reference = id.codeReference
            let key = Array(entry.address.utf8).withUnsafeBytes { address in
                entry.userAgent.withUnsafeBytes { agent in
                    RepeatTapTable.key(reference: reference, address: address, userAgent: agent)
                }
            }
            if let first = table.firstTap(key: key, reference: reference, at: tap.createdAt, eitherOrder: true) {
                let firstID = String(
                    decoding: UnsafeRawBufferPointer(start: first, count: ClickID.encodedLength), as: UTF8.self)
                if isRepeat || firstID != tap.id {
                    // A repeat frame names its loop's first tap, which the table may have taken for a repeat of a
                    // tap on another loop: the table's first tap is the one stored.
                    var repeated = tap
                    repeated.id = firstID
                    repeats.append(repeated)
                } else {
                    // The same click read again (its batch failed to commit before).
                    clicks.append(tap)
                }
                continue
            }
            // A first tap; a repeat frame whose first tap this table never saw (another process, or evicted)
            // remembers that tap at the time its id carries.
            let firstTime = isRepeat ? Int64(truncatingIfNeeded: id.timestampMilliseconds) : tap.createdAt
            Array(tap.id.utf8).withUnsafeBytes {
                table.remember(key: key, reference: reference, at: firstTime, clickID: $0.baseAddress!)
            }
            if isRepeat { repeats.append(tap) } else { clicks.append(tap) }
        }
        return (clicks, repeats)
    }

    /// Logs damaged bytes the reader stepped over, up to ``damageLogLimit`` per segment.
    private func report(_ damage: JournalSegmentReader.Damage, in name: String, progress: inout SegmentProgress) {
        guard progress.damageLogged < Self.damageLogLimit else {
            progress.damageUnlogged += 1
            return
        }
        progress.damageLogged += 1
        let lost = damage.lostFrames.map { $0 == 1 ? "1 record" : "\($0) records" } ?? "the records there"
        log(
            "journal: skipped \(damage.length) damaged bytes in \(name) at byte \(damage.offset) (a corrupt record, "
                + "not a torn write): lost \(lost); reading on from the next valid record")
    }

    /// Counts failed country lookups and logs the first and then one per ``countryFailureLogInterval``, with
    /// libmaxminddb's reason and never the address.
    private func reportCountryFailures(_ reasons: [String]) {
        let (before, after) = state.withLock { state in
            defer { state.countryFailures += reasons.count }
            return (state.countryFailures, state.countryFailures + reasons.count)
        }
        let interval = Self.countryFailureLogInterval
        guard before == 0 || before / interval != after / interval else { return }
        log(
            "geoip: \(after) country lookups failed so far (the last: \(reasons[reasons.count - 1])); their clicks "
                + "are stored without a country. Is the --geoip database damaged?")
    }

    /// Deletes a segment that is done, and its checkpoint.
    private func forget(_ name: String, key: String) throws {
        unlink(journal.directory + "/" + name)
        try store.forgetJournalSegment(key)
        state.withLock { _ = $0.segments.removeValue(forKey: key) }
    }
}

/// A journaled tap on its way to ``ClickIngester/classify(_:in:)``, with what keys its visitor.
struct TapToClassify {
    var click: ClickRecord
    /// The client address as journaled: the key is never made from an address cut for storage (the table keeps only
    /// the key's hash, not the address).
    var address: String
    /// The User-Agent's bytes as journaled (``JournalRecord/keptUserAgent(of:)``), as the link path keys them; the
    /// click's own `userAgent` is their text, in which different invalid bytes read the same.
    var userAgent: [UInt8]
    /// A repeat-tap frame: its loop already took it for a repeat.
    var isRepeat: Bool
}
