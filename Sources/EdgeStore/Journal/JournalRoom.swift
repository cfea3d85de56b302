import Synchronization

/// The journal's hard bound (`--journal-max-bytes`) on bytes written and not yet ingested, shared out among the
/// writers so that a loop thread checks it with one atomic load of its own and no shared read-modify-write.
///
/// Each writer has a ``JournalAllowance``: the total it has written (stored by the writer alone) and the total it may
/// reach (stored by ``refresh(measuringUnread:)`` alone). A refresh (the ingester's thread, ten times a second) reads
/// every writer's total first, then measures what is unread (each segment's size past the offset ingested), and gives
/// each writer `its total + (bound - unread) / writers`. Bytes written after a writer's total was read are counted
/// against that writer's new allowance, whether the measurement saw them or not, so the unread bytes never pass the
/// bound by more than a write that raced the refresh (one flush per loop, at most its 1 MiB staging buffer). A writer
/// past its allowance refuses its flush like a failed write: its taps are answered `503`, never dropped silently.
///
/// The bound counts unread bytes, not the files' sizes: the ingested part of a segment a writer still appends to is
/// not waiting for anything, and counting it would keep a node refusing taps with its store healthy.
public final class JournalRoom: Sendable {
    /// The bound on unread journal bytes.
    public let maximumBytes: Int
    private let allowances = Mutex<[JournalAllowance]>([])
    /// One refresh at a time: allowances computed from two measurements must never be mixed.
    private let refreshing = Mutex(RefreshState())

    struct RefreshState {
        var unread = 0
        /// The writers' refused clicks summed at the previous report.
        var refusedAtReport = 0
        var reportedFull = false
    }

    /// Room below which a writer counts as full: the largest frame a click takes.
    static let fullBelow = JournalFrame.headerSize + JournalRecord.maximumSize

    /// The smallest bound that lets each of `writers` loops write one click of the largest size: its segment's
    /// header, the click's frame, and the seal that ends the segment. Below it a loop refuses every tap with its
    /// store healthy, so `serve` refuses such a `--journal-max-bytes` at the start instead.
    public static func minimumBytes(writers: Int) -> Int {
        max(1, writers) * (JournalFrame.segmentHeaderSize + fullBelow + JournalFrame.headerSize)
    }

    init(maximumBytes: Int) {
        precondition(maximumBytes > 0, "a journal bound is positive")
        self.maximumBytes = maximumBytes
    }

    /// Whether a writer has less room left than its next click may take: taps on its loop are refused until the
    /// store takes clicks again.
    public var isFull: Bool {
        allowances.withLock { members in
            members.contains {
                $0.limit.load(ordering: .relaxed) &- $0.written.load(ordering: .relaxed) < Self.fullBelow
            }
        }
    }

    /// Clicks refused for want of room since the journal was opened (answered `503`), summed over the writers.
    public var refusedClicks: Int {
        allowances.withLock { $0.reduce(0) { $0 &+ $1.refused.load(ordering: .relaxed) } }
    }

    /// A new writer's allowance, given its share at once from `unread` (an upper bound of the unread bytes).
    func register(unread: () -> Int) -> JournalAllowance {
        let allowance = JournalAllowance()
        allowances.withLock { $0.append(allowance) }
        refresh(measuringUnread: unread)
        return allowance
    }

    /// Shares the room left under the bound out among the writers; `measuringUnread` gives the bytes written and not
    /// yet ingested. Never called on a loop thread.
    public func refresh(measuringUnread: () -> Int) {
        refreshing.withLock { state in
            let members = allowances.withLock { $0 }
            // Totals first, then the measurement: what is written in between is counted twice, never not at all.
            let written = members.map { $0.written.load(ordering: .acquiring) }
            let unread = measuringUnread()
            let room = maximumBytes - unread
            let share = max(0, room) / max(1, members.count)
            for (allowance, total) in zip(members, written) {
                allowance.limit.store(total &+ share, ordering: .releasing)
            }
            state.unread = unread
        }
    }

    /// A line for the log when taps were refused for room since the previous call, or when room came back after
    /// that; `nil` otherwise. The ingester calls it once a second: writers count, they never log.
    public func takeReport() -> String? {
        let refused = refusedClicks
        return refreshing.withLock { state in
            defer { state.refusedAtReport = refused }
            let newlyRefused = refused - state.refusedAtReport
            if newlyRefused > 0 {
                state.reportedFull = true
                let writers = allowances.withLock { $0.count }
                return "journal full: \(state.unread) bytes not yet in the store reach the bound of \(maximumBytes) "
                    + "(--journal-max-bytes, shared out among \(writers) loop\(writers == 1 ? "" : "s"), so a loop "
                    + "may refuse before the whole is reached): "
                    + "refused \(newlyRefused) click\(newlyRefused == 1 ? "" : "s") "
                    + "(answered 503) since the last report; the store is not taking clicks fast enough"
            }
            guard state.reportedFull, !isFull else { return nil }
            state.reportedFull = false
            return "journal has room again (\(state.unread) of \(maximumBytes) bytes unread): taps are recorded"
        }
    }
}

/// One writer's share of the journal's bound. `written` is stored by its writer's thread only, `limit` by
/// ``JournalRoom/refresh(measuringUnread:)`` only, `refused` by the writer only: no value has two writers, so none
/// needs a read-modify-write.
final class JournalAllowance: Sendable {
    /// Bytes the writer has written, segment headers and seals included.
    let written = Atomic<Int>(0)
    /// The total ``written`` may reach.
    let limit = Atomic<Int>(0)
    /// Clicks the writer refused for want of room.
    let refused = Atomic<Int>(0)
}
