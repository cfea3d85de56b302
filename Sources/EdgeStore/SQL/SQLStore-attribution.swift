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

    /// Applies, as if the claim had come first, the stored `unattributed` events of the user ids `ids` (a new
    /// customer's, or ids an event just tied to a customer), and of the ids those events tie in turn: for each id,
    /// those whose event time is at most ``CommissionPlanner/claimTolerance`` before the claim of the customer the id
    /// now leads to, oldest first, each once (the event leaves the index and its outcome is no longer
    /// `unattributed`), and at most ``CommissionPlanner/claimReplayLimit`` in all, chains of ties included: a flood
    /// of events cannot hold the organization's lock long, and a tie that leads back to an id already seen ends there.
    /// Each keeps what it did, with `attributedAt` (the claim's time, or the arrival of the event that tied its ids);
    /// returns what each did, in the order applied.
    static func replayUnattributed(
        of ids: [String], organizationID: String, attributedAt: Int64, db: Connection,
        plan: (RevenueCatEvent, CommissionLedger) -> WebhookPlan
    ) throws -> [WebhookOutcome] {
        let organization = SQLValue.text(organizationID)
        var pending = ArraySlice(ids)
        var seen: Set<[UInt8]> = []
        var outcomes: [WebhookOutcome] = []
        while outcomes.count < CommissionPlanner.claimReplayLimit, let id = pending.popFirst() {
            guard seen.insert(Array(id.utf8)).inserted else { continue }
            // One indexed look-up for the usual id, which has no stored event; the window is the owner's claim's.
            let stored = try db.rows(
                """
                SELECT e.event_id, e.received_at, e.body FROM unattributed_user_ids u JOIN webhook_events e
                    ON e.organization_id = u.organization_id AND e.event_id = u.event_id
                WHERE u.organization_id = ?1 AND u.app_user_id = ?2 AND e.outcome = 'unattributed'
                    AND u.event_time >= (SELECT c.claimed_at FROM customers c WHERE \(ownerCondition))
                        - \(CommissionPlanner.claimTolerance)
                ORDER BY u.event_time, e.seq LIMIT \(CommissionPlanner.claimReplayLimit)
                """, [organization, .text(id)]
            ) { (id: $0.text(0), receivedAt: $0.int(1), body: Array($0.text(2).utf8)) }
            for (eventID, receivedAt, body) in stored where outcomes.count < CommissionPlanner.claimReplayLimit {
                try db.query(
                    "DELETE FROM unattributed_user_ids WHERE organization_id = ? AND event_id = ?",
                    [organization, .text(eventID)])
                // Stored only once it parsed, so it parses again (but for one an older version stored with an id
                // now refused as too long or for a control character, or a field read of another type than
                // RevenueCat documents, which stays as it is); read as it was on
                // arrival: times checked against the arrival's clock, and a missing event time is the arrival's, as
                // it was then.
                guard
                    var record = try? WebhookEventRecord(
                        organizationID: organizationID, body: body, receivedAt: receivedAt)
                else { continue }
                record.event.timestamp = record.event.timestamp ?? receivedAt
                let applied = try apply(record, db: db, attributedAt: attributedAt, plan: plan)
                outcomes.append(applied.outcome)
                pending.append(contentsOf: applied.tied)
            }
        }
        return outcomes
    }
}
