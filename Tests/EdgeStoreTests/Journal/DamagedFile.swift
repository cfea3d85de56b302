/// A segment's bytes, damaged at random the ways a file can be, that can tell which of the original frames are
/// still whole somewhere in them.
struct DamagedFile {
    private let original: [UInt8]
    private(set) var bytes: [UInt8]
    /// What was done, to replay a failure.
    private(set) var log: [String] = []

    /// The segment header is only ever overwritten: a shift there moves the first frame, which a reader looks
    /// for after the header.
    static let headerSize = 16

    init(_ original: [UInt8]) {
        self.original = original
        bytes = original
    }

    /// One random damage: a bit flipped, a byte or a run of bytes overwritten or zeroed, bytes inserted or lost.
    mutating func damage(using generator: inout some RandomNumberGenerator) {
        guard !bytes.isEmpty else { return }
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            let bit = Int.random(in: 0..<8, using: &generator)
            bytes[at] ^= 1 << bit
            log.append("flip bit \(bit) at \(at)")
        case 1:
            bytes[at] ^= UInt8.random(in: 1...255, using: &generator)
            log.append("overwrite \(at)")
        case 2, 3:
            let zero = bytes.count % 2 == 0
            let count = min(Int.random(in: 2...64, using: &generator), bytes.count - at)
            for index in at..<at + count { bytes[index] = zero ? 0 : UInt8.random(in: 0...255, using: &generator) }
            log.append("\(zero ? "zero" : "overwrite") \(count) at \(at)")
        case 4:
            guard at >= Self.headerSize else { return }
            let inserted = (0..<Int.random(in: 1...16, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            bytes.insert(contentsOf: inserted, at: at)
            log.append("insert \(inserted.count) at \(at)")
        default:
            guard at >= Self.headerSize else { return }
            let count = min(Int.random(in: 1...16, using: &generator), bytes.count - at)
            bytes.removeSubrange(at..<at + count)
            log.append("delete \(count) at \(at)")
        }
    }

    /// Cuts the file at a random place, as a crash in the middle of a write would.
    mutating func cut(using generator: inout some RandomNumberGenerator) {
        let at = Int.random(in: 0...bytes.count, using: &generator)
        bytes.removeSubrange(at...)
        log.append("cut at \(at)")
    }

    /// For each frame, whether the damage cost it: the bytes its checksum covers (header and payload) appear
    /// nowhere in the damaged file unchanged and in one piece with room for its padding after them.
    ///
    /// Bytes are compared, not where they came from: a byte inserted or shifted into a frame that equals the one it
    /// displaced leaves the frame whole, and a reader rightly takes it. The damage inserts only random bytes, so a
    /// frame's bytes (which hold its number and checksum) are found only where the frame itself now lies.
    func losses(_ frames: [SegmentLayout.Frame]) -> [Bool] {
        bytes.withUnsafeBufferPointer { bytes in
            original.withUnsafeBufferPointer { original in
                frames.map { frame in
                    let checked = frame.checkedEnd - frame.start
                    let last = bytes.count - (frame.end - frame.start)
                    guard last >= 0 else { return true }
                    let first = original[frame.start]
                    search: for start in 0...last where bytes[start] == first {
                        for offset in 1..<checked where bytes[start + offset] != original[frame.start + offset] {
                            continue search
                        }
                        return false
                    }
                    return true
                }
            }
        }
    }
}
