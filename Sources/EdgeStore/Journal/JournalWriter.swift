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
        let agentLength = min(userAgent.count, ClickRecord.maximumUserAgentLength)
        let refererLength = min(referer.count, ClickRecord.maximumRefererLength)
        let ipLength = min(ip.count, ClickRecord.maximumIPLength)
        let fieldsLength = target.journalFields.count
        let payloadLength = JournalFrame.fixedPayloadSize + fieldsLength + agentLength + refererLength + ipLength
        let frameLength = JournalFrame.headerSize + JournalFrame.padded(payloadLength)
        if staged + frameLength > Self.stagingCapacity { writeStaged() }
        let base = staging + staged
        let payload = base + JournalFrame.headerSize
        payload.storeBytes(of: 1, as: UInt8.self)
        payload.storeBytes(of: JournalFrame.platformByte(platform), toByteOffset: 1, as: UInt8.self)
        payload.storeBytes(of: UInt16(fieldsLength).littleEndian, toByteOffset: 2, as: UInt16.self)
        payload.storeBytes(of: UInt16(agentLength).littleEndian, toByteOffset: 4, as: UInt16.self)
        payload.storeBytes(of: UInt16(refererLength).littleEndian, toByteOffset: 6, as: UInt16.self)
        // Bytes 9–15 are padding; the 8-byte store zeroes them with the length.
        payload.storeBytes(of: UInt64(ipLength).littleEndian, toByteOffset: 8, as: UInt64.self)
        payload.storeBytes(of: createdAt.littleEndian, toByteOffset: 16, as: Int64.self)
        (payload + 24).copyMemory(from: clickID, byteCount: ClickID.encodedLength)
        var cursor = JournalFrame.fixedPayloadSize
        target.journalFields.withUnsafeBytes {
            (payload + cursor).copyMemory(from: $0.baseAddress!, byteCount: fieldsLength)
        }
        cursor += fieldsLength
        @inline(__always) func copy(_ field: UnsafeRawBufferPointer, _ length: Int) {
            if length > 0 { (payload + cursor).copyMemory(from: field.baseAddress!, byteCount: length) }
            cursor += length
        }
        copy(userAgent, agentLength)
        copy(referer, refererLength)
        copy(ip, ipLength)
        // Zero the padding, so the file's bytes do not depend on what the staging buffer held before.
        (payload + payloadLength).initializeMemory(
            as: UInt8.self, repeating: 0, count: JournalFrame.padded(payloadLength) - payloadLength)
        let check = JournalFrame.checksum(UnsafeRawBufferPointer(start: payload, count: payloadLength))
        base.storeBytes(of: UInt64(UInt32(payloadLength)) | UInt64(check) << 32, as: UInt64.self)
        staged += frameLength
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
        var written = 0
        while written < staged {
            let count = write(current.descriptor, staging + written, staged - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                // A full disk, most likely. Cut the torn tail off and leave the segment: a segment no writer
                // holds ends at its first incomplete frame, so every frame before it is still ingested.
                journal.report(StoreError.io("cannot write \(current.name): \(String(cString: strerror(errno)))"))
                _ = ftruncate(current.descriptor, off_t(current.size))
                lostStaged = true
                seal(writeMarker: false)
                return
            }
            written += count
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
