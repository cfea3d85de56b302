import Foundation
import TestSupport
import Testing

@testable import EdgeStore

/// The journal's decoder against a million seeded corruptions of a real segment, read from memory as the ingester
/// reads a file: every answered click whose bytes the damage did not touch comes back, in order, and nothing else
/// does; nothing crashes or hangs. (`JournalDamageTests` runs the same damage through files.)
@Suite struct JournalDecoderFuzzTests {
    @Test func aMillionDamagedSegmentsLoseOnlyTheDamagedRecords() async throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        // Few records, of different sizes, so that a million cases fit in CI time: long and short User-Agents,
        // with and without a referer, and IPv4 and IPv6 addresses. A fixed marker, so that a failing case replays.
        let writer = journal.makeWriter(stream: 0, marker: 0x5EED_F022)
        let clicks = (0..<8).map { number in
            ClickJournalTests.append(
                number, to: writer, userAgent: String(repeating: "u", count: (number * 37) % 120),
                referer: number % 3 == 0 ? String(repeating: "r", count: 40 + number * 9) : nil)
        }
        writer.close()
        let path = journal.directory + "/" + journal.segmentNames().last!
        let original = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let layout = try SegmentLayout(path: path)
        #expect(layout.frames.count == clicks.count + 1, "the clicks and the seal")
        #expect(try SegmentRead(bytes: original).ids == clicks.map(\.id), "the undamaged segment reads whole")

        var generator = SeededGenerator(seed: 0x7015_F022)
        let cases = SeededGenerator.cases(1_000_000)
        var lossy = 0
        for index in 0..<cases {
            // A long loop on the cooperative pool would starve the async tests running beside it.
            if index % 4096 == 0 { await Task.yield() }
            var file = DamagedFile(original)
            for _ in 0..<Int.random(in: 1...3, using: &generator) { file.damage(using: &generator) }
            if Int.random(in: 0..<8, using: &generator) == 0 { file.cut(using: &generator) }
            let read = try SegmentRead(bytes: file.bytes)
            let lost = file.losses(layout.frames)
            let kept = clicks.indices.filter { !lost[$0] }
            guard read.ids.elementsEqual(kept.lazy.map { clicks[$0].id }) else {
                Issue.record("case \(index): read \(read.ids.count) records, expected \(kept); \(file.log)")
                return
            }
            if kept.count < clicks.count { lossy += 1 }
        }
        #expect(lossy > cases / 2, "most cases lose a record: \(lossy) of \(cases)")
    }
}
