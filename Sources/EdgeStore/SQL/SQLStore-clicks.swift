import LinkCore

extension SQLStore {
    public func journalOffset(segment: String) throws -> Int64 {
        try withConnection { db in
            var offset: Int64 = 0
            try db.query("SELECT byte_offset FROM journal_checkpoints WHERE segment = ?", [.text(segment)]) {
                offset = $0.int(0)
            }
            return offset
        }
    }

    public func forgetJournalSegment(_ segment: String) throws {
        try withConnection { db in
            try db.query("DELETE FROM journal_checkpoints WHERE segment = ?", [.text(segment)])
        }
    }

    public func clicks(_ query: ClickQuery) throws -> Page<ClickRecord> {
        var sql = """
            SELECT id, created_at, organization_id, program_id, partner_id, code, platform, user_agent, referer, ip,
                country
            FROM clicks WHERE organization_id = ?
            """
        var bindings: [SQLValue] = [.text(query.organizationID)]
        if let after = query.startingAfter {
            sql += " AND id < ?"
            bindings.append(.text(after))
        }
        if let partner = query.partnerID {
            sql += " AND partner_id = ?"
            bindings.append(.text(partner))
        }
        if let since = query.since {
            sql += " AND created_at >= ?"
            bindings.append(.integer(since))
        }
        return try page(sql, bindings, order: "id", limit: query.limit) { row in
            ClickRecord(
                id: row.text(0), createdAt: row.int(1), organizationID: row.text(2), programID: row.text(3),
                partnerID: row.text(4), code: row.text(5), platform: Platform(rawValue: row.text(6)) ?? .other,
                userAgent: row.text(7), referer: row.text(8), ip: row.text(9), country: row.optionalText(10))
        }
    }

    /// Deletes at most `?3` clicks created before `?2`, oldest first; `?1` is the time's own id prefix
    /// (``ClickID/timePrefix(milliseconds:)``). A click id starts with its creation time, so ids below that prefix
    /// are a range of the primary key: a batch reads only the rows it deletes, never the whole table.
    static var deleteClicksSQL: String {
        """
        DELETE FROM clicks WHERE id IN (
            SELECT id FROM clicks WHERE id < ? AND created_at < ? ORDER BY id LIMIT ?)
        """
    }

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
        sql += " GROUP BY day, partner_id ORDER BY day, partner_id" + Self.dialect.limit(limit, bindings: &bindings)
        return try withConnection { db in
            try db.rows(sql, bindings) {
                DailyClickCount(day: $0.int(0), partnerID: $0.text(1), clicks: $0.int(2), uniqueClicks: $0.int(3))
            }
        }
    }

    /// ``clickCounts(_:)`` for the whole organization, one row per day (partner id empty), from
    /// `organization_click_counts`: one row per hour, however many partners (SQLite step 9, PostgreSQL step 4).
    private func organizationClickCounts(_ query: ClickCountQuery) throws -> [DailyClickCount] {
        var bindings: [SQLValue] = [
            .integer(query.offsetMilliseconds), .text(query.organizationID), .integer(query.from), .integer(query.to),
        ]
        let limit = max(1, min(query.limit, ClickCountQuery.maximumLimit))
        let sql = """
            SELECT (hour_start + ?) / 86400000 AS day, SUM(clicks), SUM(unique_clicks)
            FROM organization_click_counts
            WHERE organization_id = ? AND hour_start >= ? AND hour_start < ? GROUP BY day ORDER BY day
            """ + Self.dialect.limit(limit, bindings: &bindings)
        return try withConnection { db in
            try db.rows(sql, bindings) {
                DailyClickCount(day: $0.int(0), partnerID: "", clicks: $0.int(1), uniqueClicks: $0.int(2))
            }
        }
    }
}
