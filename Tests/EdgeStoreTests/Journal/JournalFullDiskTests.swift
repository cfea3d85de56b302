import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// A journal on a volume that is really full (a small tmpfs): writes fail with `ENOSPC`, the clicks are refused,
/// and the writer neither leaves a file per failed write nor tries more than about once a second; when there is
/// room again it writes again, and the store gets exactly the clicks that were written.
@Suite struct JournalFullDiskTests {
    static let mountingNeeded: Comment =
        "mounting a tmpfs needs root (CAP_SYS_ADMIN): run the tests as root, as CI does"

    /// Taps for `seconds`, one write each as a loop iteration would do it, a millisecond apart: the clicks answered
    /// and refused, and the most segment files the journal directory held after any write.
    static func tap(
        _ writer: JournalWriter, _ journal: ClickJournal, from first: Int, for seconds: Double
    ) -> (answered: [ClickRecord], refused: Int, mostFiles: Int) {
        var answered: [ClickRecord] = []
        var refused = 0
        var mostFiles = 0
        var number = first
        let start = TestClock.now()
        while TestClock.now() - start < seconds {
            let click = ClickJournalTests.click(number)
            ClickJournalTests.stage(click, to: writer)
            if writer.flush() { answered.append(click) } else { refused += 1 }
            number += 1
            mostFiles = max(mostFiles, journal.segmentNames().count)
            usleep(1000)
        }
        return (answered, refused, mostFiles)
    }

    /// The number of failed attempts in a ``ClickJournal/takeFailures()`` line.
    static func attempts(in line: String) -> Int? {
        guard let range = line.range(of: " failed attempt") else { return nil }
        return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
    }

    @Test(.enabled(if: SmallVolume.isMountable, mountingNeeded))
    func aFullDiskLeavesNoSegmentPerFailedWriteAndRetriesAboutOnceASecond() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let volume = try SmallVolume(bytes: 256 << 10)
        defer { volume.remove() }
        let journal = try ClickJournal(dataDirectory: volume.path)
        let writer = journal.makeWriter(stream: 0)
        var answered = (0..<20).map { ClickJournalTests.append($0, to: writer) }
        #expect(journal.segmentNames().count == 1)

        // The disk fills up. The segment's last page takes a few more clicks; then every write fails.
        try volume.fill()
        var number = 20
        while true {
            let click = ClickJournalTests.click(number)
            ClickJournalTests.stage(click, to: writer)
            number += 1
            guard writer.flush() else { break }
            answered.append(click)
            try #require(number < 200, "the full volume took every click")
        }
        _ = journal.takeFailures()
        let full = Self.tap(writer, journal, from: number, for: 2.5)
        #expect(full.answered.isEmpty, "nothing can be written")
        #expect(full.refused > 500, "taps went on: \(full.refused)")
        #expect(full.mostFiles == 1, "only the segment written before the disk filled up: \(journal.segmentNames())")
        let report = journal.takeFailures()
        #expect(report.count == 1, "\(report)")
        let line = try #require(report.first)
        #expect(line.contains("could not journal \(full.refused) clicks"), "\(line)")
        #expect(line.contains("No space left on device"), "\(line)")
        let attempts = try #require(Self.attempts(in: line), "\(line)")
        #expect(attempts >= 2 && attempts <= 4, "one attempt a second at most: \(line)")
        number += full.refused

        // Room again: within a retry interval the writer writes, and goes on.
        volume.free()
        let recovered = Self.tap(writer, journal, from: number, for: 1.5)
        #expect(recovered.answered.count > 100, "\(recovered.answered.count) answered, \(recovered.refused) refused")
        answered += recovered.answered
        writer.close()

        let log = LogLines()
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen(), log: log.append)
        try ingester.drain()
        #expect(try ClickJournalTests.stored(fixture.store) == answered, "exactly the clicks that were written")
        #expect(journal.segmentNames().isEmpty)
        #expect(log.lines.isEmpty, "every segment ends cleanly: \(log.lines)")
    }

    /// The disk is full before the first click: no segment can even be created, and none is left behind.
    @Test(.enabled(if: SmallVolume.isMountable, mountingNeeded))
    func aDiskFullFromTheStartLeavesNoFileAtAll() throws {
        let volume = try SmallVolume(bytes: 128 << 10)
        defer { volume.remove() }
        let journal = try ClickJournal(dataDirectory: volume.path)
        let writer = journal.makeWriter(stream: 0)
        try volume.fill()
        let full = Self.tap(writer, journal, from: 0, for: 1.5)
        #expect(full.answered.isEmpty && full.refused > 300)
        #expect(full.mostFiles == 0, "\(journal.segmentNames())")
        let line = try #require(journal.takeFailures().first)
        #expect(line.contains("could not journal \(full.refused) clicks"), "\(line)")
        let attempts = try #require(Self.attempts(in: line), "\(line)")
        #expect(attempts >= 1 && attempts <= 3, "\(line)")
        writer.close()
        #expect(journal.segmentNames().isEmpty)
    }
}
