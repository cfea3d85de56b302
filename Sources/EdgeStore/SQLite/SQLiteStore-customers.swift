extension SQLiteStore {
    static let customerColumns = """
        id, organization_id, customer_id, partner_id, program_id, code, click_id, status, claimed_at, first_seen_at
        """

    static func customer(_ row: SQLiteRow) -> CustomerRecord {
        CustomerRecord(
            id: row.text(0), organizationID: row.text(1), customerID: row.text(2), partnerID: row.text(3),
            programID: row.text(4), code: row.text(5), clickID: row.optionalText(6), status: row.text(7),
            claimedAt: row.int(8), firstSeenAt: row.optionalInt(9))
    }

    public func claim(_ customer: CustomerRecord) throws -> (customer: CustomerRecord, created: Bool) {
        try withConnection { db in
            try db.transaction {
                // The unique (organization_id, customer_id) index decides between racing claims: the second
                // insert changes nothing and reads the winner back.
                try db.query(
                    """
                    INSERT INTO customers (\(Self.customerColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (organization_id, customer_id) DO NOTHING
                    """,
                    [
                        .text(customer.id), .text(customer.organizationID), .text(customer.customerID),
                        .text(customer.partnerID), .text(customer.programID), .text(customer.code),
                        .optional(customer.clickID), .text(customer.status), .integer(customer.claimedAt),
                        customer.firstSeenAt.map { .integer($0) } ?? .null,
                    ])
                let created = db.changes == 1
                let stored = try db.rows(
                    "SELECT \(Self.customerColumns) FROM customers WHERE organization_id = ? AND customer_id = ?",
                    [.text(customer.organizationID), .text(customer.customerID)], Self.customer)
                guard let winner = stored.first else {
                    throw StoreError.database("the customer vanished inside its own transaction")
                }
                return (winner, created)
            }
        }
    }

    public func customer(organizationID: String, customerID: String) throws -> CustomerRecord? {
        try withConnection { db in
            try db.rows(
                "SELECT \(Self.customerColumns) FROM customers WHERE organization_id = ? AND customer_id = ?",
                [.text(organizationID), .text(customerID)], Self.customer
            ).first
        }
    }

    public func customers(_ query: CustomerQuery) throws -> Page<CustomerRecord> {
        var sql = "SELECT \(Self.customerColumns) FROM customers WHERE organization_id = ?"
        var bindings: [SQLiteValue] = [.text(query.organizationID)]
        if let after = query.startingAfter {
            sql += " AND seq < (SELECT seq FROM customers WHERE id = ?)"
            bindings.append(.text(after))
        }
        if let partner = query.partnerID {
            sql += " AND partner_id = ?"
            bindings.append(.text(partner))
        }
        if let status = query.status {
            sql += " AND status = ?"
            bindings.append(.text(status))
        }
        if let customerID = query.customerID {
            sql += " AND customer_id = ?"
            bindings.append(.text(customerID))
        }
        let limit = max(1, min(query.limit, ClickQuery.maximumLimit))
        sql += " ORDER BY seq DESC LIMIT \(limit + 1)"
        let rows = try withConnection { try $0.rows(sql, bindings, Self.customer) }
        return Page(items: Array(rows.prefix(limit)), hasMore: rows.count > limit)
    }
}
