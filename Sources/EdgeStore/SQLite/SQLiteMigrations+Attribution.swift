extension SQLiteMigrations {
    /// What makes an event's attribution the same whatever arrives first. `customer_aliases.changed_at`: the event
    /// time of the event that tied an id to its customer (a `TRANSFER`, or an event that named the id beside the
    /// customer's), so that an older event delivered late does not move it back; null for ids tied before this
    /// step, which any event may move. `webhook_events.attributed_at`: when a claim applied an event stored
    /// `unattributed` (the claim's time), null for every other event. `unattributed_user_ids`: the user ids of each
    /// `unattributed` event still young enough for a claim to apply it (``CommissionPlanner/claimTolerance``), so
    /// that a claim finds its user's events by index; rows leave when the event is applied or too old.
    /// `transactions.price_unknown`: a purchase paid at a price RevenueCat did not know (`price: null`), recorded
    /// with no revenue.
    static let attribution: Step = """
        ALTER TABLE customer_aliases ADD COLUMN changed_at INTEGER;
        ALTER TABLE webhook_events ADD COLUMN attributed_at INTEGER;
        ALTER TABLE transactions ADD COLUMN price_unknown INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE unattributed_user_ids (
            organization_id TEXT NOT NULL, app_user_id TEXT NOT NULL, event_id TEXT NOT NULL,
            event_time INTEGER NOT NULL, PRIMARY KEY (organization_id, app_user_id, event_id)) WITHOUT ROWID;
        CREATE INDEX unattributed_user_ids_by_event ON unattributed_user_ids (organization_id, event_id);
        CREATE INDEX unattributed_user_ids_by_time ON unattributed_user_ids (organization_id, event_time);
        """
}
