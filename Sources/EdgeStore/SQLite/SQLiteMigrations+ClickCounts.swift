extension SQLiteMigrations {
    /// Click counts per organization, partner and UTC hour (its start, in milliseconds since 1970): every tap in
    /// `clicks`, first taps in `unique_clicks`. The ingester adds to them in the transaction that stores the clicks
    /// (``SQLiteStore/ingest(_:repeats:checkpoint:)``), so a crash can neither count a click twice nor lose one;
    /// `GET /v1/stats/clicks` sums them into days without reading a click.
    ///
    /// Filled from the clicks already stored, each a first tap: the repeats of earlier builds were clicks.
    static let clickCounts: Step = """
        CREATE TABLE click_counts (
            organization_id TEXT NOT NULL, hour_start INTEGER NOT NULL, partner_id TEXT NOT NULL,
            clicks INTEGER NOT NULL, unique_clicks INTEGER NOT NULL,
            PRIMARY KEY (organization_id, hour_start, partner_id)) WITHOUT ROWID;
        INSERT INTO click_counts (organization_id, hour_start, partner_id, clicks, unique_clicks)
            SELECT organization_id, created_at - created_at % 3600000, partner_id, COUNT(*), COUNT(*) FROM clicks
            GROUP BY organization_id, created_at - created_at % 3600000, partner_id;
        """
}
