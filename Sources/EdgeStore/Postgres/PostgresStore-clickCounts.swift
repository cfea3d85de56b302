import LinkCore

extension PostgresStore {
    public func clickCounts(_ query: ClickCountQuery) throws -> [DailyClickCount] {
        if !query.byPartner && query.partnerID == nil { return try organizationClickCounts(query) }
        var sql = """
            SELECT (hour_start + ?) / 86400000 AS day, partner_id, SUM(clicks), SUM(unique_clicks) FROM click_counts
            WHERE organization_id = ? AND hour_start >= ? AND hour_start < ?
            """
        var bindings: [SQLValue] = [
            .integer(query.offsetMilliseconds), .text(query.organizationID), .integer(query.from), .integer(query.to),
        ]
        if let partner = query.partnerID {
            sql += " AND partner_id = ?"
            bindings.append(.text(partner))
        }
        let limit = max(1, min(query.limit, ClickCountQuery.maximumLimit))
        sql += " GROUP BY day, partner_id ORDER BY day, partner_id LIMIT ?"
        bindings.append(.integer(Int64(limit)))
        return try withConnection { db in
            try db.rows(sql, bindings) {
                DailyClickCount(day: $0.int(0), partnerID: $0.text(1), clicks: $0.int(2), uniqueClicks: $0.int(3))
            }
        }
    }

    /// ``clickCounts(_:)`` for the whole organization, one row per day (partner id empty), summed over partners from
    /// `click_counts` through its primary key's range. (SQLite keeps a per-organization table for this; here the
    /// range read is the same one the per-partner query makes.)
    private func organizationClickCounts(_ query: ClickCountQuery) throws -> [DailyClickCount] {
        let limit = max(1, min(query.limit, ClickCountQuery.maximumLimit))
        return try withConnection { db in
            try db.rows(
                """
                SELECT (hour_start + ?) / 86400000 AS day, SUM(clicks), SUM(unique_clicks) FROM click_counts
                WHERE organization_id = ? AND hour_start >= ? AND hour_start < ? GROUP BY day ORDER BY day LIMIT ?
                """,
                [
                    .integer(query.offsetMilliseconds), .text(query.organizationID), .integer(query.from),
                    .integer(query.to), .integer(Int64(limit)),
                ]
            ) { DailyClickCount(day: $0.int(0), partnerID: "", clicks: $0.int(1), uniqueClicks: $0.int(2)) }
        }
    }
}
