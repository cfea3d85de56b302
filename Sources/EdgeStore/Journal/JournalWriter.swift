import LinkCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Appends clicks to journal segments that are mapped into memory. One writer per loop thread, used only
/// from that thread.
///
/// A store into a shared file mapping is in the kernel's page cache as soon as it is made, so a click
/// appended before its response goes out survives a SIGKILL of the process without a system call per click.
public final class JournalWriter {
    private let journal: ClickJournal
    private let stream: Int
    private var segment: MappedSegment?

    init(journal: ClickJournal, stream: Int) {
        self.journal = journal
        self.stream = stream
    }

    deinit { close() }

    /// Appends one click; `false` when the journal cannot be written (the click must then not be answered
    /// as recorded). Every variable field is cut to the ``ClickRecord`` limits.
    @inline(__always)
    public func append(
        clickID: UnsafeRawPointer, createdAt: Int64, platform: Platform, target: LinkTarget,
        userAgent: UnsafeRawBufferPointer, referer: UnsafeRawBufferPointer, ip: UnsafeRawBufferPointer
    ) -> Bool {
        let agentLength = min(userAgent.count, ClickRecord.maximumUserAgentLength)
        let refererLength = min(referer.count, ClickRecord.maximumRefererLength)
        let ipLength = min(ip.count, ClickRecord.maximumIPLength)
        let fieldsLength = target.journalFields.count
        let payloadLength = JournalFrame.fixedPayloadSize + fieldsLength + agentLength + refererLength + ipLength
        let frameLength = JournalFrame.headerSize + JournalFrame.padded(payloadLength)
        guard let base = reserve(frameLength) else { return false }
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
        let check = JournalFrame.checksum(UnsafeRawBufferPointer(start: payload, count: payloadLength))
        // The header goes last, in one aligned store: a reader sees either no frame or a whole one. The fence
        // keeps the compiler (and weaker CPUs) from moving the payload stores after it.
        atomicMemoryFence(ordering: .releasing)
        base.storeBytes(of: UInt64(UInt32(payloadLength)) | UInt64(check) << 32, as: UInt64.self)
        segment!.used += frameLength
        return true
    }

    /// The address of `length` bytes at the end of the current segment, opening a new segment when needed.
    @inline(__always)
    private func reserve(_ length: Int) -> UnsafeMutableRawPointer? {
        if let segment, segment.used + length + JournalFrame.headerSize <= segment.size {
            return segment.base + segment.used
        }
        seal()
        do {
            segment = try journal.nextSegment(stream: stream)
        } catch {
            journal.report(error)
            return nil
        }
        return segment!.base + segment!.used
    }

    /// Seals the current segment and drops the spare: the loop is exiting.
    public func close() {
        seal()
        journal.discardSpare(stream: stream)
    }

    /// Seals the current segment, so the ingester deletes it once consumed.
    private func seal() {
        guard let segment else { return }
        (segment.base + segment.used).storeBytes(of: UInt64(JournalFrame.sealMarker), as: UInt64.self)
        journal.retire(segment)
        self.segment = nil
    }
}

/// A segment file mapped for writing.
///
/// `@unchecked Sendable`: the preparer thread hands a segment to exactly one writer through the journal's
/// mutex; from then on only that writer's loop thread touches the mapping.
struct MappedSegment: @unchecked Sendable {
    let name: String
    let base: UnsafeMutableRawPointer
    let size: Int
    var used = 0
}
