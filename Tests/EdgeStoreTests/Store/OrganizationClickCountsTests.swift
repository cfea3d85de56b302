import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// `clickCounts` with `byPartner: false` on a real SQLite file: one row per day for the whole organization, from
/// `organization_click_counts`, always equal to the per-partner counts summed, whether the ingester wrote them or
/// migration step 9 (PostgreSQL: step 4) filled them from an older store's counts.
@Suite struct OrganizationClickCountsTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_780_012_800_000  // a UTC midnight

    static func click(_ number: Int, organization: String, partner: String, at time: Int64) -> ClickRecord {
        ClickRecord(
            id: "clk_\(organization)_\(String(1_000_000 + number))", createdAt: time, organizationID: organization,
            programID: "prg", partnerID: partner, code: "C", platform: .ios, userAgent: "agent", referer: "",
            ip: "127.0.0.1")
    }

    /// Per-partner rows summed into days, for comparison.
    static func summed(_ rows: [DailyClickCount]) -> [DailyClickCount] {
        var days: [Int64: DailyClickCount] = [:]
        for row in rows {
            days[row.day, default: DailyClickCount(day: row.day, partnerID: "", clicks: 0, uniqueClicks: 0)].clicks +=
                row.clicks
            days[row.day]!.uniqueClicks += row.uniqueClicks
        }
        return days.values.sorted { $0.day < $1.day }
    }

    @Test(arguments: StoreKind.allCases) func organizationDaysAreThePartnersDaysSummed(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let store = fixture.store
        var generator = SeededGenerator(seed: 17)
        // Three batches over five days, three partners of org_acme and one of org_other, a repeat tap every fifth.
        var number = 0
        for batch in 0..<3 {
            var clicks: [ClickRecord] = []
            var repeats: [ClickRecord] = []
            for _ in 0..<300 {
                number += 1
                let time = Self.start + Int64.random(in: 0..<(5 * Self.day), using: &generator)
                let partner = ["part_sam", "part_lee", "part_a"][Int.random(in: 0..<3, using: &generator)]
                let organization = number % 4 == 0 ? "org_other" : "org_acme"
                let click = Self.click(number, organization: organization, partner: partner, at: time)
                clicks.append(click)
                if number % 5 == 0 { repeats.append(click) }
            }
            try store.ingest(
                clicks, repeats: repeats, checkpoint: JournalCheckpoint(segment: "s", offset: Int64(batch)))
        }
        for offset in [0, 2 * 3_600_000, -5 * 3_600_000] as [Int64] {
            let query = ClickCountQuery(
                organizationID: "org_acme", from: Self.start - Self.day, to: Self.start + 6 * Self.day,
                offsetMilliseconds: offset)
            var whole = query
            whole.byPartner = false
            let organization = try store.clickCounts(whole)
            #expect(organization == Self.summed(try store.clickCounts(query)), "offset \(offset)")
            #expect(organization.count >= 5 && organization.allSatisfy { $0.partnerID.isEmpty }, "offset \(offset)")
            #expect(organization.reduce(0) { $0 + $1.clicks } > organization.reduce(0) { $0 + $1.uniqueClicks })
        }
        // Another organization's clicks count only there; a partner filter still gives that partner's rows.
        let other = try store.clickCounts(
            ClickCountQuery(organizationID: "org_other", from: 0, to: Self.start + 6 * Self.day, byPartner: false))
        #expect(other.reduce(0) { $0 + $1.uniqueClicks } == 225)
        let sam = try store.clickCounts(
            ClickCountQuery(
                organizationID: "org_acme", partnerID: "part_sam", from: 0, to: Self.start + 6 * Self.day,
                byPartner: false))
        #expect(!sam.isEmpty && sam.allSatisfy { $0.partnerID == "part_sam" })
        // A range cut inside the data: only hours starting in it.
        let firstDay = try store.clickCounts(
            ClickCountQuery(organizationID: "org_acme", from: Self.start, to: Self.start + Self.day, byPartner: false))
        #expect(firstDay.map(\.day) == [Self.start / Self.day])
    }

    /// A store of step 7 with hourly counts gets its organization counts from them when step 9 runs.
    @Test func stepNineFillsTheOrganizationCountsFromAnOlderStore() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let old = try SQLiteStore(path: fixture.directory + "/step7.sqlite")
        try old.migrate(throughStep: 7)
        try old.withConnection { db in
            for (hour, partner, clicks, unique) in Self.olderCounts {
                try db.query(
                    """
                    INSERT INTO click_counts (organization_id, hour_start, partner_id, clicks, unique_clicks)
                    VALUES ('org_a', ?, ?, ?, ?)
                    """, [.integer(Self.start + hour * 3_600_000), .text(partner), .integer(clicks), .integer(unique)])
            }
        }
        try old.migrate()
        let days = try old.clickCounts(
            ClickCountQuery(organizationID: "org_a", from: 0, to: Self.start + 3 * Self.day, byPartner: false))
        #expect(days == Self.olderDays)
    }

    /// A PostgreSQL store of step 3 with hourly counts gets its organization counts from them when step 4 runs, and
    /// from then on from every write to `click_counts`, an older node's too.
    @Test func postgresStepFourFillsTheOrganizationCountsFromAnOlderStore() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let old = PostgresStore(url: url)
        try old.migrate(throughStep: 3)
        try old.withConnection { db in
            for (hour, partner, clicks, unique) in Self.olderCounts {
                try db.query(
                    """
                    INSERT INTO click_counts (organization_id, hour_start, partner_id, clicks, unique_clicks)
                    VALUES ('org_a', ?, ?, ?, ?)
                    """, [.integer(Self.start + hour * 3_600_000), .text(partner), .integer(clicks), .integer(unique)])
            }
        }
        try old.migrate()
        #expect(try old.schemaVersion() == PostgresMigrations.steps.count)
        let query = ClickCountQuery(
            organizationID: "org_a", from: 0, to: Self.start + 3 * Self.day, byPartner: false)
        #expect(try old.clickCounts(query) == Self.olderDays)

        // A node of the older build, still ingesting during a rolling upgrade, writes only `click_counts`, as that
        // build did: to an hour it has (an update) and to a new one (an insert). The organization's days follow.
        try old.withConnection { db in
            for (hour, partner, clicks, unique) in [(0, "part_a", 2, 1), (50, "part_a", 4, 4)]
                as [(Int64, String, Int64, Int64)]
            {
                try db.query(
                    """
                    INSERT INTO click_counts (organization_id, hour_start, partner_id, clicks, unique_clicks)
                    VALUES ('org_a', ?, ?, ?, ?)
                    ON CONFLICT (organization_id, hour_start, partner_id) DO UPDATE SET
                        clicks = click_counts.clicks + excluded.clicks,
                        unique_clicks = click_counts.unique_clicks + excluded.unique_clicks
                    """, [.integer(Self.start + hour * 3_600_000), .text(partner), .integer(clicks), .integer(unique)])
            }
        }
        #expect(
            try old.clickCounts(query) == [
                DailyClickCount(day: Self.start / Self.day, partnerID: "", clicks: 12, uniqueClicks: 9),
                DailyClickCount(day: Self.start / Self.day + 1, partnerID: "", clicks: 7, uniqueClicks: 7),
                DailyClickCount(day: Self.start / Self.day + 2, partnerID: "", clicks: 4, uniqueClicks: 4),
            ])
        var perPartner = query
        perPartner.byPartner = true
        #expect(try old.clickCounts(query) == Self.summed(try old.clickCounts(perPartner)))
    }

    /// Hourly counts of a store from before the organization counts: (hour from `start`, partner, clicks, unique).
    static let olderCounts: [(Int64, String, Int64, Int64)] = [
        (0, "part_a", 5, 4), (0, "part_b", 3, 3), (1, "part_a", 2, 1), (30, "part_b", 7, 7),
    ]
    /// What `olderCounts` sum to, per day.
    static let olderDays = [
        DailyClickCount(day: start / day, partnerID: "", clicks: 10, uniqueClicks: 8),
        DailyClickCount(day: start / day + 1, partnerID: "", clicks: 7, uniqueClicks: 7),
    ]

    /// One partner's days read that partner's hours from a covering index, not every partner's hours in the range.
    @Test func aPartnersDaysReadOnlyThatPartnersHours() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let plan = try fixture.sqliteStore.withConnection { db in
            try db.rows(
                """
                EXPLAIN QUERY PLAN SELECT (hour_start + 0) / 86400000 AS day, partner_id, SUM(clicks), SUM(unique_clicks)
                FROM click_counts WHERE organization_id = ? AND hour_start >= ? AND hour_start < ? AND partner_id = ?
                GROUP BY day, partner_id ORDER BY day, partner_id
                """
            ) { $0.text(3) }
        }
        #expect(
            plan.contains { $0.contains("COVERING INDEX click_counts_by_partner (organization_id=? AND partner_id=?") },
            "\(plan)")
    }
}
