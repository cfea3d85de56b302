import LinkCore

extension SQLStore {
    /// The commissions a payout may still take: never paid, or paid, taken back and turned `pending` again (a refund
    /// RevenueCat reversed after a payout had netted it), which are owed once more. Written as the partial index
    /// `commissions_payable` is (a partial index serves only a query that states its condition).
    static var payable: String { "(payout_id IS NULL OR reversal_payout_id IS NOT NULL)" }
    /// The paid commissions turned `reversed` that no payout took back yet, as the partial index
    /// `commissions_to_net` is written.
    static var toNet: String { "status = 'reversed' AND payout_id IS NOT NULL AND reversal_payout_id IS NULL" }

    /// What a payout pays: the partner's (`?2`) pending commissions created before `?3` it may take, found through
    /// `commissions_payable`.
    static var payoutPendingCondition: String {
        "organization_id = ?1 AND partner_id = ?2 AND status = 'pending' AND created_at < ?3 AND \(payable)"
    }
    /// What a payout takes back, found through `commissions_to_net`.
    static var payoutNettedCondition: String { "organization_id = ?1 AND partner_id = ?2 AND \(toNet)" }

    public func createPayout(_ payout: PayoutRecord) throws -> PayoutOutcome {
        try withConnection { db in
            // The organization's webhook transaction: a payout, the events that create or reverse its commissions,
            // and other payouts of the organization run one after another on every node, so what is summed here is
            // what is marked below, and no commission is taken by two payouts.
            try Self.webhookTransaction(db, organizationID: payout.organizationID) {
                let organization = SQLValue.text(payout.organizationID)
                let partner = SQLValue.text(payout.partnerID)
                // A post naming a reference this partner's payout already holds is that payout again (a retry whose
                // answer was lost): sums taken now would differ whenever an event came in between (a refund's reversal
                // owed again, a purchase of a moment before `created_before` stored late), and a second payout of the
                // same transfer would be recorded for money paid once.
                if let reference = payout.reference {
                    var existing: PayoutRecord?
                    try db.query(
                        "SELECT \(Self.payoutColumns) FROM payouts WHERE organization_id = ? AND partner_id = ? "
                            + "AND reference = ? ORDER BY seq LIMIT 1", [organization, partner, .text(reference)]
                    ) { existing = Self.payout($0) }
                    if let existing { return .existing(existing) }
                }
                let pendingCondition = Self.payoutPendingCondition
                let nettedCondition = Self.payoutNettedCondition
                var paid = (count: Int64(0), cents: Int64(0))
                try db.query(
                    "SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM commissions WHERE \(pendingCondition)",
                    [organization, partner, .integer(payout.createdBefore)]
                ) { paid = ($0.int(0), $0.int(1)) }
                var netted = (count: Int64(0), cents: Int64(0))
                try db.query(
                    "SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM commissions WHERE \(nettedCondition)",
                    [organization, partner]
                ) { netted = ($0.int(0), $0.int(1)) }
                guard paid.count > 0 || netted.count > 0 else { return .nothingToPay }
                let amount = paid.cents - netted.cents
                guard amount >= 0 else { return .negativeBalance(cents: -amount) }

                var record = payout
                record.amountCents = amount
                record.currency = "USD"
                record.commissionCount = paid.count
                record.commissionCents = paid.cents
                record.reversalCount = netted.count
                record.reversalCents = netted.cents
                try db.query(
                    """
                    INSERT INTO payouts (id, organization_id, partner_id, created_at, created_before, reference, amount,
                        currency, commission_count, commission_cents, reversal_count, reversal_cents)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(record.id), organization, partner, .integer(record.createdAt),
                        .integer(record.createdBefore), .optional(record.reference), .integer(amount),
                        .text(record.currency), .integer(paid.count), .integer(paid.cents), .integer(netted.count),
                        .integer(netted.cents),
                    ])
                // The same conditions as the sums, in the same transaction: the counts must agree, and a store that
                // let another writer in between is refused (the transaction rolls back) rather than trusted.
                try db.query(
                    "UPDATE commissions SET payout_id = ?4, reversal_payout_id = NULL WHERE \(pendingCondition)",
                    [organization, partner, .integer(payout.createdBefore), .text(record.id)])
                guard db.changes == paid.count else {
                    throw StoreError.conflict("the partner's commissions changed while the payout was recorded")
                }
                try db.query(
                    "UPDATE commissions SET reversal_payout_id = ?3 WHERE \(nettedCondition)",
                    [organization, partner, .text(record.id)])
                guard db.changes == netted.count else {
                    throw StoreError.conflict("the partner's commissions changed while the payout was recorded")
                }
                return .created(record)
            }
        }
    }

    public func payouts(_ query: PayoutQuery) throws -> Page<PayoutRecord> {
        var sql = "SELECT \(Self.payoutColumns) FROM payouts WHERE organization_id = ?"
        var bindings: [SQLValue] = [.text(query.organizationID)]
        sql += try condition(
            after: query.startingAfter, seq: "seq", in: "payouts", organizationID: query.organizationID,
            noun: "payout", bindings: &bindings)
        if let partner = query.partnerID {
            sql += " AND partner_id = ?"
            bindings.append(.text(partner))
        }
        return try page(sql, bindings, order: "seq", limit: query.limit, Self.payout)
    }

    /// The columns ``payout(_:)`` reads, in its order.
    static var payoutColumns: String {
        "id, organization_id, partner_id, created_at, created_before, reference, amount, currency, commission_count, "
            + "commission_cents, reversal_count, reversal_cents"
    }

    static func payout(_ row: Connection.Row) -> PayoutRecord {
        PayoutRecord(
            id: row.text(0), organizationID: row.text(1), partnerID: row.text(2), createdAt: row.int(3),
            createdBefore: row.int(4), reference: row.optionalText(5), amountCents: row.int(6),
            currency: row.text(7), commissionCount: row.int(8), commissionCents: row.int(9),
            reversalCount: row.int(10), reversalCents: row.int(11))
    }

    public func partnerBalances(organizationID: String, partnerIDs: [String]) throws -> [String: PartnerBalance] {
        guard !partnerIDs.isEmpty else { return [:] }
        precondition(partnerIDs.count <= ClickQuery.maximumLimit, "a page of partners at most")
        var bindings: [SQLValue] = [.text(organizationID)]
        guard let partners = Self.matching("partner_id", partnerIDs, bindings: &bindings) else { return [:] }
        return try withConnection { db in
            // One read transaction: a payout committed meanwhile is seen whole (its commissions paid and its sum) or
            // not at all.
            try db.readTransaction {
                var balances: [String: PartnerBalance] = [:]
                try db.query(
                    """
                    SELECT partner_id, SUM(amount) FROM commissions WHERE organization_id = ?\(partners)
                    AND status = 'pending' AND \(Self.payable) GROUP BY partner_id
                    """, bindings
                ) { balances[$0.text(0), default: PartnerBalance()].unpaidCents = $0.int(1) }
                try db.query(
                    """
                    SELECT partner_id, SUM(amount) FROM commissions WHERE organization_id = ?\(partners)
                    AND \(Self.toNet) GROUP BY partner_id
                    """, bindings
                ) { balances[$0.text(0), default: PartnerBalance()].owedBackCents = $0.int(1) }
                try db.query(
                    "SELECT partner_id, SUM(amount) FROM payouts WHERE organization_id = ?\(partners) GROUP BY partner_id",
                    bindings
                ) { balances[$0.text(0), default: PartnerBalance()].paidCents = $0.int(1) }
                return balances
            }
        }
    }
}
