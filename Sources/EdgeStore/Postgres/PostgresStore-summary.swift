import LinkCore

extension PostgresStore {
    public func organizationSummary(organizationID: String) throws -> OrganizationSummary {
        let organization: [SQLValue] = [.text(organizationID)]
        return try withConnection { db in
            // One repeatable-read transaction: the customers and the commissions are counted at the same moment, so a
            // webhook committed between the two queries cannot show a commission without its paying customer.
            try db.transaction {
                try db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                var summary = OrganizationSummary(claims: 0, customersByStatus: [:], commissionsByStatus: [:])
                try db.query(SQLiteStore.customerStatusCountsSQL, organization) { row in
                    summary.customersByStatus[row.text(0)] = row.int(1)
                    summary.claims += row.int(1)
                }
                try db.query(SQLiteStore.commissionStatusTotalsSQL, organization) { row in
                    guard let status = CommissionStatus(rawValue: row.text(0)) else { return }
                    summary.commissionsByStatus[status] = CommissionTotal(count: row.int(1), amountCents: row.int(2))
                }
                return summary
            }
        }
    }

    public func commissionTotals(organizationID: String) throws -> [PartnerCommissionTotal] {
        try withConnection { db in
            try db.rows(SQLiteStore.partnerCommissionTotalsSQL, [.text(organizationID)]) {
                row -> PartnerCommissionTotal? in
                guard let status = CommissionStatus(rawValue: row.text(1)) else { return nil }
                return PartnerCommissionTotal(
                    partnerID: row.text(0), status: status,
                    total: CommissionTotal(count: row.int(2), amountCents: row.int(3)))
            }.compactMap { $0 }
        }
    }
}
