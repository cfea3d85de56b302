/// A segment's bytes, damaged at random the ways a file can be, that knows which of the original bytes each
/// remaining byte is, so a test can tell which frames the damage touched.
struct DamagedFile {
    private let original: [UInt8]
    private(set) var bytes: [UInt8]
    /// The original index of each byte of ``bytes``; -1 for a byte inserted.
    private var origins: [Int]
    /// What was done, to replay a failure.
    private(set) var log: [String] = []

    /// The segment header is only ever overwritten: a shift there moves the first frame, which a reader looks
    /// for after the header.
    static let headerSize = 16

    init(_ original: [UInt8]) {
        self.original = original
        bytes = original
        origins = Array(original.indices)
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
            origins.insert(contentsOf: [Int](repeating: -1, count: inserted.count), at: at)
            log.append("insert \(inserted.count) at \(at)")
        default:
            guard at >= Self.headerSize else { return }
            let count = min(Int.random(in: 1...16, using: &generator), bytes.count - at)
            bytes.removeSubrange(at..<at + count)
            origins.removeSubrange(at..<at + count)
            log.append("delete \(count) at \(at)")
        }
    }

    /// Cuts the file at a random place, as a crash in the middle of a write would.
    mutating func cut(using generator: inout some RandomNumberGenerator) {
        let at = Int.random(in: 0...bytes.count, using: &generator)
        bytes.removeSubrange(at...)
        origins.removeSubrange(at...)
        log.append("cut at \(at)")
    }

    /// For each frame, whether the damage touched what its checksum covers (a byte changed or lost, or bytes
    /// inserted inside it), or left the file too short for the whole frame, padding included, where it now starts.
    func losses(_ frames: [SegmentLayout.Frame]) -> [Bool] {
        var place = [Int](repeating: -1, count: original.count)
        place.withUnsafeMutableBufferPointer { place in
            origins.withUnsafeBufferPointer { origins in
                for index in origins.indices where origins[index] >= 0 { place[origins[index]] = index }
            }
        }
        return place.withUnsafeBufferPointer { place in
            bytes.withUnsafeBufferPointer { bytes in
                original.withUnsafeBufferPointer { original in
                    frames.map { frame in
                        for origin in frame.start..<frame.checkedEnd {
                            let index = place[origin]
                            if index < 0 || bytes[index] != original[origin] { return true }
                            if origin > frame.start && place[origin - 1] + 1 != index { return true }
                        }
                        return place[frame.start] + (frame.end - frame.start) > bytes.count
                    }
                }
            }
        }
    }

    /// SplitMix64: a generator whose sequence a seed fixes, so a failing case can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }
}
