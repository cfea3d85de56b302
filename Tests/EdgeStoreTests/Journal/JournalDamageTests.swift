import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Damaged segments: a damaged record costs that record and no other, the ingester says where it was and reads on
/// from the next valid record, and a torn tail, a clean end and damage are told apart.
@Suite struct JournalDamageTests {
    /// Writes clicks `numbers` with one writer, one flush each, and seals the segment; returns its path.
    static func writeSegment(_ numbers: Range<Int>, in journal: ClickJournal, marker: UInt32? = nil) -> String {
        let writer =
            marker.map { journal.makeWriter(stream: 0, marker: $0) } ?? journal.makeWriter(stream: 0)
        for number in numbers { ClickJournalTests.append(number, to: writer) }
        writer.close()
        return journal.directory + "/" + journal.segmentNames().last!
    }

    /// Where `text` first occurs in the file at `path`.
    static func offset(of text: String, in path: String) throws -> Int {
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let needle = Array(text.utf8)
        let found = (0...(bytes.count - needle.count)).first { Array(bytes[$0..<$0 + needle.count]) == needle }
        return try #require(found, "\(text) is not in \(path)")
    }

    /// Flips one bit of the byte at `offset` of the file at `path`, as a failing disk would.
    static func damage(_ path: String, at offset: Int) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: [byte ^ 0x10])
    }

    @Test func aCorruptByteInTheMiddleOfASegmentLosesThatRecordAndNoOther() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let path = Self.writeSegment(0..<400, in: journal)
        let name = String(path.split(separator: "/").last!)
        let damaged = ClickJournalTests.click(200)
        let at = try Self.offset(of: damaged.id, in: path) + 30
        try Self.damage(path, at: at)

        let log = LogLines()
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen(), log: log.append)
        try ingester.drain()
        let expected = (0..<400).filter { $0 != 200 }.map { ClickJournalTests.click($0) }
        #expect(try ClickJournalTests.stored(fixture.store) == expected, "every record but the damaged one")
        #expect(journal.segmentNames().isEmpty, "the segment is deleted once consumed")
        let lines = log.lines
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.contains("damaged bytes in \(name) at byte "), "\(line)")
        #expect(line.contains("lost 1 record;"), "\(line)")
        #expect(!line.contains("never answered"), "\(line)")
        // The damaged place starts at the damaged frame, at most a frame before the damaged byte.
        let after = try #require(line.components(separatedBy: " at byte ").dropFirst().first, "\(line)")
        let reported = try #require(Int(after.prefix { $0.isNumber }))
        #expect(reported <= at && at - reported < 400, "reported \(reported), damaged \(at)")
        #expect(ingester.damagedCount == 1 && ingester.tornTailCount == 0)
    }

    /// Each byte of one frame damaged alone, header and payload: that frame is lost and its neighbours are read,
    /// the reader names one frame lost; damage to its padding, which nothing reads, loses nothing.
    @Test func everyByteOfAFrameDamagedAloneLosesThatFrameOnly() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let path = Self.writeSegment(0..<3, in: journal)
        let original = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let frames = try SegmentLayout(path: path)
        let middle = frames.frames[1]
        let copy = fixture.directory + "/damaged.journal"
        for offset in middle.start..<middle.end {
            var bytes = original
            bytes[offset] ^= 0x01
            #expect(FileManager.default.createFile(atPath: copy, contents: Data(bytes)))
            let read = try SegmentRead(path: copy)
            if offset < middle.checkedEnd {
                #expect(read.ids == [0, 2].map { ClickJournalTests.click($0).id }, "byte \(offset)")
                #expect(read.damages.count == 1 && read.damages.first?.lostFrames == 1, "byte \(offset)")
            } else {
                #expect(read.ids.count == 3 && read.damages.isEmpty, "padding byte \(offset)")
            }
            #expect(read.end == .sealed, "byte \(offset)")
        }
    }

    /// Seeded random damage of every kind a file can suffer (bit flips, overwritten bytes and runs, zeroed runs,
    /// bytes inserted or lost, a cut), several at a time: every record whose bytes were not touched comes back, in
    /// order, and nothing else does.
    @Test func randomDamageLosesOnlyTheDamagedRecords() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        // Records of many sizes: long and short User-Agents and referers.
        let writer = journal.makeWriter(stream: 0)
        let clicks = (0..<24).map { number in
            ClickJournalTests.append(
                number, to: writer, userAgent: String(repeating: "u", count: (number * 37) % 300),
                referer: number % 5 == 0 ? String(repeating: "r", count: (number * 53) % 1100) : nil)
        }
        writer.close()
        let path = journal.directory + "/" + journal.segmentNames().last!
        let original = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let layout = try SegmentLayout(path: path)
        #expect(layout.frames.count == clicks.count + 1, "the clicks and the seal")
        var generator = SeededGenerator(seed: 0x7015_0013)
        let copy = fixture.directory + "/damaged.journal"
        let descriptor = open(copy, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var damagedCases = 0
        for index in 0..<3000 {
            var file = DamagedFile(original)
            for _ in 0..<Int.random(in: 1...3, using: &generator) { file.damage(using: &generator) }
            if Int.random(in: 0..<8, using: &generator) == 0 { file.cut(using: &generator) }
            let written = file.bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            #expect(written == file.bytes.count && ftruncate(descriptor, off_t(written)) == 0)
            let read = try SegmentRead(path: copy)
            let lost = file.losses(layout.frames)
            let expected = clicks.indices.filter { !lost[$0] }.map { clicks[$0].id }
            #expect(read.ids == expected, "case \(index): \(file.log)")
            if read.ids != expected { return }
            if expected.count < clicks.count { damagedCases += 1 }
        }
        #expect(damagedCases > 1500, "most cases lose a record: \(damagedCases)")
    }

    /// A corrupt record at the end of a segment its writer still holds may be a write in progress: the ingester
    /// waits. Once the writer writes the next record, the damaged one is skipped and the next one ingested.
    @Test func aCorruptRecordInALiveSegmentIsSkippedOnceTheNextOneIsWritten() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        var expected = (0..<10).map { ClickJournalTests.append($0, to: writer) }
        let path = journal.directory + "/" + journal.segmentNames().last!
        try Self.damage(path, at: try Self.offset(of: expected[9].id, in: path) + 40)
        expected.removeLast()
        let log = LogLines()
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen(), log: log.append)
        try ingester.pass()
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        #expect(log.lines.isEmpty, "nothing is said about a live segment's last bytes: \(log.lines)")

        expected.append(ClickJournalTests.append(10, to: writer))
        try ingester.pass()
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        #expect(log.lines.count == 1 && log.lines[0].contains("lost 1 record;"), "\(log.lines)")
        writer.close()
        try ingester.drain()
        #expect(journal.segmentNames().isEmpty)
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
    }

    /// A damaged segment header: the format and marker are learned from the records, and none is lost.
    @Test func aDamagedSegmentHeaderCostsNoRecord() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let path = Self.writeSegment(0..<50, in: journal)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.write(contentsOf: [UInt8](repeating: 0, count: JournalFrame.segmentHeaderSize))
        try handle.close()
        let log = LogLines()
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen(), log: log.append)
        try ingester.drain()
        #expect(try ClickJournalTests.stored(fixture.store) == (0..<50).map { ClickJournalTests.click($0) })
        #expect(log.lines.count == 1 && log.lines[0].contains("header of"), "\(log.lines)")
    }

    /// A client who puts whole frames in its User-Agent (here with a marker of its own, as it cannot know the
    /// writer's) gains no click when the reader searches through that record: not when the record's header is
    /// damaged, and not when the segment header is damaged too and the marker must be learned from the frames,
    /// although the planted frames outnumber the real ones.
    @Test func framesPlantedInAUserAgentAreNeverTaken() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let planted = Self.plantedFrames(count: 4, marker: 0x0BAD_F00D)
        #expect(planted.count <= ClickRecord.maximumUserAgentLength)
        let writer = journal.makeWriter(stream: 0)
        var expected: [ClickRecord] = []
        for number in 0..<20 {
            var click = ClickJournalTests.click(number)
            click.userAgent = String(decoding: planted, as: UTF8.self)
            planted.withUnsafeBytes { agent in
                Array(click.id.utf8).withUnsafeBytes { id in
                    Array(click.referer.utf8).withUnsafeBytes { referer in
                        Array(click.ip.utf8).withUnsafeBytes { ip in
                            writer.append(
                                clickID: id.baseAddress!, createdAt: click.createdAt, platform: click.platform,
                                target: ClickJournalTests.target, userAgent: agent, referer: referer, ip: ip)
                        }
                    }
                }
            }
            #expect(writer.flush())
            expected.append(click)
        }
        writer.close()
        let path = journal.directory + "/" + journal.segmentNames().last!
        let layout = try SegmentLayout(path: path)
        // Damage the header of the fifth record, so the reader searches through its User-Agent.
        try Self.damage(path, at: layout.frames[5].start + 1)
        expected.remove(at: 5)
        var read = try SegmentRead(path: path)
        #expect(read.ids == expected.map(\.id))
        // And the segment header.
        try Self.damage(path, at: 2)
        read = try SegmentRead(path: path)
        #expect(read.ids == expected.map(\.id))
        #expect(read.format == .version2(marker: layout.marker), "the marker is learned from the real frames")
    }

    /// `count` version 2 frames of a click with empty fields, one after another, under `marker`.
    static func plantedFrames(count: Int, marker: UInt32) -> [UInt8] {
        let target = JournalRecordTests.target(organization: "org_x", program: "prg_x", partner: "part_x", code: "X")
        let id = Array(("clk_" + String(repeating: "9", count: 40)).utf8)
        var bytes: [UInt8] = []
        for number in 0..<count {
            let empty = UnsafeRawBufferPointer(start: nil, count: 0)
            id.withUnsafeBytes { id in
                let record = JournalRecord(
                    clickID: id.baseAddress!, createdAt: 1, platform: .ios, target: target, userAgent: empty,
                    referer: empty, ip: empty)
                var frame = [UInt8](repeating: 0, count: JournalFrame.size(payloadLength: record.size))
                frame.withUnsafeMutableBytes { frame in
                    record.encode(into: UnsafeMutableRawBufferPointer(rebasing: frame[JournalFrame.headerSize...]))
                    JournalFrame.finish(
                        frame.baseAddress!, payloadLength: record.size, kind: .click, marker: marker,
                        number: UInt32(number))
                }
                bytes += frame
            }
        }
        return bytes
    }

    /// The segments an earlier build wrote (format version 1, `Tests/Fixtures/journal/`): one sealed, one left by
    /// a crash in the middle of a write. Both are ingested after the upgrade, the torn tail dropped and said so.
    @Test func segmentsOfTheEarlierFormatAreIngestedAfterAnUpgrade() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        for (fixtureName, name) in [
            ("version1-sealed.journal", "1767225600000-100-00000001-0.journal"),
            ("version1-crashed.journal", "1767225600000-100-00000002-1.journal"),
        ] {
            try FileManager.default.copyItem(
                atPath: try TestFiles.fixture("journal/" + fixtureName), toPath: journal.directory + "/" + name)
        }
        let log = LogLines()
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen(), log: log.append)
        try ingester.drain()
        // The sealed segment holds clicks 0–119; the crashed one 120–159 whole, and half of 160.
        #expect(try ClickJournalTests.stored(fixture.store) == (0..<160).map { ClickJournalTests.click($0) })
        #expect(journal.segmentNames().isEmpty)
        #expect(log.lines.count == 1, "\(log.lines)")
        #expect(
            log.lines.first?.contains("00000002-1.journal ends in a torn record at byte 5904") == true, "\(log.lines)")
        #expect(ingester.tornTailCount == 1 && ingester.damagedCount == 0)
    }

    /// The version and flag bytes (5–7) of later formats' headers, and how the log names each.
    static let laterHeaders: [(version: UInt8, flags: [UInt8], named: String)] = [
        (3, [0, 0, 0], "journal format 3"), (3, [1, 0, 0], "journal format 3"),
        (2, [0, 1, 0], "journal format 2 with header flags 0x000100"),
        (2, [0x80, 0, 0xff], "journal format 2 with header flags 0x8000ff"),
    ]

    /// A rollback: a segment a newer build wrote in a later format (its header whole and checked, its version above
    /// this build's, or this version with the header's flag bytes 5–7 set, which this build keeps zero) is that
    /// build's to store. This one leaves it, byte for byte, and says so once, where reading it as a damaged header
    /// would store what it makes of the frames and delete the file. A header with flags set, of this version or a
    /// later one, was read as damaged.
    @Test(arguments: laterHeaders)
    func aSegmentOfALaterFormatIsKeptForTheBuildThatWroteIt(version: UInt8, flags: [UInt8], named: String) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        defer { journal.release() }
        let directory = try TestFiles.fixture("upgrade/2026-12-01-bafc58c/journal")
        let original = try #require(try FileManager.default.contentsOfDirectory(atPath: directory).first)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + original)))
        #expect(bytes[4] == JournalFrame.formatVersion && bytes[5..<8] == [0, 0, 0], "a header of this build's")
        bytes[4] = version
        bytes.replaceSubrange(5..<8, with: flags)
        let check = bytes[0..<12].withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: check.littleEndian) { bytes.replaceSubrange(12..<16, with: $0) }
        let name = "1767225600000-100-00000001-0.journal"
        let path = journal.directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let log = LogLines()
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen(), log: log.append)

        try ingester.drain()
        try ingester.drain()
        #expect(try ClickJournalTests.stored(fixture.store).isEmpty)
        #expect(journal.segmentNames() == [name])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
        #expect(log.lines.count == 1, "\(log.lines)")
        #expect(
            log.lines.first?.contains("\(name) is in \(named), newer than this build reads (2): kept") == true,
            "\(log.lines)")
        #expect(ingester.damagedCount == 0 && ingester.tornTailCount == 0)
        // Not this build's backlog: the journal's room stays free for taps (the reviewer's 8 MiB kept file under a
        // 4 MiB bound refused every tap).
        #expect(ingester.backlogBytes() == 0)
    }
}
