import EdgeStore
import LinkCore
import TestSupport
import Testing

/// `tolt-edge prune --before DATE`: clicks created before it are deleted, later ones kept, the count printed; a bad
/// date is a usage error that deletes nothing.
@Suite struct PruneCommandTests {
    /// 2026-01-01T00:00:00Z.
    static let start = ClickListingTests.start

    /// A store holding 130 acme clicks a second apart from `start` (and 3 of another organization, half a second
    /// later each), and one click a day later.
    static func seeded() throws -> TestServer {
        let server = try TestServer()
        _ = try ClickListingTests.seed(server)
        let later = ClickRecord(
            id: ClickListingTests.clickID(at: start + 86_400_000), createdAt: start + 86_400_000,
            organizationID: "org_acme", programID: "prg_acme", partnerID: "part_sam", code: "SAM20", platform: .ios,
            userAgent: Agents.iPhone, referer: "", ip: "192.0.2.1")
        try server.store.ingest([later], checkpoint: JournalCheckpoint(segment: "test/later", offset: 1))
        return server
    }

    static func allTimes(_ store: any Store) throws -> [Int64] {
        try (store.allClicks(organizationID: "org_acme") + store.allClicks(organizationID: "org_other"))
            .map(\.createdAt).sorted()
    }

    @Test func anRFC3339TimeDeletesTheClicksBeforeItAndPrintsHowMany() throws {
        let server = try Self.seeded()
        defer { server.shutdown() }
        // 00:01:00.000Z: acme clicks 0–59 and other 0–2 (at 0.5, 1.5 and 2.5 s) are before it.
        let result = try ChildProcess.run(
            ["prune", "--before", "2026-01-01T01:01:00+01:00", "--data", server.directory], outputIn: server.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "deleted 63 clicks created before 2026-01-01T00:01:00.000Z\n")
        let left = try Self.allTimes(server.store)
        #expect(left.count == 134 - 63)
        #expect(left.first == Self.start + 60_000, "the click at the time itself is kept")
        let again = try ChildProcess.run(
            ["prune", "--before", "2026-01-01T00:01:00Z", "--data", server.directory], outputIn: server.directory)
        #expect(again.stdout == "deleted 0 clicks created before 2026-01-01T00:01:00.000Z\n")
    }

    @Test func aDayMeansItsMidnightUTC() throws {
        let server = try Self.seeded()
        defer { server.shutdown() }
        let result = try ChildProcess.run(
            ["prune", "--before", "2026-01-02", "--data", server.directory], outputIn: server.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "deleted 133 clicks created before 2026-01-02T00:00:00.000Z\n")
        #expect(try Self.allTimes(server.store) == [Self.start + 86_400_000])
    }

    @Test func aBadDateIsAUsageErrorAndDeletesNothing() throws {
        let server = try Self.seeded()
        defer { server.shutdown() }
        for arguments in [
            ["--before", "2026-13-01"], ["--before", "2026-02-30"], ["--before", "yesterday"],
            ["--before", "2026-1-1"],
            ["--before", "2026-01-01T00:00:00"], ["--before", "20260101"], ["--before", ""], [],
        ] {
            let result = try ChildProcess.run(
                ["prune", "--data", server.directory] + arguments, outputIn: server.directory)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("--before"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("usage: tolt-edge prune"))
        }
        #expect(try Self.allTimes(server.store).count == 134)
    }

    /// `--before 2062-01-01` (a mistyped 2026) deleted every click and printed the count. A time after now is a usage
    /// error now, naming the time to give for "every click so far"; that time itself is taken.
    @Test func aTimeInTheFutureIsAUsageErrorAndDeletesNothing() throws {
        let server = try Self.seeded()
        defer { server.shutdown() }
        let tomorrow = Timestamp.format(Clock.epochMilliseconds() + 86_400_000)
        for before in ["2062-01-01", tomorrow] {
            let result = try ChildProcess.run(
                ["prune", "--before", before, "--data", server.directory], outputIn: server.directory)
            #expect(result.status == 2, "\(before): \(result.stdout)")
            #expect(
                result.stderr.contains("--before \(before) is in the future, which would delete every click"),
                "\(result.stderr)")
        }
        #expect(try Self.allTimes(server.store).count == 134)
        let now = Timestamp.format(Clock.epochMilliseconds())
        let all = try ChildProcess.run(
            ["prune", "--before", now, "--data", server.directory], outputIn: server.directory)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout == "deleted 134 clicks created before \(now)\n")
        #expect(try Self.allTimes(server.store).isEmpty)
    }
}
