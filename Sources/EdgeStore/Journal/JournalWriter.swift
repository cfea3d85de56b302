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
public final class JournalWriter {
    /// The most bytes staged before a flush is forced.
    static let stagingCapacity = 1 << 20

    private let journal: ClickJournal
    private let stream: Int
    private let staging: UnsafeMutableRawPointer
    private var staged = 0
    private var segment: OpenSegment?
    /// Set when staged clicks could not be written; reported (and cleared) by the next ``flush()``.
    private var lostStaged = false

    init(journal: ClickJournal, stream: Int) {
        self.journal = journal
        self.stream = stream
        staging = .allocate(byteCount: Self.stagingCapacity, alignment: 8)
    }

    deinit {
        close()
        staging.deallocate()
    }

    /// Whether clicks are staged and not yet written.
    public var hasStaged: Bool { staged > 0 }

    /// Stages one click. Every variable field is cut to the ``ClickRecord`` limits. The click is durable only
    /// after a ``flush()`` that returns `true`.
    @inline(__always)
    public func append(
        clickID: UnsafeRawPointer, createdAt: Int64, platform: Platform, target: LinkTarget,
        userAgent: UnsafeRawBufferPointer, referer: UnsafeRawBufferPointer, ip: UnsafeRawBufferPointer
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
        JournalFrame.finish(frame, payloadLength: record.size)
        staged += frameSize
    }

    /// Writes the staged clicks. Returns `false` when any click staged since the last flush could not be
    /// written: those clicks must not be answered as recorded.
    @discardableResult
    public func flush() -> Bool {
        if staged > 0 { writeStaged() }
        defer { lostStaged = false }
        return !lostStaged
    }

    /// Seals the current segment: the loop is exiting. Staged clicks are written first.
    public func close() {
        flush()
        seal()
    }

    private func writeStaged() {
        defer { staged = 0 }
        if segment == nil {
            do {
                segment = try journal.openSegment(stream: stream)
            } catch {
                journal.report(error)
                lostStaged = true
                return
            }
        }
        guard var current = segment else { return }
        do {
            try FileDescriptor.writeAll(current.descriptor, UnsafeRawBufferPointer(start: staging, count: staged))
        } catch {
            // A full disk, most likely. Cut off the torn tail (the `error.written` bytes that reached the file)
            // and leave the segment: a segment no writer holds ends at its first incomplete frame, so every
            // frame before it is still ingested.
            journal.report(StoreError.io("cannot write \(current.name): \(error)"))
            _ = ftruncate(current.descriptor, off_t(current.size))
            lostStaged = true
            seal(writeMarker: false)
            return
        }
        current.size += staged
        segment = current
        if current.size >= journal.segmentSize { seal() }
    }

    /// Closes the current segment, with a seal frame unless it ends in a torn write, so the ingester deletes
    /// it once consumed.
    private func seal(writeMarker: Bool = true) {
        guard let segment else { return }
        if writeMarker {
            var marker = UInt64(JournalFrame.sealMarker)
            _ = withUnsafeBytes(of: &marker) { write(segment.descriptor, $0.baseAddress, 8) }
        }
        Glibc.close(segment.descriptor)
        journal.sealed(segment.name)
        self.segment = nil
    }
}

/// A segment file open for appending.
struct OpenSegment {
    let name: String
    let descriptor: Int32
    /// Bytes written so far.
    var size = 0
}
