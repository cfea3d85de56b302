import LinkCore

extension SQLStore {
    /// Customers per status. Each query reads only a covering index (SQLite: migration step 9,
    /// SQLiteMigrations+Summaries; a test holds them to it with `EXPLAIN QUERY PLAN`).
    static var customerStatusCountsSQL: String {
        "SELECT status, COUNT(*) FROM customers WHERE organization_id = ? GROUP BY status"
    }
    /// Commissions per status: count and cents.
    static var commissionStatusTotalsSQL: String {
        "SELECT status, COUNT(*), SUM(amount) FROM commissions WHERE organization_id = ? GROUP BY status"
    }
    /// Commissions per partner and status, in that order: count and cents.
    static var partnerCommissionTotalsSQL: String {
        """
        SELECT partner_id, status, COUNT(*), SUM(amount) FROM commissions WHERE organization_id = ?
        GROUP BY partner_id, status ORDER BY partner_id, status
        """
    }

    public func organizationSummary(organizationID: String) throws -> OrganizationSummary {
        let organization: [SQLValue] = [.text(organizationID)]
        return try withConnection { db in
            // One read transaction: the customers and the commissions are counted at the same moment, so a
            // webhook committed between the two queries cannot show a commission without its paying customer.
            try db.readTransaction {
                var summary = OrganizationSummary(claims: 0, customersByStatus: [:], commissionsByStatus: [:])
                try db.query(Self.customerStatusCountsSQL, organization) { row in
                    summary.customersByStatus[row.text(0)] = row.int(1)
                    summary.claims += row.int(1)
                }
                try db.query(Self.commissionStatusTotalsSQL, organization) { row in
                    guard let status = CommissionStatus(rawValue: row.text(0)) else { return }
                    summary.commissionsByStatus[status] = CommissionTotal(count: row.int(1), amountCents: row.int(2))
                }
                return summary
            }
        }
    }

    public func commissionTotals(organizationID: String) throws -> [PartnerCommissionTotal] {
        try withConnection { db in
            try db.rows(Self.partnerCommissionTotalsSQL, [.text(organizationID)]) { row -> PartnerCommissionTotal? in
                guard let status = CommissionStatus(rawValue: row.text(1)) else { return nil }
                return PartnerCommissionTotal(
                    partnerID: row.text(0), status: status,
                    total: CommissionTotal(count: row.int(2), amountCents: row.int(3)))
            }.compactMap { $0 }
        }
    }
}
