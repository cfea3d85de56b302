import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Repeat taps through the journal and the ingester: a repeat frame counts as a click and not a unique click and
/// is not listed; the ingester's own table catches a visitor's taps on two loops; damage to a repeat frame costs
/// that frame only; the hourly counts commit with the clicks.
@Suite struct RepeatTapJournalTests {
    static let hour: Int64 = 3_600_000
    /// 2026-11-30T00:00:00Z.
    static let day: Int64 = 1_795_996_800_000

    /// A well-formed click id for a time and code reference 7 (`ClickJournalTests.target`'s).
    static func clickID(at milliseconds: Int64, random: UInt64) -> String {
        var raw = [UInt8](repeating: 0, count: ClickID.byteCount)
        raw.withUnsafeMutableBytes {
            ClickID.writeSignedBytes(
                timestampMilliseconds: UInt64(milliseconds), codeReference: 7, random: random, into: $0.baseAddress!)
        }
        var text = [UInt8](repeating: 0, count: ClickID.encodedLength)
        raw.withUnsafeBytes { raw in text.withUnsafeMutableBytes { ClickID.encode(raw, into: $0.baseAddress!) } }
        return String(decoding: text, as: UTF8.self)
    }

    static func tap(id: String, at time: Int64, ip: String = "192.0.2.1", userAgent: String = "agent") -> ClickRecord {
        ClickRecord(
            id: id, createdAt: time, organizationID: "org_acme", programID: "prg_acme", partnerID: "part_sam",
            code: "SAM20", platform: .ios, userAgent: userAgent, referer: "", ip: ip)
    }

    /// Stages and writes a tap, as the link path does (a repeat carries its first tap's id).
    static func write(_ tap: ClickRecord, isRepeat: Bool, to writer: JournalWriter) {
        Array(tap.id.utf8).withUnsafeBytes { id in
            Array(tap.userAgent.utf8).withUnsafeBytes { agent in
                Array(tap.ip.utf8).withUnsafeBytes { ip in
                    writer.append(
                        clickID: id.baseAddress!, createdAt: tap.createdAt, platform: tap.platform,
                        target: ClickJournalTests.target, userAgent: agent,
                        referer: UnsafeRawBufferPointer(start: nil, count: 0), ip: ip, isRepeat: isRepeat)
                }
            }
        }
        precondition(writer.flush(), "the journal refused a tap")
    }

    /// `org_acme`'s counts per UTC day and partner.
    static func counts(_ store: any Store, partnerID: String? = nil) throws -> [DailyClickCount] {
        try store.clickCounts(
            ClickCountQuery(organizationID: "org_acme", partnerID: partnerID, from: 0, to: .max / 2))
    }

    @Test(arguments: StoreKind.allCases) func aRepeatFrameCountsAsAClickButNeitherAsAUniqueClickNorAListedOne(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        let first = Self.tap(id: Self.clickID(at: Self.day + 1000, random: 1), at: Self.day + 1000)
        Self.write(first, isRepeat: false, to: writer)
        Self.write(Self.tap(id: first.id, at: Self.day + 60_000), isRepeat: true, to: writer)
        Self.write(Self.tap(id: first.id, at: Self.day + 120_000), isRepeat: true, to: writer)
        writer.close()
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen(), repeatWindow: Self.hour)
        try ingester.drain()
        #expect(try fixture.store.allClicks() == [first])
        let day = Self.day / 86_400_000
        #expect(
            try Self.counts(fixture.store) == [
                DailyClickCount(day: day, partnerID: "part_sam", clicks: 3, uniqueClicks: 1)
            ])
        #expect(ingester.ingestedCount == 3)
    }

    @Test(arguments: StoreKind.allCases) func aRepeatWhoseFirstTapWasNeverJournaledIsStoredAsThatClick(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        // The first tap's request went away before its answer: only its repeats reach the journal.
        let firstID = Self.clickID(at: Self.day, random: 2)
        let repeats = [Self.tap(id: firstID, at: Self.day + 5_000), Self.tap(id: firstID, at: Self.day + 9_000)]
        for tap in repeats { Self.write(tap, isRepeat: true, to: writer) }
        writer.close()
        // Off in the ingester too (window 0): the store alone makes the first repeat the click.
        try ClickIngester(journal: journal, store: try fixture.reopen()).drain()
        #expect(try fixture.store.allClicks() == [repeats[0]])
        #expect(try Self.counts(fixture.store).map { [$0.clicks, $0.uniqueClicks] } == [[2, 1]])
    }

    @Test(arguments: StoreKind.allCases) func theIngesterCountsAVisitorsTapsOnTwoLoopsOnceAsUniqueEitherWayRound(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let loops = [journal.makeWriter(stream: 0), journal.makeWriter(stream: 1)]
        // Loop 1 writes the later tap first; loop 0 the earlier one; a third tap two hours on is a new click; another
        // User-Agent is another visitor.
        let later = Self.tap(id: Self.clickID(at: Self.day + 50_000, random: 3), at: Self.day + 50_000)
        let earlier = Self.tap(id: Self.clickID(at: Self.day + 10_000, random: 4), at: Self.day + 10_000)
        let outside = Self.tap(id: Self.clickID(at: Self.day + 2 * Self.hour, random: 5), at: Self.day + 2 * Self.hour)
        let other = Self.tap(
            id: Self.clickID(at: Self.day + 20_000, random: 6), at: Self.day + 20_000, userAgent: "another agent")
        Self.write(later, isRepeat: false, to: loops[1])
        Self.write(earlier, isRepeat: false, to: loops[0])
        Self.write(outside, isRepeat: false, to: loops[0])
        Self.write(other, isRepeat: false, to: loops[1])
        for loop in loops { loop.close() }
        try ClickIngester(journal: journal, store: try fixture.reopen(), repeatWindow: Self.hour).drain()
        let stored = try fixture.store.allClicks()
        #expect(stored.count == 3, "\(stored.map(\.id))")
        #expect(stored.contains(outside) && stored.contains(other))
        #expect(stored.contains(later) != stored.contains(earlier), "one of the two taps within the hour is listed")
        #expect(try Self.counts(fixture.store).map { [$0.clicks, $0.uniqueClicks] } == [[4, 3]])
    }

    @Test(arguments: StoreKind.allCases) func withoutAWindowTheIngesterCountsEveryClickAsUnique(kind: StoreKind) throws
    {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        let taps = (0..<3).map {
            Self.tap(id: Self.clickID(at: Self.day + Int64($0), random: UInt64($0)), at: Self.day + Int64($0))
        }
        for tap in taps { Self.write(tap, isRepeat: false, to: writer) }
        writer.close()
        try ClickIngester(journal: journal, store: try fixture.reopen()).drain()
        #expect(try fixture.store.allClicks().count == 3)
        #expect(try Self.counts(fixture.store).map { [$0.clicks, $0.uniqueClicks] } == [[3, 3]])
    }

    @Test(arguments: StoreKind.allCases) func aDamagedRepeatFrameCostsThatRepeatAndNothingElse(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        let first = Self.tap(id: Self.clickID(at: Self.day, random: 7), at: Self.day)
        Self.write(first, isRepeat: false, to: writer)
        for number in 1...5 {
            Self.write(
                Self.tap(id: first.id, at: Self.day + Int64(number) * 1000, userAgent: "agent"), isRepeat: true,
                to: writer)
        }
        let last = Self.tap(id: Self.clickID(at: Self.day + 9000, random: 8), at: Self.day + 9000, ip: "192.0.2.9")
        Self.write(last, isRepeat: false, to: writer)
        writer.close()
        let path = journal.directory + "/" + journal.segmentNames().last!
        // The third repeat's frame: the fourth occurrence of the first tap's id.
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let needle = Array(first.id.utf8)
        let places = (0...(bytes.count - needle.count)).filter { Array(bytes[$0..<$0 + needle.count]) == needle }
        #expect(places.count == 6)
        try JournalDamageTests.damage(path, at: places[3] + 10)

        let log = LogLines()
        let ingester = ClickIngester(
            journal: journal, store: try fixture.reopen(), repeatWindow: Self.hour, log: log.append)
        try ingester.drain()
        #expect(try fixture.store.allClicks().sorted { $0.id < $1.id } == [first, last].sorted { $0.id < $1.id })
        #expect(try Self.counts(fixture.store).map { [$0.clicks, $0.uniqueClicks] } == [[6, 2]], "one repeat lost")
        #expect(ingester.damagedCount == 1)
        #expect(log.lines.count == 1 && log.lines[0].contains("lost 1 record;"), "\(log.lines)")
    }

    @Test(arguments: StoreKind.allCases) func aSegmentWithRepeatFramesAndADamagedHeaderIsReadInTheFormatItsFramesShare(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        let first = Self.tap(id: Self.clickID(at: Self.day, random: 9), at: Self.day)
        Self.write(first, isRepeat: false, to: writer)
        for number in 1...3 {
            Self.write(Self.tap(id: first.id, at: Self.day + Int64(number)), isRepeat: true, to: writer)
        }
        writer.close()
        let path = journal.directory + "/" + journal.segmentNames().last!
        try JournalDamageTests.damage(path, at: 9)
        try ClickIngester(journal: journal, store: try fixture.reopen(), repeatWindow: Self.hour).drain()
        #expect(try fixture.store.allClicks() == [first])
        #expect(try Self.counts(fixture.store).map { [$0.clicks, $0.uniqueClicks] } == [[4, 1]])
    }

    @Test(arguments: StoreKind.allCases) func aFailedBatchCountsNothingAndItsRetryCountsOnce(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        let first = Self.tap(id: Self.clickID(at: Self.day, random: 10), at: Self.day)
        Self.write(first, isRepeat: false, to: writer)
        Self.write(Self.tap(id: first.id, at: Self.day + 1), isRepeat: true, to: writer)
        writer.close()
        let flaky = FlakyStore(try fixture.reopen(), failingIngestCall: 1)
        let ingester = ClickIngester(journal: journal, store: flaky, repeatWindow: Self.hour)
        #expect(throws: StoreError.self) { try ingester.pass() }
        #expect(try Self.counts(fixture.store).isEmpty, "the failed transaction counted nothing")
        try ingester.drain()
        #expect(try fixture.store.allClicks() == [first])
        #expect(try Self.counts(fixture.store).map { [$0.clicks, $0.uniqueClicks] } == [[2, 1]])
    }
}

/// The hourly counts in the store: the hours they sum, offsets, the partner filter, and the migration's backfill.
@Suite struct ClickCountsStoreTests {
    @Test(arguments: StoreKind.allCases) func countsSumHoursIntoDaysOfTheGivenOffset(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let day = RepeatTapJournalTests.day
        let hour = RepeatTapJournalTests.hour
        // 07:30Z and 08:30Z: two hours of one UTC day, two days at -8 h.
        var taps = [
            RepeatTapJournalTests.tap(id: "clk_a", at: day + 7 * hour + hour / 2),
            RepeatTapJournalTests.tap(id: "clk_b", at: day + 8 * hour + hour / 2),
        ]
        var lee = RepeatTapJournalTests.tap(id: "clk_c", at: day + 8 * hour + hour / 2)
        lee.partnerID = "part_lee"
        taps.append(lee)
        try fixture.store.ingest(taps, checkpoint: JournalCheckpoint(segment: "test/a", offset: 1))
        let utcDay = day / 86_400_000
        let utc = try fixture.store.clickCounts(
            ClickCountQuery(organizationID: "org_acme", from: day, to: day + 24 * hour))
        #expect(
            utc == [
                DailyClickCount(day: utcDay, partnerID: "part_lee", clicks: 1, uniqueClicks: 1),
                DailyClickCount(day: utcDay, partnerID: "part_sam", clicks: 2, uniqueClicks: 2),
            ])
        let pacific = try fixture.store.clickCounts(
            ClickCountQuery(
                organizationID: "org_acme", partnerID: "part_sam", from: day, to: day + 24 * hour,
                offsetMilliseconds: -8 * hour))
        #expect(
            pacific == [
                DailyClickCount(day: utcDay - 1, partnerID: "part_sam", clicks: 1, uniqueClicks: 1),
                DailyClickCount(day: utcDay, partnerID: "part_sam", clicks: 1, uniqueClicks: 1),
            ])
        #expect(
            try fixture.store.clickCounts(ClickCountQuery(organizationID: "org_other", from: 0, to: .max / 2)).isEmpty)
        let narrow = try fixture.store.clickCounts(
            ClickCountQuery(organizationID: "org_acme", from: day + 8 * hour, to: day + 9 * hour))
        #expect(narrow.map(\.clicks) == [1, 1], "only the hour starting at 08:00Z")
    }

    @Test func theMigrationFillsTheCountsFromTheClicksAlreadyStored() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let day = RepeatTapJournalTests.day
        let hour = RepeatTapJournalTests.hour
        let taps = (0..<5).map { RepeatTapJournalTests.tap(id: "clk_\($0)", at: day + Int64($0) * hour / 2) }
        try fixture.store.ingest(taps, checkpoint: JournalCheckpoint(segment: "test/a", offset: 1))
        // As a store of the build before the counts: none of step 7's tables, nothing of the steps after it (step 8:
        // the organizations' time zone; step 9: the summaries' table and indexes; step 10: the attribution's columns
        // and table; step 11: the index of tied ids by customer; step 12: the programs' apps; step 13: payouts, the
        // commissions' two columns and their indexes, the indexes first, as SQLite drops no indexed column; step 14:
        // the configuration's two indexes), version 6 (dropping click_counts drops its index).
        try fixture.sqliteStore.withConnection { db in
            try db.execute(
                """
                DROP TABLE click_counts; DROP TABLE organization_click_counts; DROP INDEX customers_by_status;
                DROP INDEX commissions_by_partner_status; DROP INDEX customers_by_organization;
                ALTER TABLE organizations DROP COLUMN timezone; DROP TABLE unattributed_user_ids;
                ALTER TABLE customer_aliases DROP COLUMN changed_at; ALTER TABLE webhook_events DROP COLUMN attributed_at;
                ALTER TABLE transactions DROP COLUMN price_unknown; DROP INDEX customer_aliases_by_customer;
                ALTER TABLE programs DROP COLUMN ios_app_ids; ALTER TABLE programs DROP COLUMN android_apps;
                DROP TABLE payouts; DROP INDEX commissions_payable; DROP INDEX commissions_to_net;
                DROP INDEX commissions_by_created; ALTER TABLE commissions DROP COLUMN payout_id;
                ALTER TABLE commissions DROP COLUMN reversal_payout_id; DROP INDEX programs_by_organization;
                DROP INDEX partners_by_program;
                PRAGMA user_version = 6
                """)
        }
        try fixture.store.migrate()
        let counts = try fixture.store.clickCounts(
            ClickCountQuery(organizationID: "org_acme", from: day, to: day + 3 * hour))
        #expect(counts.map { [$0.clicks, $0.uniqueClicks] } == [[5, 5]])
        let hourly = try fixture.sqliteStore.withConnection { db in
            try db.rows("SELECT hour_start, clicks FROM click_counts ORDER BY hour_start") { [$0.int(0), $0.int(1)] }
        }
        #expect(hourly == [[day, 2], [day + hour, 2], [day + 2 * hour, 1]])
    }
}
