import LinkCore

extension SQLStore {
    static var customerColumns: String {
        """
        id, organization_id, customer_id, partner_id, program_id, code, click_id, status, claimed_at, first_seen_at
        """
    }

    /// A customer with its totals: revenue of purchases not refunded, and pending commissions.
    static var customerSelect: String {
        """
        SELECT c.id, c.organization_id, c.customer_id, c.partner_id, c.program_id, c.code, c.click_id, c.status,
            c.claimed_at, c.first_seen_at,
            (SELECT COALESCE(SUM(t.revenue_cents), 0) FROM transactions t WHERE t.customer = c.id AND t.refunded = 0),
            (SELECT COALESCE(SUM(m.amount), 0) FROM commissions m WHERE m.customer = c.id AND m.status = 'pending')
        FROM customers c
        """
    }

    static func customer(_ row: Connection.Row) -> CustomerRecord {
        CustomerRecord(
            id: row.text(0), organizationID: row.text(1), customerID: row.text(2), partnerID: row.text(3),
            programID: row.text(4), code: row.text(5), clickID: row.optionalText(6), status: row.text(7),
            claimedAt: row.int(8), firstSeenAt: row.optionalInt(9), revenueCents: row.int(10),
            commissionCents: row.int(11))
    }

    /// The customers (their `cust_…` ids) that `id` names in the organization: the one whose own id it is, the one it
    /// was claimed as, and the one RevenueCat tied it to (a `TRANSFER`, or an event that named it beside an id of the
    /// customer: `customer_aliases`); at most three, as an id both claimed and tied to another customer names both.
    /// Lists filter by them, so that any id of a user finds its customer. Read first, by the three unique indexes, so
    /// that the list's own query filters by a few ids (`commissions_by_customer`) rather than testing the condition on
    /// every row of the organization.
    func customers(named id: String, organizationID: String) throws -> [String] {
        try withConnection { db in
            try db.rows(
                """
                SELECT id FROM customers WHERE organization_id = ?1 AND (customer_id = ?2 OR id = ?2)
                UNION SELECT customer FROM customer_aliases WHERE organization_id = ?1 AND app_user_id = ?2
                """, [.text(organizationID), .text(id)]
            ) { $0.text(0) }
        }
    }

    /// The ids tied to each of `count` customers (`customer_aliases`), but its own app user id (an event ties every
    /// id it names, the customer's own among them): for each customer, a part of its own that reads its first
    /// ``CustomerRecord/maximumAliases`` + 1 ids in byte order (one more than listed, to tell whether there are
    /// more) from `customer_aliases_by_customer`, in the index's order and then no further, so that neither the work
    /// nor the answer grows with the ids one customer has. One statement for a page. Bindings: the organization,
    /// then each customer's `cust_…` id and app user id. Rows: the customer, an id.
    static func aliasesSQL(customers count: Int) -> String {
        (0..<count).map { index in
            """
            SELECT customer, app_user_id FROM (SELECT customer, app_user_id FROM customer_aliases
                WHERE organization_id = ?1 AND customer = ?\(2 + 2 * index) AND app_user_id <> ?\(3 + 2 * index)
                ORDER BY app_user_id\(dialect.byteOrder) LIMIT \(CustomerRecord.maximumAliases + 1)) AS tied\(index)
            """
        }.joined(separator: "\nUNION ALL ")
    }

    /// `customers` with their ``CustomerRecord/aliases`` and ``CustomerRecord/aliasesTruncated``, read in one
    /// statement (``aliasesSQL(customers:)``). Outside the page's own read: each id is tied to one customer at a
    /// time, so an id moved in between shows on one customer of the page or the other, never on both.
    func withAliases(_ customers: [CustomerRecord], organizationID: String) throws -> [CustomerRecord] {
        guard !customers.isEmpty else { return customers }
        var bindings: [SQLValue] = [.text(organizationID)]
        for customer in customers { bindings += [.text(customer.id), .text(customer.customerID)] }
        var tied: [String: [String]] = [:]
        try withConnection { db in
            try db.query(Self.aliasesSQL(customers: customers.count), bindings) { row in
                tied[row.text(0), default: []].append(row.text(1))
            }
        }
        return customers.map { customer in
            var customer = customer
            // Each part read its ids in byte order, but a UNION ALL promises no order for its rows: sorted again.
            let ids = (tied[customer.id] ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            customer.aliases = Array(ids.prefix(CustomerRecord.maximumAliases))
            customer.aliasesTruncated = ids.count > CustomerRecord.maximumAliases
            return customer
        }
    }

    /// ` AND column IN (…)` for `ids`, with their bindings; `nil` when there are none (the list is empty).
    static func matching(_ column: String, _ ids: [String], bindings: inout [SQLValue]) -> String? {
        guard !ids.isEmpty else { return nil }
        bindings += ids.map { .text($0) }
        return " AND \(column) IN (\(ids.map { _ in "?" }.joined(separator: ", ")))"
    }

    public func claim(
        _ customer: CustomerRecord, replaying plan: ((RevenueCatEvent, CommissionLedger) -> WebhookPlan)?
    ) throws -> (customer: CustomerRecord, created: Bool, replayed: [WebhookOutcome]) {
        try withConnection { db in
            // The organization's webhook transaction: a claim and an event of its user are applied one after the
            // other on every node, so the event either finds the customer or is stored for the claim to apply.
            try Self.webhookTransaction(db, organizationID: customer.organizationID) {
                // A user id already tied to a customer (by a RevenueCat TRANSFER or an event's aliases) has its
                // partner: first code wins.
                let owner = try db.rows(
                    "\(Self.customerSelect) WHERE \(Self.ownerCondition)",
                    [.text(customer.organizationID), .text(customer.customerID)], Self.customer)
                if let owner = owner.first { return (owner, false, []) }
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
                var replayed: [WebhookOutcome] = []
                if created, let plan {
                    replayed = try Self.replayUnattributed(
                        of: [customer.customerID], organizationID: customer.organizationID,
                        attributedAt: customer.claimedAt, db: db, plan: plan)
                }
                let stored = try db.rows(
                    "\(Self.customerSelect) WHERE c.organization_id = ? AND c.customer_id = ?",
                    [.text(customer.organizationID), .text(customer.customerID)], Self.customer)
                guard let winner = stored.first else {
                    throw StoreError.database("the customer vanished inside its own transaction")
                }
                return (winner, created, replayed)
            }
        }
    }

    public func customer(organizationID: String, customerID: String) throws -> CustomerRecord? {
        try withConnection { db in
            try db.rows(
                "\(Self.customerSelect) WHERE \(Self.ownerCondition)", [.text(organizationID), .text(customerID)],
                Self.customer
            ).first
        }
    }

    public func customers(_ query: CustomerQuery) throws -> Page<CustomerRecord> {
        var sql = "\(Self.customerSelect) WHERE c.organization_id = ?"
        var bindings: [SQLValue] = [.text(query.organizationID)]
        sql += try condition(
            after: query.startingAfter, seq: "c.seq", in: "customers", organizationID: query.organizationID,
            noun: "customer", bindings: &bindings)
        if let partner = query.partnerID {
            sql += " AND c.partner_id = ?"
            bindings.append(.text(partner))
        }
        if let status = query.status {
            sql += " AND c.status = ?"
            bindings.append(.text(status))
        }
        if let customerID = query.customerID {
            let named = try customers(named: customerID, organizationID: query.organizationID)
            guard let condition = Self.matching("c.id", named, bindings: &bindings) else {
                return Page(items: [], hasMore: false)
            }
            sql += condition
        }
        let customers = try page(sql, bindings, order: "c.seq", limit: query.limit, Self.customer)
        return Page(
            items: try withAliases(customers.items, organizationID: query.organizationID), hasMore: customers.hasMore)
    }
}
