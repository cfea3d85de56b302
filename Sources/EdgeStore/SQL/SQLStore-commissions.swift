import LinkCore

extension SQLStore {
    public func recordWebhookEvent(
        _ event: WebhookEventRecord, plan: (RevenueCatEvent, CommissionLedger) -> WebhookPlan
    ) throws -> (outcome: WebhookOutcome, replayed: [WebhookOutcome]) {
        try withConnection { db in
            try Self.webhookTransaction(db, organizationID: event.organizationID) {
                // The unique (organization_id, event_id) decides between a delivery and its redelivery, racing
                // or not: the second insert changes nothing and the event is not applied again.
                try db.query(
                    """
                    INSERT INTO webhook_events (organization_id, event_id, received_at, type, environment,
                        app_user_id, outcome, body) VALUES (?, ?, ?, ?, ?, ?, '', ?)
                    ON CONFLICT (organization_id, event_id) DO NOTHING
                    """,
                    [
                        .text(event.organizationID), .text(event.eventID), .integer(event.receivedAt),
                        .text(event.type), .optional(event.environment), .optional(event.appUserID),
                        .text(String(decoding: event.body, as: UTF8.self)),
                    ])
                guard db.changes == 1 else { return (.duplicate, []) }
                try Self.forgetUnattributed(db, organizationID: event.organizationID, before: event.receivedAt)
                let applied = try Self.apply(event, db: db, attributedAt: nil, plan: plan)
                // The ids it tied now lead to a customer: their events stored `unattributed` are applied now, as a
                // claim of them would, rather than never (they can no longer be claimed as a new customer).
                let replayed = try Self.replayUnattributed(
                    of: applied.tied, organizationID: event.organizationID, attributedAt: event.receivedAt, db: db,
                    plan: plan)
                return (applied.outcome, replayed)
            }
        }
    }

    /// Finds the event's customer, reads its ledger, plans and writes the plan, and records on the stored event
    /// what it did: for an event as it arrives, and for one stored `unattributed` and applied later (`attributedAt`,
    /// the time of the claim or of the event that tied its ids). Runs inside the organization's webhook transaction.
    /// Returns what it did and the user ids it tied to a customer (those whose tie it wrote).
    static func apply(
        _ event: WebhookEventRecord, db: Connection, attributedAt: Int64?,
        plan: (RevenueCatEvent, CommissionLedger) -> WebhookPlan
    ) throws -> (outcome: WebhookOutcome, tied: [String]) {
        let organization = SQLValue.text(event.organizationID)
        var event = event
        // The customer of a known transaction is the one that made the purchase, whatever ids a later event of it
        // carries (a refund can arrive under another id, before the TRANSFER that links it); a renewal's is the
        // one that bought its subscription. Else the event's user ids say. Whose they are is read either way: the
        // planner ties them to it (or, when they lead to nobody, to the customer of the purchase).
        var customer: CommissionLedger.Customer?
        if event.event.store == "STRIPE" {
            // Which key the store holds the purchase under is decided here, before planning: the planner stays pure.
            (event.event.transactionID, customer) = try stripePurchase(event, db: db)
        } else {
            customer = try transactionOwner(db, organizationID: event.organizationID, event.transactionID)
            if customer == nil, event.originalTransactionID != event.transactionID {
                customer = try transactionOwner(db, organizationID: event.organizationID, event.originalTransactionID)
            }
        }
        let userIDsCustomer = try owner(db, organizationID: event.organizationID, ofAny: event.lookupIDs)
        customer = customer ?? userIDsCustomer
        // RevenueCat reports a refund of a subscription's latest period only: a Stripe one that does not say which
        // (`"renewal_number": null`) takes back the latest period the customer has, when it has one, not the bare
        // id, which holds none of them (it answered `refunded` and reversed nothing).
        if event.event.store == "STRIPE", event.event.renewalNumber == nil,
            event.event.isRefund || event.type == "REFUND_REVERSED", let customer,
            let bare = event.event.unkeyedTransactionID,
            let latest = try latestStripePeriod(db, organizationID: event.organizationID, of: bare, customer: customer)
        {
            event.event.transactionID = latest
        }
        // The event's transaction, and the customer's other paid purchases counted, not read: a customer with
        // years of renewals costs one indexed count, not a row each.
        var transactions: [CommissionLedger.Transaction] = []
        if let id = event.transactionID {
            transactions = try Self.transactions(db, "t.transaction_id = ?2", [organization, .text(id)])
        }
        var otherPaid = CommissionLedger.PaidSummary()
        if let customer {
            try db.query(
                """
                SELECT COUNT(*), COALESCE(SUM(refunded), 0) FROM transactions
                WHERE customer = ? AND (revenue_cents > 0 OR price_unknown = 1) AND transaction_id <> ?
                """, [.text(customer.id), .text(event.transactionID ?? "")]
            ) { otherPaid = CommissionLedger.PaidSummary(count: Int($0.int(0)), refunded: Int($0.int(1))) }
        }
        let decided = plan(
            event.event,
            CommissionLedger(
                customer: customer, transactions: transactions, otherPaid: otherPaid,
                userIDsCustomerID: userIDsCustomer?.id))
        // A commission is created now: when the event arrives, or when the claim or tie that applies it later does
        // (never before its customer's claim); its purchase keeps its own time.
        let tied = try Self.apply(
            decided, event: event, customer: customer, createdAt: attributedAt ?? event.receivedAt, db: db)
        try db.query(
            """
            UPDATE webhook_events SET customer = ?, outcome = ?, attributed_at = ?
            WHERE organization_id = ? AND event_id = ?
            """,
            [
                .optional(customer?.id), .text(decided.outcome.rawValue), attributedAt.map { .integer($0) } ?? .null,
                organization, .text(event.eventID),
            ])
        if decided.outcome == .unattributed {
            try rememberUnattributed(event, db: db)
        }
        return (decided.outcome, tied)
    }

    /// The customer that made the purchase `transactionID`, when the store has it.
    private static func transactionOwner(_ db: Connection, organizationID: String, _ transactionID: String?) throws
        -> CommissionLedger.Customer?
    {
        guard let transactionID else { return nil }
        return try db.rows(
            """
            SELECT \(ledgerColumns)
            FROM transactions t JOIN customers c ON c.id = t.customer
            WHERE t.organization_id = ? AND t.transaction_id = ?
            """, [.text(organizationID), .text(transactionID)], Self.ledgerCustomer
        ).first
    }

    /// The key a Stripe event's purchase is stored under, and the customer of that purchase or else of its
    /// subscription's first period, in one indexed lookup (of the keys below, at most five).
    ///
    /// The key is ``RevenueCatEvent/transactionID`` (`sub_1#3`) or, in a store that recorded Stripe purchases before
    /// they were keyed by period, the bare id (``RevenueCatEvent/unkeyedTransactionID``): such a store holds each
    /// subscription's first recorded period bare, and that period's redelivery under a new event id (a second
    /// commission) or its refund (which reversed nothing) must find that row, not make another. The bare row is
    /// the event's period when no row has the keyed id and the event is the first period, or was bought at the bare
    /// row's purchase time (a subscription claimed in its third period recorded that one bare). Any other period
    /// is a purchase of its own: falling back for every period would make each renewal after the upgrade a
    /// `duplicate_transaction` of the first.
    ///
    /// The first period is `#1` or, in such a store (or from an event without a period), the bare id: a renewal
    /// under another user id (after a `TRANSFER`, on a new device) finds the subscription's customer by either.
    private static func stripePurchase(_ event: WebhookEventRecord, db: Connection) throws
        -> (transactionID: String?, customer: CommissionLedger.Customer?)
    {
        let keyed = event.transactionID
        let bare = event.event.unkeyedTransactionID
        let firstPeriods = [
            event.originalTransactionID, event.event.unkeyedOriginalTransactionID,
            event.event.unkeyedOriginalTransactionID.map { $0 + "#1" },
        ]
        var ids: [String] = []
        for case let id? in [keyed, bare] + firstPeriods where !ids.contains(id) { ids.append(id) }
        guard !ids.isEmpty else { return (keyed, nil) }
        let rows = try db.rows(
            """
            SELECT \(ledgerColumns), t.transaction_id, t.purchased_at
            FROM transactions t LEFT JOIN customers c ON c.id = t.customer
            WHERE t.organization_id = ? AND t.transaction_id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))
            """, [.text(event.organizationID)] + ids.map { .text($0) }
        ) { row in
            (
                id: row.text(9), purchasedAt: row.optionalInt(10),
                customer: row.optionalText(0) == nil ? nil : Self.ledgerCustomer(row)
            )
        }
        func stored(_ id: String?) -> (id: String, purchasedAt: Int64?, customer: CommissionLedger.Customer?)? {
            id.flatMap { id in rows.first { $0.id == id } }
        }
        var key = keyed
        if let period = event.event.renewalNumber, stored(keyed) == nil, let row = stored(bare),
            period == 1 || (row.purchasedAt != nil && row.purchasedAt == event.event.purchasedAt)
        {
            key = bare
        }
        let customer = ([key] + firstPeriods).lazy.compactMap { stored($0)?.customer }.first
        return (key, customer)
    }

    /// How many keys ``latestStripePeriod(_:organizationID:of:customer:)`` reads, the longest first: the latest
    /// period is the first whose suffix is a period. Only another store's transaction id that begins with a Stripe
    /// subscription's id and `#` could come before it, and Stripe's ids have no `#`.
    static var latestPeriodCandidates: Int { 8 }

    /// The key of the latest period (`bare#N`, the highest N by number: `#10` after `#9`) the customer has of the
    /// Stripe subscription `bare`, or `nil` when it has none. One lookup by the customer's index, reading at most
    /// ``latestPeriodCandidates`` keys: keys are written without leading zeros, so the longest is the highest, and
    /// of those of one length the last in byte order.
    private static func latestStripePeriod(
        _ db: Connection, organizationID: String, of bare: String, customer: CommissionLedger.Customer
    ) throws -> String? {
        let prefix = bare + "#"
        let order = Self.dialect.byteOrder
        let keys = try db.rows(
            """
            SELECT transaction_id FROM transactions
            WHERE customer = ? AND organization_id = ? AND transaction_id\(order) > ? AND transaction_id\(order) < ?
            ORDER BY length(transaction_id) DESC, transaction_id\(order) DESC LIMIT \(latestPeriodCandidates)
            """, [.text(customer.id), .text(organizationID), .text(prefix), .text(bare + "$")]
        ) { $0.text(0) }
        return keys.first { key in
            guard key.utf8.starts(with: prefix.utf8) else { return false }
            let period = String(decoding: key.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
            return RevenueCatEvent.integer(period, in: 1...RevenueCatEvent.maximumRenewalNumber).map(String.init)
                == period
        }
    }

    /// The columns ``ledgerCustomer(_:)`` reads, then `seq`.
    static var ledgerColumns: String {
        "c.id, c.partner_id, c.program_id, c.status, c.lifecycle, c.status_changed_at, c.first_paid_at, c.claimed_at, c.seq"
    }

    static func ledgerCustomer(_ row: Connection.Row) -> CommissionLedger.Customer {
        CommissionLedger.Customer(
            id: row.text(0), partnerID: row.text(1), programID: row.text(2),
            status: CustomerStatus(rawValue: row.text(3)) ?? .lead,
            lifecycle: CustomerStatus(rawValue: row.text(4)) ?? .lead, statusChangedAt: row.optionalInt(5),
            firstPaidAt: row.optionalInt(6), claimedAt: row.int(7))
    }

    /// The customer `ids` lead to: of the customers claimed with one of them or tied to one (by a `TRANSFER`, or
    /// by an event that named it beside the customer's id), the one claimed first, as a claim finds its owner
    /// (``ownerCondition``, one id at a time).
    private static func owner(_ db: Connection, organizationID: String, ofAny ids: [String]) throws
        -> CommissionLedger.Customer?
    {
        var first: (customer: CommissionLedger.Customer, seq: Int64)?
        for id in ids {
            let found = try db.rows(
                "SELECT \(ledgerColumns) FROM customers c WHERE \(ownerCondition)",
                [.text(organizationID), .text(id)]
            ) { (customer: Self.ledgerCustomer($0), seq: $0.int(8)) }
            guard let candidate = found.first else { continue }
            if let current = first,
                (current.customer.claimedAt ?? 0, current.seq) <= (candidate.customer.claimedAt ?? 0, candidate.seq)
            {
                continue
            }
            first = candidate
        }
        return first?.customer
    }

    private static func transactions(_ db: Connection, _ condition: String, _ bindings: [SQLValue]) throws
        -> [CommissionLedger.Transaction]
    {
        try db.rows(
            """
            SELECT t.transaction_id, t.customer, t.revenue_cents, t.purchased_at, t.refunded, t.refund_changed_at,
                m.id, m.status, t.price_unknown
            FROM transactions t LEFT JOIN commissions m
                ON m.organization_id = t.organization_id AND m.transaction_id = t.transaction_id
            WHERE t.organization_id = ?1 AND \(condition)
            """, bindings
        ) { row in
            CommissionLedger.Transaction(
                transactionID: row.text(0), customerID: row.optionalText(1), revenueCents: row.optionalInt(2),
                purchasedAt: row.optionalInt(3), refunded: row.int(4) != 0, refundChangedAt: row.optionalInt(5),
                commission: row.optionalText(6).map {
                    CommissionLedger.Commission(id: $0, status: CommissionStatus(rawValue: row.text(7)) ?? .pending)
                }, priceUnknown: row.int(8) != 0)
        }
    }

    /// Writes `plan`, its new commission created at `createdAt`; returns the ids whose tie to
    /// ``WebhookPlan/aliasesCustomerID`` it wrote.
    private static func apply(
        _ plan: WebhookPlan, event: WebhookEventRecord, customer: CommissionLedger.Customer?, createdAt: Int64,
        db: Connection
    ) throws -> [String] {
        let organization = SQLValue.text(event.organizationID)
        for transaction in plan.transactions {
            try db.query(
                """
                INSERT INTO transactions (organization_id, transaction_id, customer, revenue_cents, purchased_at,
                    refunded, refund_changed_at, price_unknown) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (organization_id, transaction_id) DO UPDATE SET customer = excluded.customer,
                    revenue_cents = excluded.revenue_cents, purchased_at = excluded.purchased_at,
                    refunded = excluded.refunded, refund_changed_at = excluded.refund_changed_at,
                    price_unknown = excluded.price_unknown
                """,
                [
                    organization, .text(transaction.transactionID), .optional(transaction.customerID),
                    transaction.revenueCents.map { .integer($0) } ?? .null,
                    transaction.purchasedAt.map { .integer($0) } ?? .null, .integer(transaction.refunded ? 1 : 0),
                    transaction.refundChangedAt.map { .integer($0) } ?? .null,
                    .integer(transaction.priceUnknown ? 1 : 0),
                ])
        }
        if let commission = plan.newCommission, let customer {
            try db.query(
                """
                INSERT INTO commissions (id, organization_id, created_at, partner_id, program_id, customer, event_id,
                    transaction_id, product_id, revenue_cents, amount, currency, status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'USD', ?)
                ON CONFLICT (organization_id, transaction_id) DO NOTHING
                """,
                [
                    .text(commission.id), organization, .integer(createdAt), .text(customer.partnerID),
                    .text(customer.programID), .text(customer.id), .text(event.eventID),
                    .text(commission.transactionID), .optional(commission.productID),
                    .integer(commission.revenueCents), .integer(commission.amountCents),
                    .text(commission.status.rawValue),
                ])
        }
        for change in plan.commissionStatuses {
            try db.query(
                "UPDATE commissions SET status = ? WHERE id = ? AND organization_id = ?",
                [.text(change.status.rawValue), .text(change.id), organization])
        }
        guard let customer else { return [] }
        if let change = plan.customerStatus {
            try db.query(
                "UPDATE customers SET status = ? WHERE id = ?", [.text(change.status.rawValue), .text(customer.id)])
        }
        if let change = plan.lifecycle {
            try db.query(
                "UPDATE customers SET lifecycle = ?, status_changed_at = ? WHERE id = ?",
                [.text(change.status.rawValue), .integer(change.at), .text(customer.id)])
        }
        if let firstPaidAt = plan.firstPaidAt {
            try db.query(
                "UPDATE customers SET first_paid_at = ? WHERE id = ?", [.integer(firstPaidAt), .text(customer.id)])
        }
        // An id keeps the customer of the newest event that tied it: an older TRANSFER delivered late does not
        // move back an id a newer one moved (ids tied before event times were kept may be moved by any event).
        guard let tiedTo = plan.aliasesCustomerID else { return [] }
        var tied: [String] = []
        for alias in plan.aliases {
            try db.query(
                """
                INSERT INTO customer_aliases (organization_id, app_user_id, customer, changed_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (organization_id, app_user_id) DO UPDATE SET customer = excluded.customer,
                    changed_at = excluded.changed_at
                WHERE customer_aliases.changed_at IS NULL OR customer_aliases.changed_at <= excluded.changed_at
                """, [organization, .text(alias), .text(tiedTo), .integer(plan.aliasesChangedAt)])
            if db.changes == 1 { tied.append(alias) }
        }
        return tied
    }

    public func commissions(_ query: CommissionQuery) throws -> Page<CommissionRecord> {
        var sql = """
            SELECT m.id, m.created_at, m.organization_id, m.partner_id, m.program_id, m.customer, c.customer_id,
                m.event_id, m.transaction_id, m.product_id, m.revenue_cents, m.amount, m.currency, m.status,
                m.payout_id, m.reversal_payout_id
            FROM commissions m JOIN customers c ON c.id = m.customer
            WHERE m.organization_id = ?
            """
        var bindings: [SQLValue] = [.text(query.organizationID)]
        sql += try condition(
            after: query.startingAfter, seq: "m.seq", in: "commissions", organizationID: query.organizationID,
            noun: "commission", bindings: &bindings)
        if let partner = query.partnerID {
            sql += " AND m.partner_id = ?"
            bindings.append(.text(partner))
        }
        if let customer = query.customerID {
            let named = try customers(named: customer, organizationID: query.organizationID)
            guard let condition = Self.matching("m.customer", named, bindings: &bindings) else {
                return Page(items: [], hasMore: false)
            }
            sql += condition
        }
        if let status = query.status {
            sql += " AND m.status = ?"
            bindings.append(.text(status.rawValue))
        }
        // Half-open, as a payout's `created_before` is: consecutive ranges share no commission.
        if let since = query.createdSince {
            sql += " AND m.created_at >= ?"
            bindings.append(.integer(since))
        }
        if let before = query.createdBefore {
            sql += " AND m.created_at < ?"
            bindings.append(.integer(before))
        }
        // Unpaid: no payout holds it now, never paid or owed again (paid, taken back, its refund reversed), the
        // commissions a payout may take (``payable``); `status=pending&paid=false` adds up to the partner's
        // `unpaid_cents`. Paid: a payout settled it (paid it, or paid and took it back).
        if let paid = query.paid {
            let unpaid = "(m.payout_id IS NULL OR (m.reversal_payout_id IS NOT NULL AND m.status = 'pending'))"
            sql += paid ? " AND NOT \(unpaid)" : " AND \(unpaid)"
        }
        if let payout = query.payoutID {
            let found = try withConnection { db in
                try db.rows(
                    "SELECT 1 FROM payouts WHERE organization_id = ? AND id = ?",
                    [.text(query.organizationID), .text(payout)]
                ) { _ in true }
            }
            guard !found.isEmpty else { throw StoreError.unknownFilter("\(payout) is no payout of this organization") }
            sql += " AND (m.payout_id = ? OR m.reversal_payout_id = ?)"
            bindings += [.text(payout), .text(payout)]
        }
        return try page(sql, bindings, order: "m.seq", limit: query.limit) { row in
            CommissionRecord(
                id: row.text(0), createdAt: row.int(1), organizationID: row.text(2), partnerID: row.text(3),
                programID: row.text(4), customer: row.text(5), customerID: row.text(6), eventID: row.text(7),
                transactionID: row.text(8), productID: row.optionalText(9), revenueCents: row.int(10),
                amountCents: row.int(11), currency: row.text(12),
                status: CommissionStatus(rawValue: row.text(13)) ?? .pending, payoutID: row.optionalText(14),
                reversalPayoutID: row.optionalText(15))
        }
    }

    public func webhookEvents(organizationID: String, limit: Int, startingAfter: String?) throws
        -> Page<StoredWebhookEvent>
    {
        var bindings: [SQLValue] = [.text(organizationID)]
        let after = try condition(
            after: startingAfter, seq: "seq", in: "webhook_events", idColumn: "event_id",
            organizationID: organizationID, noun: "webhook event", bindings: &bindings)
        // The sizes first, then the bodies of the events that fit the page's budget: no body past it is sent from the
        // store. (PostgreSQL reads a body's size without its text; SQLite before 3.43, Debian 12's, reads the text to
        // measure it, on this worker thread, never the loops: a page's answer is still bounded.)
        let sizes = try page(
            "SELECT seq, \(Self.dialect.bodyBytes) FROM webhook_events WHERE organization_id = ?\(after)", bindings,
            order: "seq", limit: limit
        ) { (seq: $0.int(0), bytes: $0.int(1)) }
        let kept = StoredWebhookEvent.fittingPage(sizes.items.map(\.bytes))
        guard kept > 0 else { return Page(items: [], hasMore: false) }
        // The rows counted, by their seq: a row committed between the two reads (PostgreSQL's seqs can commit out of
        // order) is not slipped into the page uncounted.
        let events = try withConnection { db in
            try db.rows(
                """
                SELECT event_id, type, environment, app_user_id, customer, outcome, received_at, body, attributed_at
                FROM webhook_events WHERE organization_id = ?1
                AND seq IN (\((2...(kept + 1)).map { "?\($0)" }.joined(separator: ", "))) ORDER BY seq DESC
                """, [.text(organizationID)] + sizes.items.prefix(kept).map { .integer($0.seq) }
            ) { row in
                StoredWebhookEvent(
                    eventID: row.text(0), type: row.text(1), environment: row.optionalText(2),
                    appUserID: row.optionalText(3), customer: row.optionalText(4), outcome: row.text(5),
                    receivedAt: row.int(6), body: Array(row.text(7).utf8), attributedAt: row.optionalInt(8))
            }
        }
        return Page(items: events, hasMore: sizes.hasMore || kept < sizes.items.count)
    }
}
