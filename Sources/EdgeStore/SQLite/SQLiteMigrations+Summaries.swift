extension SQLiteMigrations {
    /// What the dashboard's summaries read. Covering indexes for ``SQLiteStore/organizationSummary(organizationID:)``
    /// and ``SQLiteStore/commissionTotals(organizationID:)``: each count and sum is read from an index alone,
    /// without visiting a customer's or a commission's row. `customers_by_organization`: the customer list's first
    /// page (newest first) walks the index back 21 entries, where it sorted every customer of the organization
    /// (each with its revenue and commission subqueries: 280 ms for 20,000 customers). And click counts per
    /// organization and UTC hour, summed over its partners: 30 days of an organization are 720 rows, where `click_counts` holds one per busy partner
    /// and hour (144,000 for 200 partners); the ingester adds to both in one transaction (`HourlyClickCounts`),
    /// and the step fills it from `click_counts`. `click_counts_by_partner`, covering: one partner's days read that
    /// partner's hours only, where the primary key (hour before partner) made them scan every partner's hours (23 ms
    /// for 30 days of 200 partners).
    static let summaries: Step = """
        CREATE INDEX customers_by_status ON customers (organization_id, status);
        CREATE INDEX customers_by_organization ON customers (organization_id, seq);
        CREATE INDEX commissions_by_partner_status ON commissions (organization_id, partner_id, status, amount);
        CREATE INDEX click_counts_by_partner ON click_counts (
            organization_id, partner_id, hour_start, clicks, unique_clicks);
        CREATE TABLE organization_click_counts (
            organization_id TEXT NOT NULL, hour_start INTEGER NOT NULL,
            clicks INTEGER NOT NULL, unique_clicks INTEGER NOT NULL,
            PRIMARY KEY (organization_id, hour_start)) WITHOUT ROWID;
        INSERT INTO organization_click_counts (organization_id, hour_start, clicks, unique_clicks)
            SELECT organization_id, hour_start, SUM(clicks), SUM(unique_clicks) FROM click_counts
            GROUP BY organization_id, hour_start;
        """
}
