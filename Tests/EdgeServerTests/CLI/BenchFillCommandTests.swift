import EdgeStore
import LinkCore
import TestSupport
import Testing

/// `tolt-edge bench-fill`, small: the store it fills holds what it says, its hourly counts agree with its clicks,
/// it refuses a store that already has an organization, and the usage text does not mention it.
@Suite struct BenchFillCommandTests {
    @Test func aSmallFillIsConsistent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.path + "/data"
        let before = Clock.epochMilliseconds()
        let result = try ChildProcess.run(
            [
                "bench-fill", "--data", data, "--clicks", "3000", "--partners", "12", "--customers", "300", "--days",
                "5",
            ],
            outputIn: directory.path, within: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix("filled \(data): 3000 clicks (3300 taps) over 5 days, 12 partners, 300 customers"))
        let store = try SQLiteStore(directory: data)
        try store.migrate()

        let records = try store.configRecords()
        #expect(records.organizations.map(\.publicKey) == ["pk_bench"])
        #expect(records.programs.count == 4 && records.partners.count == 12)
        #expect(records.programs.allSatisfy { $0.commission != nil })

        let clicks = try store.allClicks(organizationID: "org_bench")
        #expect(clicks.count == 3000)
        #expect(
            clicks.allSatisfy { $0.createdAt >= before - 5 * 86_400_000 && $0.createdAt <= Clock.epochMilliseconds() })
        #expect(clicks.allSatisfy { ClickID(parsing: $0.id) != nil }, "ids shaped as the link path mints them")
        let partners = Set(records.partners.map(\.id))
        #expect(clicks.allSatisfy { partners.contains($0.partnerID) })
        let perPartner = try store.clickCounts(
            ClickCountQuery(organizationID: "org_bench", from: 0, to: Clock.epochMilliseconds() + 3_600_000))
        #expect(perPartner.reduce(0) { $0 + $1.clicks } == 3300)
        #expect(perPartner.reduce(0) { $0 + $1.uniqueClicks } == 3000)
        let whole = try store.clickCounts(
            ClickCountQuery(
                organizationID: "org_bench", from: 0, to: Clock.epochMilliseconds() + 3_600_000, byPartner: false))
        #expect(whole.reduce(0) { $0 + $1.clicks } == 3300 && whole.count >= 5)

        let summary = try store.organizationSummary(organizationID: "org_bench")
        #expect(summary.claims == 300)
        #expect(summary.customers(withStatus: .paying) > 0 && summary.customers(withStatus: .lead) > 0)
        #expect(summary.commissions(withStatus: .pending).count > 0)
        let totals = try store.commissionTotals(organizationID: "org_bench")
        for status in CommissionStatus.allCases {
            let byPartner = totals.filter { $0.status == status }
            #expect(
                CommissionTotal(
                    count: byPartner.reduce(0) { $0 + $1.count },
                    amountCents: byPartner.reduce(0) { $0 + $1.amountCents })
                    == summary.commissions(withStatus: status))
        }
        #expect(try store.webhookEvents(organizationID: "org_bench", limit: 1).items.count == 1)
        #expect(try store.journalOffset(segment: "bench-fill") == 0, "no checkpoint left behind")

        // A second fill is refused and changes nothing.
        let again = try ChildProcess.run(["bench-fill", "--data", data, "--clicks", "10"], outputIn: directory.path)
        #expect(again.status == 2)
        #expect(again.stderr.contains("already holds an organization"))
        #expect(try store.allClicks(organizationID: "org_bench").count == 3000)
    }

    @Test func theUsageTextLeavesItOut() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let help = try ChildProcess.run(["--help"], outputIn: directory.path)
        #expect(help.status == 0 && help.stdout.contains("prune"))
        #expect(!help.stdout.contains("bench"))
        let own = try ChildProcess.run(["bench-fill", "--help"], outputIn: directory.path)
        #expect(own.status == 0 && own.stdout.hasPrefix("usage: tolt-edge bench-fill"))
        let bad = try ChildProcess.run(["bench-fill", "--clicks", "-1"], outputIn: directory.path)
        #expect(bad.status == 2 && bad.stderr.contains("--clicks must be an integer"))
    }
}
