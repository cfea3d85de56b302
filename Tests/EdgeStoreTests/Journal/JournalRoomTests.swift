import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// The journal's bound (`--journal-max-bytes`): writers refuse clicks once the unread bytes would pass it (never
/// dropping one silently: the flush says so), and take clicks again once the ingester has caught up.
@Suite struct JournalRoomTests {
    static let bound = 16 << 10

    @Test func writersRefuseAtTheBoundAndTakeClicksAgainOnceTheStoreCatchesUp() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory, maximumBytes: Self.bound)
        let writers = [journal.makeWriter(stream: 0), journal.makeWriter(stream: 1)]
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen())
        var written: [ClickRecord] = []
        var refused = 0
        var number = 0
        // No ingestion (a store that takes nothing): tap both loops until each refuses, refreshing the shares as
        // the ingester's thread does.
        while refused < 20 && number < 10_000 {
            let writer = writers[number % 2]
            let click = ClickJournalTests.click(number)
            ClickJournalTests.stage(click, to: writer)
            switch writer.flushOutcome() {
            case .written: written.append(click)
            case .journalFull: refused += 1
            case .writeFailed: Issue.record("a write failed")
            }
            number += 1
            if number % 7 == 0 { journal.room.refresh(measuringUnread: ingester.backlogBytes) }
        }
        #expect(refused == 20, "the bound refused taps: \(refused) refused after \(number)")
        #expect(written.count > 20, "clicks were taken up to the bound: \(written.count)")
        #expect(ingester.backlogBytes() <= Self.bound, "unread bytes \(ingester.backlogBytes()) within the bound")
        #expect(ingester.backlogBytes() > Self.bound / 2, "the bound was used: \(ingester.backlogBytes())")
        #expect(journal.room.refusedClicks == 20)
        journal.room.refresh(measuringUnread: ingester.backlogBytes)
        #expect(journal.room.isFull)
        let report = try #require(journal.room.takeReport())
        #expect(report.contains("journal full") && report.contains("refused 20 clicks"), "\(report)")
        #expect(journal.room.takeReport() == nil, "reported once, not again while nothing new is refused")

        // The store takes the clicks: the backlog drains, the shares come back, and taps are written again.
        try ingester.pass()
        journal.room.refresh(measuringUnread: ingester.backlogBytes)
        #expect(!journal.room.isFull)
        #expect(journal.room.takeReport()?.contains("room again") == true)
        for writer in writers {
            written.append(ClickJournalTests.append(number, to: writer))
            number += 1
        }
        for writer in writers { writer.close() }
        try ingester.drain()
        let stored = try ClickJournalTests.stored(fixture.store)
        #expect(stored.map(\.id) == written.map(\.id).sorted(), "every written click stored once, no refused one")
    }

    @Test func aNewWriterStartsWithNoMoreRoomThanTheJournalHas() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory, maximumBytes: Self.bound)
        let writer = journal.makeWriter(stream: 0)
        while writer.flushOutcome() != .journalFull {
            ClickJournalTests.stage(ClickJournalTests.click(Int.random(in: 0..<1_000_000)), to: writer)
        }
        writer.close()
        journal.release()  // the process ends
        // A restart finds the unread segment on disk: the new writer's share is what is left, not the whole bound.
        let restarted = try ClickJournal.reopened(dataDirectory: fixture.directory, maximumBytes: Self.bound)
        let next = restarted.makeWriter(stream: 0)
        ClickJournalTests.stage(ClickJournalTests.click(1), to: next)
        #expect(next.flushOutcome() == .journalFull)
        #expect(restarted.room.isFull)
    }
}
