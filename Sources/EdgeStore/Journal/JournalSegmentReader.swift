#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole frames from a segment file, from a byte offset on, and steps over damaged ones.
///
/// A frame that fails its checks is not the end of the segment: the reader looks for the next valid frame, byte
/// by byte, and reports the bytes in between as ``Damage`` (the records they held are lost, the rest are not).
/// Only at the end of a segment whose writer is gone does it say how the segment ended: sealed, after a whole
/// frame, in a frame cut short (a torn tail), or in damaged bytes. While the writer still holds the segment, what
/// does not read as a frame at its end may be a write in progress, and is read again next time.
struct JournalSegmentReader {
    /// Why a read stopped.
    enum End: Equatable {
        /// `maximumFrames` frames were read; more may follow.
        case limit
        /// The end of what its writer, which still holds the segment, has written so far.
        case open
        /// The writer sealed the segment: nothing follows.
        case sealed
        /// The segment, which no writer holds, ends after a whole frame without a seal: its writer stopped (a
        /// crash, or a failed write after which it moved to a new segment) between two writes.
        case clean
        /// The segment, which no writer holds, ends in a frame cut short: the rest of a write that a crash or a
        /// failed write interrupted. The response of its click waited for the whole write, so it was never answered.
        case torn(offset: Int64, length: Int64)
        /// The segment, which no writer holds, ends in bytes that hold no valid frame, from `offset` on: damage.
        case damaged(offset: Int64, length: Int64)
    }

    /// Bytes that held no valid frame, between two that did: the records there are lost, and only those.
    struct Damage: Equatable {
        let offset: Int64
        let length: Int64
        /// How many frames the bytes held, from the numbers of the frames on either side (version 2 segments, when
        /// the frame before the damage is known).
        let lostFrames: Int?
    }

    /// How a read ended, and the number of the last valid frame it saw (to pass to the next read).
    struct Outcome: Equatable {
        let end: End
        let lastNumber: UInt32?
    }

    /// The bytes read at a time: any frame fits many times over.
    static let windowSize = 1 << 20

    /// Where the segment's bytes are: its file, or (for tests that try millions of damaged segments) memory.
    enum Source {
        case file(String)
        case bytes([UInt8])
    }

    let source: Source
    /// The file's path, or a name for bytes in memory: for error messages.
    let path: String

    init(path: String) {
        source = .file(path)
        self.path = path
    }

    /// A reader of a segment's bytes held in memory, named `name` in errors; it reads them as it would the file.
    init(bytes: [UInt8], name: String = "segment in memory") {
        source = .bytes(bytes)
        path = name
    }

    /// What the segment's first bytes say, and how many there were (up to ``JournalSegmentFormat/detectionSize``).
    func detectFormat() throws -> (detection: JournalSegmentFormat.Detection, bytes: Int) {
        try withFile { descriptor, buffer in
            let count = try load(descriptor, buffer, at: 0, count: JournalSegmentFormat.detectionSize)
            return (JournalSegmentFormat.detect(UnsafeRawBufferPointer(rebasing: buffer[0..<count])), count)
        }
    }

    /// The format of a segment whose header is damaged, learned from its frames; `nil` when it has none.
    func learnFormat() throws -> JournalSegmentFormat? {
        try withFile { descriptor, buffer in
            var learner = JournalSegmentFormat.Learner()
            var position: Int64 = 0
            while true {
                let count = try load(descriptor, buffer, at: position, count: Self.windowSize)
                let atEnd = count < Self.windowSize
                let resume = learner.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: 0, final: atEnd)
                if atEnd || resume == 0 { return learner.best }
                position += Int64(resume)
            }
        }
    }

    /// Reads frames of `format` from `offset` (the start of the first frame, or just past a frame read before), up
    /// to `maximumFrames`, and calls `frame` with each frame's kind, payload and the offset just past it, and
    /// `damage` with the damaged bytes before a valid frame. `previousNumber` is the number of the frame before
    /// `offset`, when known. `writerGone` says that nothing more will be written: the end is then final.
    func read(
        from offset: Int64, format: JournalSegmentFormat, previousNumber: UInt32? = nil, maximumFrames: Int,
        writerGone: Bool, frame: (UInt8, UnsafeRawBufferPointer, Int64) throws -> Void,
        damage: (Damage) -> Void = { _ in }
    ) throws -> Outcome {
        try withFile { descriptor, buffer in
            var position = max(offset, format.firstFrameOffset)
            // Where the bytes that are not a valid frame start, since the last valid frame.
            var damagedFrom: Int64?
            // The first frame since then that the end of the file cuts short (a header that passes the checks it can
            // be given alone, or too few bytes for a header right after a frame): a torn tail, unless a valid frame
            // follows, which makes it damage.
            var cutShort: Int64?
            // Where the bytes the last valid frame's checksum covered end: its padding, which nothing checks, may have
            // lost or gained bytes, so a search for the next frame starts there.
            var checkedEnd = position
            var frames = 0
            var last = previousNumber
            while true {
                let count = try load(descriptor, buffer, at: position, count: Self.windowSize)
                let atEnd = count < Self.windowSize
                let window = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                var cursor = 0
                scan: while cursor < count {
                    if frames == maximumFrames { return Outcome(end: .limit, lastNumber: last) }
                    let check = format.check(window, at: cursor)
                    if case .frame(let found) = check {
                        if let start = damagedFrom {
                            // Before the damaged place when the frame was found in the last one's padding.
                            let at = position + Int64(cursor)
                            damage(
                                Damage(
                                    offset: min(start, at), length: max(0, at - start),
                                    lostFrames: Self.gap(last, found.number)))
                            damagedFrom = nil
                            cutShort = nil
                        }
                        last = found.number ?? last
                        if found.kind == JournalFrame.Kind.seal.rawValue {
                            return Outcome(end: .sealed, lastNumber: last)
                        }
                        checkedEnd = position + Int64(found.payload.upperBound)
                        cursor += found.size
                        frames += 1
                        try frame(
                            found.kind, UnsafeRawBufferPointer(rebasing: window[found.payload]),
                            position + Int64(cursor))
                        continue
                    }
                    // What follows needs bytes past the window: read on from here.
                    if case .invalid = check {} else if !atEnd { break scan }
                    // No frame here: damage, or the end of the file in the middle of a frame.
                    if case .incomplete = check, cutShort == nil { cutShort = position + Int64(cursor) }
                    if damagedFrom == nil {
                        damagedFrom = position + Int64(cursor)
                        if case .short = check { cutShort = damagedFrom }
                        if checkedEnd >= position && checkedEnd < position + Int64(cursor) {
                            cursor = Int(checkedEnd - position)
                            continue
                        }
                    }
                    cursor += 1
                }
                if !atEnd {
                    precondition(cursor > 0, "a journal frame is larger than the read window")
                    position += Int64(cursor)
                    continue
                }
                guard writerGone else { return Outcome(end: .open, lastNumber: last) }
                let end = position + Int64(count)
                guard let start = damagedFrom else { return Outcome(end: .clean, lastNumber: last) }
                guard let torn = cutShort else {
                    return Outcome(end: .damaged(offset: start, length: end - start), lastNumber: last)
                }
                if torn > start { damage(Damage(offset: start, length: torn - start, lostFrames: nil)) }
                return Outcome(end: .torn(offset: min(start, torn), length: end - min(start, torn)), lastNumber: last)
            }
        }
    }

    /// The frames between two numbered frames.
    private static func gap(_ before: UInt32?, _ after: UInt32?) -> Int? {
        guard let before, let after else { return nil }
        let gap = Int(after &- before) - 1
        return gap >= 0 && gap < 1 << 24 ? gap : nil
    }

    private func withFile<T>(_ body: (Int32, UnsafeMutableRawBufferPointer) throws -> T) throws -> T {
        let descriptor: Int32
        switch source {
        case .file(let path):
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw StoreError.io("cannot open \(path): \(String(cString: strerror(errno)))")
            }
        case .bytes: descriptor = -1
        }
        defer { if descriptor >= 0 { close(descriptor) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.windowSize, alignment: 8)
        defer { buffer.deallocate() }
        return try body(descriptor, buffer)
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    private func load(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int64, count: Int)
        throws -> Int
    {
        if case .bytes(let bytes) = source {
            let start = Int(min(offset, Int64(bytes.count)))
            let total = min(count, bytes.count - start)
            bytes.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<start + total]))
            }
            return total
        }
        var total = 0
        while total < count {
            let read = pread(descriptor, buffer.baseAddress! + total, count - total, off_t(offset) + off_t(total))
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { throw StoreError.io("cannot read \(path): \(String(cString: strerror(errno)))") }
            if read == 0 { break }
            total += read
        }
        return total
    }
}
