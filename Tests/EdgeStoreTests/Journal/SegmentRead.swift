@testable import EdgeStore

/// Everything the reader finds in a segment file no writer holds, as the ingester reads it: the format from its
/// header (or learned from its frames), then every frame, the damage between them and how the segment ends.
struct SegmentRead {
    private(set) var format: JournalSegmentFormat?
    /// The click ids of the records decoded, in file order.
    private(set) var ids: [String] = []
    private(set) var damages: [JournalSegmentReader.Damage] = []
    private(set) var end: JournalSegmentReader.End?

    init(path: String) throws { try self.init(JournalSegmentReader(path: path)) }

    /// The same read of a segment's bytes held in memory.
    init(bytes: [UInt8]) throws { try self.init(JournalSegmentReader(bytes: bytes)) }

    private init(_ reader: JournalSegmentReader) throws {
        switch try reader.detectFormat().detection {
        case .format(let detected): format = detected
        case .unwritten, .newer: return
        case .damaged: format = try reader.learnFormat()
        }
        guard let format else { return }
        var offset: Int64 = 0
        var last: UInt32?
        var ids: [String] = []
        var damages: [JournalSegmentReader.Damage] = []
        while true {
            let outcome = try reader.read(
                from: offset, format: format, previousNumber: last, maximumFrames: 100, writerGone: true,
                frame: { kind, payload, after in
                    if kind == JournalFrame.Kind.click.rawValue, let click = JournalRecord.decode(payload) {
                        ids.append(click.id)
                    }
                    offset = after
                }, damage: { damages.append($0) })
            last = outcome.lastNumber
            if outcome.end != .limit {
                end = outcome.end
                break
            }
        }
        self.ids = ids
        self.damages = damages
    }
}
