import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

@testable import EdgeStore

/// The click journal and its ingester: every appended click reaches the store exactly once, a torn tail
/// is dropped, and progress survives a restart.
@Suite struct ClickJournalTests {
    static let target = LinkTarget(
        code: CodeRecord(reference: 7, partnerID: "part_sam", code: "SAM20", active: true),
        partner: PartnerRecord(id: "part_sam", programID: "prg_acme", name: "Sam", status: "active"),
        program: ProgramSettings(
            record: ProgramRecord(id: "prg_acme", organizationID: "org_acme", name: "Acme Pro"),
            organizationName: "Acme"),
        publicKey: "pk_acme")

    /// The click numbered `number`, as the store must end up holding it: each number has its own id, time,
    /// platform, User-Agent, referer and address.
    static func click(_ number: Int, userAgent: String? = nil, referer: String? = nil) -> ClickRecord {
        let agent = userAgent ?? "agent \(number)"
        let referer = referer ?? (number % 3 == 0 ? "" : "https://ref.example/\(number)")
        return ClickRecord(
            id: "clk_" + String(repeating: "0", count: 30) + String(1_000_000_000 + number),
            createdAt: 1_767_225_600_000 + Int64(number), organizationID: "org_acme", programID: "prg_acme",
            partnerID: "part_sam", code: "SAM20", platform: Platform.allCases[number % 4], userAgent: agent,
            referer: referer, ip: number % 2 == 0 ? "127.0.0.1" : "2001:db8::\(number % 1000)")
    }

    /// Stages `click` with `writer`, as the link path does, without writing it.
    static func stage(_ click: ClickRecord, to writer: JournalWriter) {
        Array(click.id.utf8).withUnsafeBytes { id in
            Array(click.userAgent.utf8).withUnsafeBytes { agent in
                Array(click.referer.utf8).withUnsafeBytes { referer in
                    Array(click.ip.utf8).withUnsafeBytes { ip in
                        writer.append(
                            clickID: id.baseAddress!, createdAt: click.createdAt, platform: click.platform,
                            target: target, userAgent: agent, referer: referer, ip: ip)
                    }
                }
            }
        }
    }

    /// Appends one click numbered `number`, writes it (as a loop does before answering), and returns the record
    /// the store must end up holding.
    @discardableResult
    static func append(_ number: Int, to writer: JournalWriter, userAgent: String? = nil, referer: String? = nil)
        -> ClickRecord
    {
        let click = click(number, userAgent: userAgent, referer: referer)
        stage(click, to: writer)
        precondition(writer.flush(), "the journal refused a click")
        var stored = click
        stored.userAgent = String(click.userAgent.utf8.prefix(512))!
        stored.referer = String(click.referer.utf8.prefix(1024))!
        return stored
    }

    /// Every stored click of `org_acme`, in id order (the order they were appended in).
    static func stored(_ store: any Store) throws -> [ClickRecord] {
        try store.allClicks().sorted { $0.id < $1.id }
    }

    /// Segment files that hold at least one frame: more than a segment header.
    static func segmentsWithData(_ journal: ClickJournal) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: journal.directory).filter { name in
            guard name.hasSuffix(".journal") else { return false }
            let size = try FileManager.default.attributesOfItem(atPath: journal.directory + "/" + name)[.size]
            return (size as? Int ?? 0) > JournalFrame.segmentHeaderSize
        }
    }

    @Test(arguments: StoreKind.allCases) func everyClickIsIngestedExactlyOnceAcrossBatchesStreamsAndSegments(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory, segmentSize: 64 << 10)
        let writers = [journal.makeWriter(stream: 0), journal.makeWriter(stream: 1)]
        let ingester = ClickIngester(journal: journal, store: try fixture.reopen())
        var expected = (0..<2500).map { Self.append($0, to: writers[$0 % 2]) }
        expected.append(
            Self.append(
                9999, to: writers[0], userAgent: String(repeating: "u", count: 2000),
                referer: String(repeating: "r", count: 3000)))

        try ingester.pass()
        #expect(try Self.stored(fixture.store) == expected.sorted { $0.id < $1.id })
        #expect(try ingester.pass() == false, "a second pass finds nothing new")
        #expect(try Self.stored(fixture.store).count == expected.count)
        #expect(try Self.stored(fixture.store).last?.userAgent.utf8.count == 512, "the User-Agent is bounded")

        // More clicks after a pass, then the writers close (as at shutdown): drained, every segment deleted.
        expected += (2500..<2600).map { Self.append($0, to: writers[$0 % 2]) }
        for writer in writers { writer.close() }
        try ingester.drain()
        #expect(try Self.stored(fixture.store) == expected.sorted { $0.id < $1.id })
        #expect(journal.segmentNames().isEmpty)
        #expect(ingester.ingestedCount == expected.count)
    }

    /// Under load the ingester leaves the clicks in the journal, until the journal outgrows its bound.
    @Test func underLoadTheIngesterWaitsUntilTheBacklogOutgrowsItsBound() throws {
        for (bound, ingests) in [(Int.max, false), (0, true)] {
            let fixture = try StoreFixture()
            defer { fixture.remove() }
            let (journal, writer) = try fixture.openJournal()
            let expected = (0..<50).map { Self.append($0, to: writer) }
            let ingester = ClickIngester(journal: journal, store: try fixture.reopen())
            // stop() only asks the ingester to stop: wait for run() to return before reading the store.
            let finished = DispatchSemaphore(value: 0)
            TestThread.start(name: "test-ingest") {
                ingester.run(interval: 0.01, isBusy: { true }, maximumBacklog: bound)
                finished.signal()
            }
            let deadline = Date().addingTimeInterval(ingests ? 5 : 0.5)
            while ingester.ingestedCount < expected.count && Date() < deadline { usleep(10_000) }
            ingester.stop()
            finished.wait()
            #expect(try Self.stored(fixture.store).count == (ingests ? expected.count : 0), "bound \(bound)")
        }
    }

    @Test func theBacklogBoundIsAQuarterOfTheRoomOnTheVolume() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        var volume = statvfs()
        #expect(statvfs(fixture.directory, &volume) == 0)
        let quarter = Int(volume.f_bavail) * Int(volume.f_frsize) / 4
        let limit = journal.backlogLimit(held: journal.totalBytes())
        #expect(limit >= 256 << 20)
        // The free space moves a little while other processes write; 64 MiB of slack.
        #expect(limit == 256 << 20 || abs(limit - quarter) < 64 << 20, "limit \(limit), a quarter \(quarter)")
    }

    /// The process dies in the middle of a write: the segment ends in part of a frame. The next process drops that
    /// torn tail, says so, and keeps every whole frame before it.
    @Test(arguments: StoreKind.allCases) func aTornTailLeftByACrashIsDroppedAndLoggedAsTorn(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (crashed, writer) = try fixture.openJournal(segmentSize: 64 << 10)
        let expected = (0..<5).map { Self.append($0, to: writer) }
        let name = try #require(try Self.segmentsWithData(crashed).first)
        let path = crashed.directory + "/" + name
        let whole = try Self.size(path)
        Self.append(5, to: writer)
        // The sixth frame's write was cut short: only its first half reached the file.
        let cut = whole + (try Self.size(path) - whole) / 2
        #expect(truncate(path, off_t(cut)) == 0)
        crashed.release()  // the process dies: the kernel drops its lock

        // The next process: the segment is nobody's, so it is read to its end, and deleted.
        let restarted = try ClickJournal.reopened(dataDirectory: fixture.directory, segmentSize: 64 << 10)
        let log = LogLines()
        let ingester = ClickIngester(journal: restarted, store: try fixture.reopen(), log: log.append)
        try ingester.pass()
        #expect(try Self.stored(fixture.store) == expected)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(
            try fixture.store.journalOffset(segment: restarted.checkpointKey(name)) == 0, "its checkpoint is forgotten")
        let lines = log.lines
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("\(name) ends in a torn record at byte \(whole)") == true, "\(lines)")
        #expect(lines.first?.contains("never answered") == true)
        #expect(ingester.tornTailCount == 1 && ingester.damagedCount == 0)
        withExtendedLifetime(writer) {}
    }

    /// A segment whose writer stopped between two writes ends after a whole frame: every click is ingested, the
    /// segment deleted, and nothing is logged, sealed or not.
    @Test(arguments: StoreKind.allCases, [false, true]) func aSegmentThatEndsCleanlyIsIngestedWithoutAWarning(
        kind: StoreKind, sealed: Bool
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (first, writer) = try fixture.openJournal(segmentSize: 64 << 10)
        let expected = (0..<7).map { Self.append($0, to: writer) }
        if sealed { writer.close() }
        first.release()  // the process ends
        let restarted = try ClickJournal.reopened(dataDirectory: fixture.directory, segmentSize: 64 << 10)
        let log = LogLines()
        let ingester = ClickIngester(journal: restarted, store: try fixture.reopen(), log: log.append)
        try ingester.pass()
        #expect(try Self.stored(fixture.store) == expected)
        #expect(restarted.segmentNames().isEmpty, "the segment is deleted once consumed")
        #expect(log.lines.isEmpty, "a clean end is not a warning: \(log.lines)")
        withExtendedLifetime(writer) {}
    }

    static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    @Test(arguments: StoreKind.allCases) func ingestionResumesFromItsCheckpointAfterARestart(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (first, writer) = try fixture.openJournal(segmentSize: 64 << 10)
        var expected = (0..<3).map { Self.append($0, to: writer) }
        try ClickIngester(journal: first, store: try fixture.reopen()).pass()
        #expect(try Self.stored(fixture.store) == expected)
        let name = try #require(try Self.segmentsWithData(first).first)
        #expect(try fixture.store.journalOffset(segment: first.checkpointKey(name)) > 0)

        // Two more clicks, then the process dies (the writer never seals its segment).
        expected += (3..<5).map { Self.append($0, to: writer) }
        first.release()  // the kernel drops a dead process's lock
        let second = try ClickJournal.reopened(dataDirectory: fixture.directory, segmentSize: 64 << 10)
        #expect(second.nodeID == first.nodeID, "the node keeps its id across restarts")
        // A fresh store connection and ingester know nothing but what the store says.
        try ClickIngester(journal: second, store: try fixture.reopen()).pass()
        #expect(try Self.stored(fixture.store) == expected, "the first three are not inserted twice")
        try ClickIngester(journal: second, store: try fixture.reopen()).pass()
        #expect(try Self.stored(fixture.store) == expected)
        withExtendedLifetime(writer) {}
    }

    @Test(arguments: StoreKind.allCases) func aFailedBatchIsRetriedWithoutLossOrDuplicate(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal(segmentSize: 1 << 20)
        let expected = (0..<1500).map { Self.append($0, to: writer) }
        writer.close()
        let flaky = FlakyStore(try fixture.reopen(), failingIngestCall: 2)
        let ingester = ClickIngester(journal: journal, store: flaky)
        #expect(throws: StoreError.self) { try ingester.pass() }
        #expect(try Self.stored(fixture.store).count == ClickIngester.batchSize, "the first batch is committed")
        try ingester.drain()
        #expect(try Self.stored(fixture.store) == expected)
        #expect(journal.segmentNames().isEmpty)
    }
}

/// A store whose `ingest` fails once, on its `failingIngestCall`-th call, as a full disk or a lock would.
final class FlakyStore: Store {
    let base: any Store
    let calls = Mutex(0)
    let failingCall: Int

    init(_ base: any Store, failingIngestCall: Int) {
        self.base = base
        failingCall = failingIngestCall
    }

    func ingest(_ clicks: [ClickRecord], repeats: [ClickRecord], checkpoint: JournalCheckpoint) throws {
        let call = calls.withLock {
            $0 += 1; return $0
        }
        if call == failingCall { throw StoreError.database("disk I/O error (injected)") }
        try base.ingest(clicks, repeats: repeats, checkpoint: checkpoint)
    }

    func migrate() throws { try base.migrate() }
    func configRecords() throws -> ConfigRecords { try base.configRecords() }
    func configRecords(organizationID: String) throws -> ConfigRecords {
        try base.configRecords(organizationID: organizationID)
    }
    func isPartner(_ partnerID: String, of organizationID: String) throws -> Bool {
        try base.isPartner(partnerID, of: organizationID)
    }
    func configRevision() throws -> Int64 { try base.configRevision() }
    func applyConfig(_ changes: ConfigChanges, expectedRevision: Int64) throws {
        try base.applyConfig(changes, expectedRevision: expectedRevision)
    }
    func clickSigningKey() throws -> [UInt8] { try base.clickSigningKey() }
    func journalOffset(segment: String) throws -> Int64 { try base.journalOffset(segment: segment) }
    func forgetJournalSegment(_ segment: String) throws { try base.forgetJournalSegment(segment) }
    func clicks(_ query: ClickQuery) throws -> Page<ClickRecord> { try base.clicks(query) }
    func clickCounts(_ query: ClickCountQuery) throws -> [DailyClickCount] { try base.clickCounts(query) }
    func deleteClicks(createdBefore: Int64, limit: Int) throws -> Int {
        try base.deleteClicks(createdBefore: createdBefore, limit: limit)
    }
    func claim(
        _ customer: CustomerRecord, replaying plan: ((RevenueCatEvent, CommissionLedger) -> WebhookPlan)?
    ) throws -> (customer: CustomerRecord, created: Bool, replayed: [WebhookOutcome]) {
        try base.claim(customer, replaying: plan)
    }
    func customer(organizationID: String, customerID: String) throws -> CustomerRecord? {
        try base.customer(organizationID: organizationID, customerID: customerID)
    }
    func customers(_ query: CustomerQuery) throws -> Page<CustomerRecord> { try base.customers(query) }
    func recordWebhookEvent(
        _ event: WebhookEventRecord, plan: (RevenueCatEvent, CommissionLedger) -> WebhookPlan
    ) throws -> (outcome: WebhookOutcome, replayed: [WebhookOutcome]) {
        try base.recordWebhookEvent(event, plan: plan)
    }
    func commissions(_ query: CommissionQuery) throws -> Page<CommissionRecord> { try base.commissions(query) }
    func createPayout(_ payout: PayoutRecord) throws -> PayoutOutcome { try base.createPayout(payout) }
    func payouts(_ query: PayoutQuery) throws -> Page<PayoutRecord> { try base.payouts(query) }
    func partnerBalances(organizationID: String, partnerIDs: [String]) throws -> [String: PartnerBalance] {
        try base.partnerBalances(organizationID: organizationID, partnerIDs: partnerIDs)
    }
    func webhookEvents(organizationID: String, limit: Int, startingAfter: String?) throws
        -> Page<StoredWebhookEvent>
    {
        try base.webhookEvents(organizationID: organizationID, limit: limit, startingAfter: startingAfter)
    }
    func organizationSummary(organizationID: String) throws -> OrganizationSummary {
        try base.organizationSummary(organizationID: organizationID)
    }
    func commissionTotals(organizationID: String) throws -> [PartnerCommissionTotal] {
        try base.commissionTotals(organizationID: organizationID)
    }
}

/// Staged clicks reach the file only on a flush, all in one write.
@Suite struct JournalStagingTests {
    @Test(arguments: StoreKind.allCases) func stagedClicksAreWrittenByTheFlushAndNotBefore(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (journal, writer, ingester) = try fixture.openJournalAndIngester()
        var expected: [ClickRecord] = []
        for number in 0..<40 {
            let id = "clk_" + String(repeating: "0", count: 30) + String(1_000_000_000 + number)
            Array(id.utf8).withUnsafeBytes { id in
                Array("agent".utf8).withUnsafeBytes { agent in
                    Array("127.0.0.1".utf8).withUnsafeBytes { ip in
                        writer.append(
                            clickID: id.baseAddress!, createdAt: 1_767_225_600_000, platform: .ios,
                            target: ClickJournalTests.target, userAgent: agent,
                            referer: UnsafeRawBufferPointer(start: nil, count: 0), ip: ip)
                    }
                }
            }
            expected.append(
                ClickRecord(
                    id: id, createdAt: 1_767_225_600_000, organizationID: "org_acme", programID: "prg_acme",
                    partnerID: "part_sam", code: "SAM20", platform: .ios, userAgent: "agent", referer: "",
                    ip: "127.0.0.1"))
        }
        #expect(writer.hasStaged)
        #expect(try ingester.pass() == false, "nothing is in the file before the flush")
        #expect(writer.flush())
        #expect(!writer.hasStaged)
        try ingester.pass()
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        writer.close()
        try ingester.drain()
        #expect(journal.segmentNames().isEmpty)
    }
}
