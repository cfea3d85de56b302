import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Step 6 (`clicks.country`) and deleting old clicks in batches.
@Suite struct ClickCountryStoreTests {
    /// 2026-01-01T00:00:00Z.
    static let start: Int64 = 1_767_225_600_000

    /// A click with a real id for `time` (its first bytes are the time, as the link path mints them).
    static func click(at time: Int64, country: String? = nil) -> ClickRecord {
        var raw = [UInt8](repeating: 0, count: ClickID.byteCount)
        raw.withUnsafeMutableBytes {
            ClickID.writeSignedBytes(
                timestampMilliseconds: UInt64(time), codeReference: 1, random: UInt64.random(in: 0...UInt64.max),
                into: $0.baseAddress!)
        }
        var text = [UInt8](repeating: 0, count: ClickID.encodedLength)
        raw.withUnsafeBytes { raw in text.withUnsafeMutableBytes { ClickID.encode(raw, into: $0.baseAddress!) } }
        return ClickRecord(
            id: String(decoding: text, as: UTF8.self), createdAt: time, organizationID: "org_acme",
            programID: "prg_acme", partnerID: "part_sam", code: "SAM20", platform: .ios, userAgent: "ua", referer: "",
            ip: "2.125.160.0", country: country)
    }

    @Test func aStoreOfStepFourGainsANullCountryAndKeepsItsClicks() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let old = try SQLiteStore(path: fixture.directory + "/old.sqlite")
        var stored = Self.click(at: Self.start)
        try old.migrate(throughStep: 4)
        try old.withConnection { db in
            try db.query(
                """
                INSERT INTO clicks (id, created_at, organization_id, program_id, partner_id, code, platform,
                    user_agent, referer, ip) VALUES (?, ?, 'org_acme', 'prg_acme', 'part_sam', 'SAM20', 'ios', 'ua', '',
                    '2.125.160.0')
                """, [.text(stored.id), .integer(stored.createdAt)])
        }
        try old.migrate()
        // Through step 7 (click counts), which counts the old click, and the steps after it.
        #expect(try SQLiteMigrationsTests.version(old) == SQLiteMigrations.steps.count)
        let counts = try old.clickCounts(ClickCountQuery(organizationID: "org_acme", from: 0, to: .max / 2))
        #expect(counts.map { [$0.clicks, $0.uniqueClicks] } == [[1, 1]])
        #expect(try old.allClicks() == [stored], "the old click, country null")
        stored = Self.click(at: Self.start + 1, country: "GB")
        try old.ingest([stored], checkpoint: JournalCheckpoint(segment: "node/segment", offset: 1))
        #expect(try old.allClicks().first { $0.id == stored.id }?.country == "GB")
    }

    /// A click whose id a repeat already stored (the ingester's table remembered the click before its batch failed
    /// to commit, then a tap of the same visitor on another loop was stored under that id) is ingested when its batch
    /// is retried, as a repeat: the counts say two taps, one unique, and ingestion goes on.
    @Test func aClickWhoseIdIsAlreadyStoredCountsAsARepeatAndIngestionGoesOn() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let store = try SQLiteStore(path: fixture.directory + "/store.sqlite")
        try store.migrate()
        let first = Self.click(at: Self.start)
        var other = first
        other.createdAt += 1
        other.userAgent = "the other loop's tap"
        try store.ingest([], repeats: [other], checkpoint: JournalCheckpoint(segment: "node/loop-1", offset: 1))
        try store.ingest([first], repeats: [], checkpoint: JournalCheckpoint(segment: "node/loop-2", offset: 1))
        let later = Self.click(at: Self.start + 2)
        try store.ingest([later], repeats: [], checkpoint: JournalCheckpoint(segment: "node/loop-2", offset: 2))
        let counts = try store.clickCounts(ClickCountQuery(organizationID: "org_acme", from: 0, to: .max / 2))
        #expect(counts.map { [$0.clicks, $0.uniqueClicks] } == [[3, 2]])
        #expect(try store.allClicks().map(\.id).sorted() == [first.id, later.id].sorted())
    }

    @Test(arguments: StoreKind.allCases) func deletingRemovesOnlyClicksCreatedBeforeTheTimeInBatches(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        // 250 clicks a minute apart, and one in the same millisecond as the bound (kept: not before it).
        let clicks = (0..<250).map { Self.click(at: Self.start + Int64($0) * 60_000) }
        let bound = Self.start + 100 * 60_000
        try fixture.store.ingest(
            clicks + [Self.click(at: bound)], checkpoint: JournalCheckpoint(segment: "node/segment", offset: 1))
        var batches: [Int] = []
        while true {
            let count = try fixture.store.deleteClicks(createdBefore: bound, limit: 30)
            batches.append(count)
            if count < 30 { break }
        }
        #expect(batches == [30, 30, 30, 10])
        let left = try fixture.store.allClicks()
        #expect(left.count == 151)
        #expect(left.allSatisfy { $0.createdAt >= bound })
        #expect(try fixture.store.deleteClicks(createdBefore: bound, limit: 30) == 0)
        #expect(try fixture.store.deleteClicks(createdBefore: -5, limit: 30) == 0, "before 1970: nothing")
    }

    @Test func theTimePrefixSortsBetweenTheIdsOfTheMillisecondsAround() {
        let times: [Int64] = [Self.start, Self.start + 1, 1, (1 << 48) - 2]
        for time in times {
            let prefix = ClickID.timePrefix(milliseconds: time)
            #expect(prefix.utf8.count == 12)
            #expect(Self.click(at: time - 1).id < prefix)
            #expect(Self.click(at: time).id >= prefix)
            #expect(Self.click(at: time).id.hasPrefix(prefix))
        }
        #expect(ClickID.timePrefix(milliseconds: -5) == ClickID.timePrefix(milliseconds: 0), "clamped")
    }
}
