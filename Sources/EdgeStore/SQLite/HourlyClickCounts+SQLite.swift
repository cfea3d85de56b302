extension HourlyClickCounts {
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
