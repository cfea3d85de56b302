extension SQLiteMigrations {
    /// Covering indexes for an organization's summaries (``SQLiteStore/organizationSummary(organizationID:)`` and
    /// ``SQLiteStore/commissionTotals(organizationID:)``): each count and sum is read from an index alone, in group
    /// order, without visiting a customer's or a commission's row. Without them the Overview reads every row of
    /// an organization's customers and commissions through their other indexes.
    static let summaries: Step = """
        CREATE INDEX customers_by_status ON customers (organization_id, status);
        CREATE INDEX commissions_by_partner_status ON commissions (organization_id, partner_id, status, amount);
        """
}
