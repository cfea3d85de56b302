extension SQLiteMigrations {
    /// Payouts: what the app's team paid each partner, outside the edge, and which commissions each payment took.
    ///
    /// A payout row is written once, in the transaction that marks its commissions (``SQLStore/createPayout(_:)``):
    /// `payout_id` on each commission it paid, `reversal_payout_id` on each commission it took back (one a payout paid
    /// that turned `reversed` afterwards), so no commission is paid twice nor taken back twice. Both are null on every
    /// commission stored before this step, which are therefore unpaid, as they were.
    ///
    /// Indexes: `commissions_payable` holds only the commissions a payout may still take (never paid, or taken back
    /// and owed again), by partner, status and time: a payout and a partner's balance find through it only the rows
    /// they sum, however many commissions earlier payouts took. `commissions_to_net` holds the paid ones turned
    /// `reversed` not yet taken back, which stay few (keyed by status too, or SQLite prefers
    /// `commissions_by_partner_status`, which holds every reversed commission of the partner).
    /// `commissions_by_created`: the list's `created_since` and `created_before` are checked in the index as the list
    /// walks back by `seq`, without reading a row that fails them. Measured on 96,733 commissions of one organization
    /// created in `seq` order over a year (`bench-fill`, times then set by `seq`), a page of 21 before the first
    /// tenth: 70 ms walking `commissions_by_organization` (each skipped row read), 13 ms with this index. An index by
    /// `(organization_id, created_at)` was tried and refused: SQLite then reads the range and sorts it by `seq`,
    /// 495 ms for a range of nine tenths. `payouts_by_organization` and `payouts_by_partner`: the list of payouts
    /// newest first, and a partner's, each a walk back of one page.
    static let payouts: Step = """
        CREATE TABLE payouts (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, organization_id TEXT NOT NULL,
            partner_id TEXT NOT NULL, created_at INTEGER NOT NULL, created_before INTEGER NOT NULL, reference TEXT,
            amount INTEGER NOT NULL, currency TEXT NOT NULL, commission_count INTEGER NOT NULL,
            commission_cents INTEGER NOT NULL, reversal_count INTEGER NOT NULL, reversal_cents INTEGER NOT NULL);
        CREATE INDEX payouts_by_organization ON payouts (organization_id, seq);
        CREATE INDEX payouts_by_partner ON payouts (organization_id, partner_id, seq, amount);
        ALTER TABLE commissions ADD COLUMN payout_id TEXT;
        ALTER TABLE commissions ADD COLUMN reversal_payout_id TEXT;
        CREATE INDEX commissions_payable ON commissions (organization_id, partner_id, status, created_at, amount)
            WHERE payout_id IS NULL OR reversal_payout_id IS NOT NULL;
        CREATE INDEX commissions_to_net ON commissions (organization_id, partner_id, status, amount)
            WHERE status = 'reversed' AND payout_id IS NOT NULL AND reversal_payout_id IS NULL;
        CREATE INDEX commissions_by_created ON commissions (organization_id, seq, created_at);
        """
}
