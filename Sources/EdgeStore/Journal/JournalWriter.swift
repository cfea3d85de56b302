import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// Appends clicks to journal segments. One writer per loop thread, used only from that thread.
///
/// Clicks are staged in memory and written with one `write(2)` per event-loop iteration, by ``flush()``, which
/// the loop calls before it sends the responses of those clicks. Once `write` returns the bytes are in the
/// kernel's page cache, so a click answered after a flush survives a SIGKILL of the process. One system
/// call per iteration rather than one per click, and no memory-mapped file: a loop thread never takes a page
/// fault or waits for write-back of a page it is writing.
///
/// A segment holds each click's whole address and User-Agent until it is sealed and the ingester, having stored
/// its last click, deletes it. Besides at ``ClickJournal/segmentSize`` and at ``close()``, the loop seals it through
/// ``sealIfDue(at:)``, which it calls after every event-loop iteration (an idle loop still iterates ten times a
/// second): once the ingester has stored every click in it and no click came for ``idleSealSeconds``, or once it is
/// ``ageSealSeconds`` old and the ingester is storing its clicks. Either way the next click opens a new segment, as
/// at 64 MiB.
public final class JournalWriter {
    /// The most bytes staged before a flush is forced.
    static let stagingCapacity = 1 << 20
    /// How long a writer refuses clicks, without trying, after a write that could not go anywhere (a full disk):
    /// it tries again at most this often, so a failing volume costs one attempt a second rather than one per loop
    /// iteration, and never a file per attempt.
    static let retryInterval = 1.0

    private let journal: ClickJournal
    private let stream: Int
    /// This writer's share of the journal's bound (``JournalRoom``), and its total of bytes written.
    private let allowance: JournalAllowance
    private var written = 0
    /// Starts every frame this writer writes (``JournalFrame``): random, so that no client can plant a frame.
    let marker: UInt32
    /// The number of the next frame: frames are numbered without gaps, so a reader can count what damage cost.
    private var number: UInt32 = 0
    private let staging: UnsafeMutableRawPointer
    private var staged = 0
    private var stagedClicks = 0
    private var segment: OpenSegment?
    /// Set when staged clicks could not be written; reported (and cleared) by the next ``flush()``.
    private var lostStaged = false
    /// When not 0, the monotonic time before which a write is not tried.
    private var retryAt = 0.0
    /// Set when the staged clicks were refused because the journal reached its bound, rather than by a failed write.
    private var lostForRoom = false
    /// Set by each write to the segment, cleared by ``sealIfDue(at:)``, which then notes the time: a write costs no
    /// clock reading.
    private var wroteSinceCheck = false
    /// The monotonic time ``sealIfDue(at:)`` first saw the last write, and the segment open; 0 when it has not yet.
    private var lastWriteSeenAt = 0.0
    private var openSeenAt = 0.0

    /// How long a segment whose clicks are all stored waits for another click before it is sealed (and then
    /// deleted). Five seconds: a quiet loop's clicks leave the disk within seconds of being stored, as the README
    /// says, while a loop tapped less often than that opens, seals and deletes at most one segment (a file, a
    /// checkpoint row) per five seconds, which costs nothing measurable; a shorter pause would only add files when
    /// taps come in bursts.
    public static let idleSealSeconds = 5.0
    /// The age past which a segment is sealed even though its loop keeps writing, once the ingester is storing its
    /// clicks: a loop tapped every few seconds never idles, and would otherwise keep its clicks on disk until
    /// 64 MiB (days at such a rate). At most one segment per loop a minute; none while the store is unreachable
    /// (the ingester stores nothing then, and the clicks must stay anyway), so files never pile up.
    public static let ageSealSeconds = 60.0

    init(
        journal: ClickJournal, stream: Int, allowance: JournalAllowance,
        marker: UInt32 = JournalWriter.randomMarker()
    ) {
        precondition(marker != 0, "a journal marker is never 0")
        self.journal = journal
        self.stream = stream
        self.allowance = allowance
        self.marker = marker
        staging = .allocate(byteCount: Self.stagingCapacity, alignment: 8)
    }

    deinit {
        close()
        staging.deallocate()
    }

    static func randomMarker() -> UInt32 {
        var generator = SystemRandomNumberGenerator()
        return UInt32.random(in: 1...UInt32.max, using: &generator)
    }

    /// Whether clicks are staged and not yet written.
    public var hasStaged: Bool { staged > 0 }

    /// Stages one click, or with `isRepeat` a repeat tap (`clickID` then the first tap's). Every variable field is
    /// cut to the ``ClickRecord`` limits. The click is durable only after a ``flush()`` that returns `true`.
    @inline(__always)
    public func append(
        clickID: UnsafeRawPointer, createdAt: Int64, platform: Platform, target: LinkTarget,
        userAgent: UnsafeRawBufferPointer, referer: UnsafeRawBufferPointer, ip: UnsafeRawBufferPointer,
        isRepeat: Bool = false
    ) {
        let record = JournalRecord(
            clickID: clickID, createdAt: createdAt, platform: platform, target: target, userAgent: userAgent,
            referer: referer, ip: ip)
        let frameSize = JournalFrame.size(payloadLength: record.size)
        if staged + frameSize > Self.stagingCapacity { writeStaged() }
        let frame = staging + staged
        record.encode(
            into: UnsafeMutableRawBufferPointer(
                start: frame + JournalFrame.headerSize, count: frameSize - JournalFrame.headerSize))
        JournalFrame.finish(
            frame, payloadLength: record.size, kind: isRepeat ? .repeatTap : .click, marker: marker, number: number)
        number &+= 1
        staged += frameSize
        stagedClicks += 1
    }

    /// Writes the staged clicks. Returns `false` when any click staged since the last flush could not be
    /// written: those clicks must not be answered as recorded.
    @discardableResult
    public func flush() -> Bool { flushOutcome() == .written }

    /// Writes the staged clicks, and says whether they were all written, or why some were not: those clicks must
    /// not be answered as recorded.
    public func flushOutcome() -> JournalFlushOutcome {
        if staged > 0 { writeStaged() }
        defer {
            lostStaged = false
            lostForRoom = false
        }
        return !lostStaged ? .written : lostForRoom ? .journalFull : .writeFailed
    }

    /// Seals the current segment when it holds clicks, nothing is staged, and either the ingester has stored every
    /// click in it and none was written for ``idleSealSeconds``, or it is ``ageSealSeconds`` old and the ingester
    /// has stored some of its clicks. `now` is ``Clock/monotonicSeconds()``; the loop calls this after each
    /// iteration. Returns whether it sealed. The ingester then reads the seal and deletes the segment as it deletes
    /// any sealed one it has stored, and the next click opens a new segment.
    ///
    /// Crash safety is the seal's at 64 MiB: a SIGKILL before the seal leaves a segment the next process ingests
    /// from its checkpoint; after it, a sealed one. One atomic load of the ingester's progress, no lock.
    @discardableResult
    public func sealIfDue(at now: Double) -> Bool {
        guard let current = segment, staged == 0, current.size > JournalFrame.segmentHeaderSize else { return false }
        if openSeenAt == 0 { openSeenAt = now }
        if wroteSinceCheck {
            wroteSinceCheck = false
            lastWriteSeenAt = now
            if now - openSeenAt < Self.ageSealSeconds { return false }
        }
        let ingested = current.ingested.offset.load(ordering: .acquiring)
        let idle = now - lastWriteSeenAt >= Self.idleSealSeconds && ingested >= current.size
        let old = now - openSeenAt >= Self.ageSealSeconds && ingested > JournalFrame.segmentHeaderSize
        guard idle || old else { return false }
        seal()
        return true
    }

    /// Seals the current segment: the loop is exiting. Staged clicks are written first.
    public func close() {
        flush()
        seal()
    }

    private func writeStaged() {
        defer {
            staged = 0
            stagedClicks = 0
        }
        // The journal's bound, with this writer's own allowance: one atomic load, no shared read-modify-write. A
        // segment header or seal this flush may add is counted too.
        let needed = staged + (segment == nil ? JournalFrame.segmentHeaderSize : JournalFrame.headerSize)
        if written &+ needed > allowance.limit.load(ordering: .acquiring) {
            return refuseForRoom()
        }
        if retryAt != 0 {
            guard Clock.monotonicSeconds() >= retryAt else { return refuse(because: nil) }
            retryAt = 0
        }
        if segment == nil {
            do {
                segment = try journal.openSegment(stream: stream, marker: marker)
                openSeenAt = 0
                count(JournalFrame.segmentHeaderSize)
            } catch {
                // Creating a segment or writing its header failed (no file is left behind): the volume is full or
                // failing, and so would the next one be.
                retryAt = Clock.monotonicSeconds() + Self.retryInterval
                return refuse(because: "\(error)")
            }
        }
        guard var current = segment else { return }
        do {
            try FileDescriptor.writeAll(current.descriptor, UnsafeRawBufferPointer(start: staging, count: staged))
        } catch {
            // Cut off the torn tail (the `error.written` bytes that reached the file), so the segment ends after a
            // whole frame again.
            let restored = ftruncate(current.descriptor, off_t(current.size)) == 0
            refuse(because: "cannot write \(current.name): \(error)")
            if restored && current.size == JournalFrame.segmentHeaderSize {
                // Not one click of this segment was written: the volume is full (or failing), not the file. Keep
                // the segment for the next attempt, a second from now, rather than leave a new file per attempt.
                retryAt = Clock.monotonicSeconds() + Self.retryInterval
            } else {
                // The segment holds clicks and may have reached a file-size limit: leave it (it ends after a whole
                // frame, or in a torn tail the reader drops) and try a new one at the next write.
                seal(writeMarker: false)
            }
            return
        }
        current.size += staged
        count(staged)
        wroteSinceCheck = true
        segment = current
        if current.size >= journal.segmentSize { seal() }
    }

    /// Adds bytes that reached the file to this writer's total, which the journal's room is measured against.
    private func count(_ bytes: Int) {
        written &+= bytes
        allowance.written.store(written, ordering: .releasing)
    }

    /// Gives up the staged clicks because the journal holds as many unread bytes as it may: answered 503 like a
    /// failed write, counted in this writer's own counter (no lock, no log on the loop thread: the ingester reports),
    /// their frame numbers used again.
    private func refuseForRoom() {
        number &-= UInt32(truncatingIfNeeded: stagedClicks)
        lostStaged = true
        lostForRoom = true
        allowance.refused.store(allowance.refused.load(ordering: .relaxed) &+ stagedClicks, ordering: .relaxed)
    }

    /// Gives up the staged clicks: they are answered 503, counted, and their frame numbers used again, so the
    /// numbers in a segment stay without gaps.
    private func refuse(because error: String?) {
        number &-= UInt32(truncatingIfNeeded: stagedClicks)
        lostStaged = true
        journal.refused(clicks: stagedClicks, error: error)
    }

    /// Closes the current segment, with a seal frame unless it ends in a failed write, so the ingester deletes
    /// it once consumed.
    private func seal(writeMarker: Bool = true) {
        guard let segment else { return }
        if writeMarker {
            let written = withUnsafeTemporaryAllocation(byteCount: JournalFrame.headerSize, alignment: 8) { frame in
                JournalFrame.finish(frame.baseAddress!, payloadLength: 0, kind: .seal, marker: marker, number: number)
                return write(segment.descriptor, frame.baseAddress, frame.count)
            }
            if written == JournalFrame.headerSize {
                number &+= 1
                count(JournalFrame.headerSize)
            } else if written > 0 {
                // A seal cut short would read as a torn tail: the segment ends after its last whole frame instead.
                _ = ftruncate(segment.descriptor, off_t(segment.size))
            }
        }
        Glibc.close(segment.descriptor)
        journal.sealed(segment.name)
        self.segment = nil
    }
}

/// What became of the clicks a ``JournalWriter/flushOutcome()`` wrote.
public enum JournalFlushOutcome: Sendable, Equatable {
    /// Every staged click is in the journal.
    case written
    /// A write failed (a full or failing volume, a file-size limit): the staged clicks are not recorded.
    case writeFailed
    /// The journal holds as many unread bytes as its bound allows (``JournalRoom``): the staged clicks are not
    /// recorded.
    case journalFull
}

/// A segment file open for appending.
struct OpenSegment {
    let name: String
    let descriptor: Int32
    /// How far the ingester has committed it (``IngestedOffset``).
    let ingested: IngestedOffset
    /// Bytes written so far, its header included.
    var size = JournalFrame.segmentHeaderSize
}
