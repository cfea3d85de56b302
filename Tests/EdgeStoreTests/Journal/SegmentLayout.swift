import Foundation
import TestSupport

@testable import EdgeStore

/// Where the frames of an undamaged version 2 segment lie, read from its bytes by this test code alone (not by
/// the reader under test).
struct SegmentLayout {
    struct Frame {
        /// The frame's first byte.
        let start: Int
        /// Just past the bytes its checksum covers (header and payload): its padding follows, up to ``end``.
        let checkedEnd: Int
        let end: Int
    }

    let marker: UInt32
    /// Every frame, the seal last.
    let frames: [Frame]

    init(path: String) throws {
        let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        func word(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        guard bytes.count >= 16, Array(bytes[0..<5]) == Array("TJNL".utf8) + [2] else {
            throw TestError("\(path) is not a version 2 segment")
        }
        marker = UInt32(word(8, 4))
        var frames: [Frame] = []
        var offset = 16
        while offset + 16 <= bytes.count {
            let length = word(offset + 4, 2)
            let end = offset + 16 + (length + 7) / 8 * 8
            frames.append(Frame(start: offset, checkedEnd: offset + 16 + length, end: end))
            if bytes[offset + 6] == 2 { break }
            offset = end
        }
        self.frames = frames
    }
}
