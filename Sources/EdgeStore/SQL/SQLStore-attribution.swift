import LinkCore

/// Who owns a user id, for claims and webhooks alike, and the events that arrived before their user's claim.
extension SQLStore {
    /// The customer a user id (`?2`, in organization `?1`) leads to, for `FROM customers c`: of the customer
    /// claimed with the id and the one it is tied to (by a `TRANSFER`, or an event that named it beside that
    /// customer's id), the one claimed first. Claims and webhooks ask the same question, so they name the same owner.
    static var ownerCondition: String {
        """
        c.organization_id = ?1 AND (c.customer_id = ?2 OR c.id = (SELECT a.customer FROM customer_aliases a
            WHERE a.organization_id = ?1 AND a.app_user_id = ?2))
        ORDER BY c.claimed_at, c.seq LIMIT 1
        """
    }

    /// How long after its event time an `unattributed` event's ids are kept for a claim, in milliseconds: the
    /// claim tolerance, and ten minutes for the clocks of the nodes and of RevenueCat to differ.
    static var unattributedLifetime: Int64 { CommissionPlanner.claimTolerance + 600_000 }

    /// Indexes an `unattributed` event by its user ids, so that a claim of one of them finds it, unless it is
    /// already too old for any claim to come (``unattributedLifetime``).
    static func rememberUnattributed(_ event: WebhookEventRecord, db: Connection) throws {
        guard event.eventTime >= event.receivedAt - unattributedLifetime else { return }
        for id in event.lookupIDs {
            try db.query(
                """
                INSERT INTO unattributed_user_ids (organization_id, app_user_id, event_id, event_time)
                VALUES (?, ?, ?, ?) ON CONFLICT (organization_id, app_user_id, event_id) DO NOTHING
                """, [.text(event.organizationID), .text(id), .text(event.eventID), .integer(event.eventTime)])
        }
    }

    /// Drops the ids of the organization's `unattributed` events too old for a claim at `now` to apply: the
    /// index holds minutes of events, not their history.
    static func forgetUnattributed(_ db: Connection, organizationID: String, before now: Int64) throws {
        try db.query(
            "DELETE FROM unattributed_user_ids WHERE organization_id = ? AND event_time < ?",
            [.text(organizationID), .integer(now - unattributedLifetime)])
    }

    /// Applies, as if the claim had come first, the stored `unattributed` events of the user `customer` was just
    /// claimed with whose event time is at most ``CommissionPlanner/claimTolerance`` before the claim: oldest
    /// first, at most ``CommissionPlanner/claimReplayLimit``, each once (the event leaves the index and its outcome
    /// is no longer `unattributed`). Each keeps what it did, with the claim's time as `attributed_at`; returns what
    /// each did, in that order.
    static func replayUnattributed(
        for customer: CustomerRecord, db: Connection, plan: (RevenueCatEvent, CommissionLedger) -> WebhookPlan
    ) throws -> [WebhookOutcome] {
        let organization = SQLValue.text(customer.organizationID)
        let stored = try db.rows(
            """
            SELECT e.event_id, e.received_at, e.body FROM unattributed_user_ids u JOIN webhook_events e
                ON e.organization_id = u.organization_id AND e.event_id = u.event_id
            WHERE u.organization_id = ? AND u.app_user_id = ? AND u.event_time >= ? AND e.outcome = 'unattributed'
            ORDER BY u.event_time, e.seq LIMIT \(CommissionPlanner.claimReplayLimit)
            """,
            [
                organization, .text(customer.customerID),
                .integer(customer.claimedAt - CommissionPlanner.claimTolerance),
            ]
        ) { (id: $0.text(0), receivedAt: $0.int(1), body: Array($0.text(2).utf8)) }
        var outcomes: [WebhookOutcome] = []
        for (id, receivedAt, body) in stored {
            try db.query(
                "DELETE FROM unattributed_user_ids WHERE organization_id = ? AND event_id = ?",
                [organization, .text(id)])
            // Stored only once it parsed, so it parses again; read as it was on arrival: times checked against
            // the arrival's clock, and a missing event time is the arrival's, as it was then.
            guard var event = try? RevenueCatEvent(body: body) else { continue }
            event.ignoreTimes(after: receivedAt)
            event.timestamp = event.timestamp ?? receivedAt
            let record = WebhookEventRecord(
                organizationID: customer.organizationID, event: event, receivedAt: receivedAt, body: body)
            outcomes.append(try apply(record, db: db, attributedAt: customer.claimedAt) { plan(event, $0) })
        }
        return outcomes
    }
}
