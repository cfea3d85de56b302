import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// A loop's segment does not keep its clicks' addresses and User-Agents on disk once they are stored: the writer
/// seals it when it idles (or grows old) and the ingester deletes it. The times are given, not waited for: `now` is
/// what the loop would read from the monotonic clock.
@Suite struct IdleSegmentSealTests {
    static let start = 1000.0
    static let idle = JournalWriter.idleSealSeconds
    static let age = JournalWriter.ageSealSeconds

    @Test(arguments: StoreKind.allCases) func aSegmentSealedWhileIdleIsIngestedAndDeletedAndLaterTapsGoToANewOne(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer, ingester) = try fixture.openJournalAndIngester()
        var expected = (0..<10).map { ClickJournalTests.append($0, to: writer) }
        let first = journal.segmentNames()
        #expect(first.count == 1)

        #expect(!writer.sealIfDue(at: Self.start), "the loop has just written")
        #expect(!writer.sealIfDue(at: Self.start + Self.idle), "idle, but its clicks are not stored yet")
        try ingester.pass()
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        #expect(journal.segmentNames() == first, "a segment a writer holds stays after its clicks are stored")
        #expect(writer.sealIfDue(at: Self.start + Self.idle + 0.1), "stored and idle: sealed")
        #expect(!writer.sealIfDue(at: Self.start + Self.idle + 0.2), "nothing left to seal")
        #expect(journal.liveSegments().isEmpty)

        try ingester.pass()
        #expect(journal.segmentNames().isEmpty, "the sealed, stored segment is deleted")
        #expect(try ClickJournalTests.stored(fixture.store) == expected, "and nothing is stored twice")
        #expect(try fixture.store.journalOffset(segment: journal.checkpointKey(first[0])) == 0)

        // Taps after the seal open a new segment; every click is stored once.
        expected += (10..<20).map { ClickJournalTests.append($0, to: writer) }
        let second = journal.segmentNames()
        #expect(second.count == 1 && second != first, "\(second)")
        try ingester.pass()
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        #expect(ingester.ingestedCount == expected.count)
        writer.close()
        try ingester.drain()
        #expect(journal.segmentNames().isEmpty)
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
    }

    @Test func aSegmentTappedBeforeItIdlesLongEnoughIsKept() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let (journal, writer, ingester) = try fixture.openJournalAndIngester()
        var expected = [ClickJournalTests.append(0, to: writer)]
        #expect(!writer.sealIfDue(at: Self.start))
        try ingester.pass()
        // A tap just before the pause ends starts the pause again.
        expected.append(ClickJournalTests.append(1, to: writer))
        #expect(!writer.sealIfDue(at: Self.start + Self.idle - 0.1))
        try ingester.pass()
        #expect(!writer.sealIfDue(at: Self.start + Self.idle + 1), "the last tap was 1.1 s ago")
        #expect(writer.sealIfDue(at: Self.start + 2 * Self.idle))
        try ingester.pass()
        #expect(journal.segmentNames().isEmpty)
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
    }

    /// While the store takes nothing (an outage, or an ingester held back by load), sealing would only add files:
    /// the clicks must stay on disk anyway. One segment, however long the pause or old the segment.
    @Test func aSegmentWhoseClicksAreNotStoredIsNeverSealedAndNoFilesPileUp() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        var expected: [ClickRecord] = []
        var now = Self.start
        for number in 0..<50 {
            expected.append(ClickJournalTests.append(number, to: writer))
            #expect(!writer.sealIfDue(at: now))
            now += Self.idle * 2
            #expect(!writer.sealIfDue(at: now), "click \(number)")
        }
        #expect(now - Self.start > Self.age * 5)
        #expect(journal.segmentNames().count == 1)
        // The store comes back: everything is stored, the idle segment sealed, then deleted.
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen())
        try ingester.pass()
        #expect(writer.sealIfDue(at: now + 0.1))
        try ingester.pass()
        #expect(journal.segmentNames().isEmpty)
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
    }

    /// A loop tapped every few seconds never idles long enough: its segment is sealed once a minute old, as soon as
    /// the ingester stores its clicks, so its files never hold a click much more than a minute.
    @Test(arguments: StoreKind.allCases) func aSegmentThatNeverIdlesIsSealedOnceItIsOld(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer, ingester) = try fixture.openJournalAndIngester()
        var expected: [ClickRecord] = []
        var now = Self.start
        var seals: [Int] = []
        var sealedSegments: Set<String> = []
        let step = Self.idle - 1
        for number in 0..<40 {
            let names = journal.segmentNames()
            expected.append(ClickJournalTests.append(number, to: writer))
            #expect(journal.segmentNames().count <= names.count + 1)
            sealedSegments.formUnion(journal.liveSegments().keys)
            if writer.sealIfDue(at: now) { seals.append(number) }
            try ingester.pass()
            #expect(journal.segmentNames().count <= 1, "no more than the live segment stays: \(number)")
            now += step
        }
        // Sealed at the first check a minute after the segment's first click (clicks 4 s apart): clicks 15 and 31,
        // the second segment opening with click 16.
        let perSegment = Int((Self.age / step).rounded(.up))
        #expect(seals == [perSegment, 2 * perSegment + 1], "\(seals)")
        #expect(sealedSegments.count == 3)
        writer.close()
        try ingester.drain()
        #expect(journal.segmentNames().isEmpty)
        #expect(try ClickJournalTests.stored(fixture.store) == expected, "every click once")
    }

    /// A process killed after an idle seal and before the ingester deleted the segment: the next one ingests it from
    /// its checkpoint, stores none twice, and deletes it.
    @Test(arguments: StoreKind.allCases) func aKillAfterAnIdleSealStoresEveryClickOnce(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (first, writer, ingester) = try fixture.openJournalAndIngester()
        let expected = (0..<5).map { ClickJournalTests.append($0, to: writer) }
        #expect(!writer.sealIfDue(at: Self.start))
        try ingester.pass()
        #expect(writer.sealIfDue(at: Self.start + Self.idle))
        #expect(first.segmentNames().count == 1, "sealed, not yet deleted")
        first.release()  // the process dies

        let restarted = try ClickJournal.reopened(dataDirectory: fixture.directory)
        try ClickIngester(journal: restarted, store: try fixture.reopen()).pass()
        #expect(restarted.segmentNames().isEmpty)
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        withExtendedLifetime(writer) {}
    }
}
