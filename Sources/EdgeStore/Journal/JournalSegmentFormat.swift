import LinkCore

/// The framing a segment was written in, and what it takes to check one of its frames (``JournalFrame``).
enum JournalSegmentFormat: Hashable, Sendable {
    /// Earlier builds: no segment header, 8-byte frame headers with a 31-bit byte hash.
    case version1
    /// This build: a segment header, then frames that carry the writer's marker, a number and a CRC-32C.
    case version2(marker: UInt32)

    /// Where the first frame starts.
    var firstFrameOffset: Int64 {
        switch self {
        case .version1: return 0
        case .version2: return Int64(JournalFrame.segmentHeaderSize)
        }
    }

    /// A whole, valid frame found in a buffer.
    struct Frame {
        /// ``JournalFrame/Kind`` as a byte (version 1 frames are clicks); an unknown kind is left to the caller.
        let kind: UInt8
        /// The payload's place in the buffer.
        let payload: Range<Int>
        /// The bytes the frame takes, padding included.
        let size: Int
        /// The frame's number (version 2).
        let number: UInt32?
    }

    /// What the bytes at one place of a buffer are.
    enum Check {
        /// A whole frame that passes every check.
        case frame(Frame)
        /// A header that passes the checks it can be given alone, whose frame runs past the bytes there are.
        case incomplete
        /// Fewer bytes than a header.
        case short
        /// Not a frame of this segment.
        case invalid
    }

    /// Checks the bytes of `buffer` from `offset` on as a frame of this format.
    func check(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> Check {
        switch self {
        case .version1: return Self.checkVersion1(buffer, at: offset)
        case .version2(let marker): return Self.checkVersion2(buffer, at: offset, marker: marker)
        }
    }

    /// `marker` nil takes the header's own marker: how ``learn(_:)`` finds the marker of a damaged segment header.
    static func checkVersion2(_ buffer: UnsafeRawBufferPointer, at offset: Int, marker: UInt32?) -> Check {
        let available = buffer.count - offset
        guard available >= JournalFrame.headerSize else { return .short }
        let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        let found = UInt32(truncatingIfNeeded: word)
        let length = Int(UInt16(truncatingIfNeeded: word >> 32))
        let kind = UInt8(truncatingIfNeeded: word >> 48)
        guard found == (marker ?? found), found != 0, kind != 0, word >> 56 == 0, length <= JournalRecord.maximumSize
        else { return .invalid }
        let size = JournalFrame.size(payloadLength: length)
        guard size <= available else { return .incomplete }
        let base = buffer.baseAddress! + offset
        let check = CRC32C.checksum(
            UnsafeRawBufferPointer(start: base + JournalFrame.headerSize, count: length),
            continuing: CRC32C.checksum(UnsafeRawBufferPointer(start: base, count: 12)))
        guard check == UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) else {
            return .invalid
        }
        return .frame(
            Frame(
                kind: kind, payload: offset + JournalFrame.headerSize..<offset + JournalFrame.headerSize + length,
                size: size,
                number: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))))
    }

    static func checkVersion1(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> Check {
        let available = buffer.count - offset
        guard available >= JournalFrame.Version1.headerSize else { return .short }
        let length = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        if length == JournalFrame.Version1.sealMarker {
            return .frame(Frame(kind: JournalFrame.Kind.seal.rawValue, payload: offset..<offset, size: 8, number: nil))
        }
        guard length >= JournalRecord.fixedSize, length <= JournalRecord.maximumSize else { return .invalid }
        let size = JournalFrame.Version1.headerSize + JournalFrame.padded(Int(length))
        guard size <= available else { return .incomplete }
        let payload =
            offset + JournalFrame.Version1.headerSize..<offset + JournalFrame.Version1.headerSize + Int(length)
        let check = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        guard JournalFrame.Version1.checksum(UnsafeRawBufferPointer(rebasing: buffer[payload])) == check else {
            return .invalid
        }
        return .frame(Frame(kind: JournalFrame.Kind.click.rawValue, payload: payload, size: size, number: nil))
    }

    /// What a segment's first bytes say about it.
    enum Detection: Equatable {
        /// Fewer bytes than a segment header, all of them a header's beginning: a segment just created, or one
        /// whose creation a crash or a full disk cut short. It holds no click.
        case unwritten
        /// A segment of this format, as its header says.
        case format(JournalSegmentFormat)
        /// Neither format's beginning: a damaged header. The caller learns the format from the frames.
        case damaged
        /// A whole, checked header of a later format than this build reads
        /// (``JournalFrame/laterFormat(inSegmentHeader:)`` names it): a newer build's segment. Not damage: the segment
        /// is kept for that build (reading it as damage would store what this build makes of its frames, or drop
        /// them, and delete it).
        case newer(format: String)
    }

    /// The bytes ``detect(_:)`` wants: a segment header, or a whole version 1 frame.
    static let detectionSize = JournalFrame.Version1.headerSize + JournalRecord.maximumSize + 8

    /// Reads a segment's format from its first bytes (up to ``detectionSize`` of them, fewer when the file is
    /// shorter): a valid version 2 header, or a valid first version 1 frame; a valid header of a later version, or of
    /// version 2 with flags set, is a newer build's. Anything else is damage, and the format is learned from the
    /// frames (``Learner``), so a damaged first frame cannot pass for another format.
    static func detect(_ start: UnsafeRawBufferPointer) -> Detection {
        if let marker = JournalFrame.marker(inSegmentHeader: start) { return .format(.version2(marker: marker)) }
        if case .frame = checkVersion1(start, at: 0) { return .format(.version1) }
        if let format = JournalFrame.laterFormat(inSegmentHeader: start) { return .newer(format: format) }
        if start.count < JournalFrame.segmentHeaderSize {
            let expected = JournalFrame.segmentHeader(marker: 1)
            if start.indices.allSatisfy({ $0 >= 8 || start[$0] == expected[$0] }) { return .unwritten }
        }
        return .damaged
    }

    /// Tallies a segment whose header is damaged, to find which format (and marker) its frames share.
    ///
    /// Feed it the segment's bytes in order with ``scan(_:at:final:)``; ``best`` is the format whose valid frames
    /// cover the most bytes. Frames a client planted inside its own record (see ``JournalFrame``) cannot win: each
    /// lies inside a genuine frame, which is larger, and the search steps over a valid frame whole.
    struct Learner {
        private var coverage: [JournalSegmentFormat: Int] = [:]

        /// The format whose frames cover the most bytes, if any frame was found.
        var best: JournalSegmentFormat? { coverage.max { $0.value < $1.value }?.key }

        /// Scans `buffer` from `start`, and returns where to resume: the first place it could not decide (a frame
        /// running past the buffer's end), or the end when `final`.
        mutating func scan(_ buffer: UnsafeRawBufferPointer, at start: Int, final: Bool) -> Int {
            var offset = start
            while offset < buffer.count {
                var undecided = false
                if case .frame(let frame) = JournalSegmentFormat.checkVersion2(buffer, at: offset, marker: nil) {
                    let marker = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                    coverage[.version2(marker: marker), default: 0] += frame.size
                    offset += frame.size
                    continue
                } else if case .frame(let frame) = JournalSegmentFormat.checkVersion1(buffer, at: offset),
                    frame.kind == JournalFrame.Kind.click.rawValue
                {
                    coverage[.version1, default: 0] += frame.size
                    offset += frame.size
                    continue
                } else if case .incomplete = JournalSegmentFormat.checkVersion2(buffer, at: offset, marker: nil) {
                    undecided = true
                } else if case .incomplete = JournalSegmentFormat.checkVersion1(buffer, at: offset) {
                    undecided = true
                } else if buffer.count - offset < JournalFrame.headerSize {
                    undecided = true
                }
                if undecided && !final { return offset }
                offset += 1
            }
            return offset
        }
    }
}
