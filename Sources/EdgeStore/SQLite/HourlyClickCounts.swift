/// The click counts one ingested batch adds, per organization, partner and UTC hour, written with one upsert each.
struct HourlyClickCounts {
    static let hour: Int64 = 3_600_000

    private struct Key: Hashable {
        let organizationID: String
        let partnerID: String
        let hourStart: Int64
    }

    private var counts: [Key: (clicks: Int64, unique: Int64)] = [:]

    /// Counts a tap in its hour: a click, and a unique click when `unique`.
    mutating func add(_ click: ClickRecord, unique: Bool) {
        let hourStart = click.createdAt - ((click.createdAt % Self.hour) + Self.hour) % Self.hour
        let key = Key(organizationID: click.organizationID, partnerID: click.partnerID, hourStart: hourStart)
        counts[key, default: (0, 0)].clicks += 1
        if unique { counts[key, default: (0, 0)].unique += 1 }
    }

    /// One hour's counts for one partner.
    struct Row {
        let organizationID: String
        let partnerID: String
        let hourStart: Int64
        let clicks: Int64
        let uniqueClicks: Int64
    }

    /// The counts as rows, for a store that writes them in one statement (PostgresStore).
    var rows: [Row] {
        counts.map {
            Row(
                organizationID: $0.key.organizationID, partnerID: $0.key.partnerID, hourStart: $0.key.hourStart,
                clicks: $0.value.clicks, uniqueClicks: $0.value.unique)
        }
    }

    /// Adds the counts to the stored ones, inside the caller's transaction: per partner, and per organization
    /// (summed over its partners, so that a day of the whole organization reads 24 rows).
    func write(into db: SQLiteConnection) throws {
        var organizationCounts: [Key: (clicks: Int64, unique: Int64)] = [:]
        for (key, count) in counts {
            let organizationKey = Key(organizationID: key.organizationID, partnerID: "", hourStart: key.hourStart)
            organizationCounts[organizationKey, default: (0, 0)].clicks += count.clicks
            organizationCounts[organizationKey, default: (0, 0)].unique += count.unique
            try db.query(
                """
                INSERT INTO click_counts (organization_id, hour_start, partner_id, clicks, unique_clicks)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (organization_id, hour_start, partner_id) DO UPDATE SET
                clicks = clicks + excluded.clicks, unique_clicks = unique_clicks + excluded.unique_clicks
                """,
                [
                    .text(key.organizationID), .integer(key.hourStart), .text(key.partnerID), .integer(count.clicks),
                    .integer(count.unique),
                ])
        }
        for (key, count) in organizationCounts {
            try db.query(
                """
                INSERT INTO organization_click_counts (organization_id, hour_start, clicks, unique_clicks)
                VALUES (?, ?, ?, ?) ON CONFLICT (organization_id, hour_start) DO UPDATE SET
                clicks = clicks + excluded.clicks, unique_clicks = unique_clicks + excluded.unique_clicks
                """,
                [.text(key.organizationID), .integer(key.hourStart), .integer(count.clicks), .integer(count.unique)])
        }
    }
}
