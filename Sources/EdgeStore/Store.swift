import LinkCore

/// The persistence seam. SQLite implements it today and PostgreSQL will; nothing above `EdgeStore` knows
/// which one it talks to.
///
/// Every method may block on I/O: call none of them from a loop thread.
public protocol Store: AnyObject, Sendable {
    /// Brings the schema to the newest version.
    func migrate() throws

    /// The whole configuration and its revision, read in one transaction: what needs every organization (the link
    /// table, the importer, export, the command line).
    func configRecords() throws -> ConfigRecords
    /// One organization's configuration and the revision, read in one transaction, each list in the order
    /// ``configRecords()`` gives it: the organization's record (none for an id the store does not hold), its
    /// programs, their partners and their codes. Read through indexes from the organization down, so it costs that
    /// organization's records, not every organization's: what a page or list of one organization reads (on a shared
    /// store, 120,000 partners of others made each `GET /v1/partners` read them all).
    func configRecords(organizationID: String) throws -> ConfigRecords
    /// Whether `partnerID` is a partner (active or not) of the organization, read by its key: what the API asks of a
    /// partner the table in force does not know yet (imported a moment ago), without reading every organization's
    /// configuration for it (an unknown id, which anyone with a key can send, cost that read each time).
    func isPartner(_ partnerID: String, of organizationID: String) throws -> Bool
    /// The configuration's revision alone: cheap enough to poll.
    func configRevision() throws -> Int64
    /// Writes a merged configuration in one transaction and bumps the revision; fails with a conflict when
    /// the revision is no longer `expectedRevision`.
    func applyConfig(_ changes: ConfigChanges, expectedRevision: Int64) throws
    /// Whether ``waitForConfigChange(seconds:)`` hears of changes (PostgreSQL's `LISTEN`); without it the
    /// ``ConfigWatcher`` polls the revision alone.
    var notifiesConfigChanges: Bool { get }
    /// Waits up to `seconds` for word that the configuration changed (any node's or import's
    /// ``applyConfig(_:expectedRevision:)``); returns whether it came. The revision stays the truth: a notification
    /// lost while the connection was down is caught by the watcher's periodic revision check.
    func waitForConfigChange(seconds: Double) throws -> Bool

    /// The key that signs click ids, created on first use and shared by every node of the store.
    func clickSigningKey() throws -> [UInt8]

    /// Inserts clicks, counts them and the repeat taps in the hourly click counts, and moves a journal segment's
    /// checkpoint, in one transaction: exactly once.
    ///
    /// A click counts as a click and a unique click. A repeat tap (`repeats`, each carrying its first tap's click id
    /// and its own time) counts as a click only, unless the store holds no click with its id (the first tap's
    /// request went away before it was journaled, or its write failed): the repeat is then stored as that click and
    /// counts as both, since its answer carried that id.
    func ingest(_ clicks: [ClickRecord], repeats: [ClickRecord], checkpoint: JournalCheckpoint) throws
    /// How far a journal segment has been ingested, in bytes; 0 when it never was.
    func journalOffset(segment: String) throws -> Int64
    /// Forgets the checkpoint of a segment whose file is gone.
    func forgetJournalSegment(_ segment: String) throws
    /// An organization's clicks, newest first.
    func clicks(_ query: ClickQuery) throws -> Page<ClickRecord>
    /// An organization's click counts summed per day and partner over hours whose start lies in a range, each
    /// hour shifted by one UTC offset (the caller splits a timezone's range where its offset changes). At most
    /// `query.limit` rows, ordered by day then partner.
    func clickCounts(_ query: ClickCountQuery) throws -> [DailyClickCount]
    /// Deletes up to `limit` clicks created before `createdBefore` (milliseconds since 1970), oldest first, in one
    /// short transaction; returns how many. Called in a loop (`tolt-edge prune`) so that no call holds the write lock
    /// long.
    func deleteClicks(createdBefore: Int64, limit: Int) throws -> Int

    /// Creates the customer unless the user id already has one (``customer(organizationID:customerID:)``);
    /// returns the customer that holds the user afterwards and whether this call created it. Atomic in the store,
    /// and serialised with the organization's webhook events (as ``recordWebhookEvent(_:plan:)`` is): a new
    /// customer's stored `unattributed` events from up to ``CommissionPlanner/claimTolerance`` before the claim are
    /// planned again by `plan` (pure and quick, as the webhook's) and applied in the same transaction, so an event
    /// and its claim pay the same in either order; `replayed` is what each of them did, oldest first. `nil`: none is
    /// (for tools and tests without the rules).
    func claim(
        _ customer: CustomerRecord, replaying plan: ((RevenueCatEvent, CommissionLedger) -> WebhookPlan)?
    ) throws -> (customer: CustomerRecord, created: Bool, replayed: [WebhookOutcome])
    /// The customer for an app user id in an organization: of the one claimed with it and the one it is tied to
    /// (by a RevenueCat `TRANSFER`, or by an event that named it beside that customer's id), the one claimed first.
    func customer(organizationID: String, customerID: String) throws -> CustomerRecord?
    /// An organization's customers, newest claim first, with their revenue and commission totals and the ids
    /// RevenueCat tied to each (``CustomerRecord/aliases``, the first ``CustomerRecord/maximumAliases``).
    func customers(_ query: CustomerQuery) throws -> Page<CustomerRecord>

    /// Stores a RevenueCat event once per organization and event id and applies what it changes, atomically:
    /// inside one transaction the store inserts the event (a redelivery stops here: ``WebhookOutcome/duplicate``),
    /// finds the customer by the event's user ids, reads its ``CommissionLedger``, calls `plan` with the event (pure
    /// and quick: it runs while the store is locked) and writes the plan. The ids the plan ties to a customer can no
    /// longer be claimed as a new one, so their stored `unattributed` events are planned by `plan` and applied in the
    /// same transaction, as a claim applies its user's (``claim(_:replaying:)``: the same window and bound, with the
    /// event's arrival as their `attributed_at`). Returns what the event itself did and what each of those did,
    /// oldest first.
    ///
    /// Calls for one organization must be serialised (SQLite: its one writer; PostgreSQL: an advisory lock on
    /// the organization), since the plan's writes are computed from what was read; `plan` may be called again
    /// when a transaction is retried.
    func recordWebhookEvent(_ event: WebhookEventRecord, plan: (RevenueCatEvent, CommissionLedger) -> WebhookPlan)
        throws -> (outcome: WebhookOutcome, replayed: [WebhookOutcome])
    /// An organization's commissions, newest first.
    func commissions(_ query: CommissionQuery) throws -> Page<CommissionRecord>
    /// Records a payout of `payout.partnerID` in one transaction, serialised with the organization's webhook events
    /// and claims (as ``recordWebhookEvent(_:plan:)`` is: SQLite's one writer, PostgreSQL's advisory lock on the
    /// organization) and with other payouts, on every node: it takes the partner's `pending` commissions created
    /// before `payout.createdBefore` that no payout holds, and the `reversed` ones a payout paid and none took back,
    /// and marks each with `payout.id`. `payout`'s amounts and counts are ignored: the store sums what it took. Writes
    /// nothing unless it returns ``PayoutOutcome/created(_:)``.
    func createPayout(_ payout: PayoutRecord) throws -> PayoutOutcome
    /// An organization's payouts, newest first.
    func payouts(_ query: PayoutQuery) throws -> Page<PayoutRecord>
    /// The balances of `partnerIDs` (at most ``ClickQuery/maximumLimit``) of an organization, read in one
    /// transaction; a partner with no commission and no payout has zeros.
    func partnerBalances(organizationID: String, partnerIDs: [String]) throws -> [String: PartnerBalance]
    /// An organization's webhook events, newest first; `startingAfter` is the last event id of the previous page.
    func webhookEvents(organizationID: String, limit: Int, startingAfter: String?) throws -> Page<StoredWebhookEvent>

    /// An organization's claims, customers per status and commission totals per status, for its Overview. Counted
    /// from indexes over customers and commissions (never over clicks), in one read transaction.
    func organizationSummary(organizationID: String) throws -> OrganizationSummary
    /// An organization's commission counts and amounts per partner and status, ordered by partner then status (only
    /// pairs that have commissions), for its Commissions page.
    func commissionTotals(organizationID: String) throws -> [PartnerCommissionTotal]
}

extension Store {
    /// SQLite has no notifications: the watcher polls.
    public var notifiesConfigChanges: Bool { false }
    public func waitForConfigChange(seconds: Double) throws -> Bool { false }

    /// Inserts clicks (no repeat taps) and moves a journal segment's checkpoint, in one transaction.
    public func ingest(_ clicks: [ClickRecord], checkpoint: JournalCheckpoint) throws {
        try ingest(clicks, repeats: [], checkpoint: checkpoint)
    }

    /// ``claim(_:replaying:)`` without the webhook's rules: no stored event is applied (tools and tests that claim
    /// before any event arrives).
    public func claim(_ customer: CustomerRecord) throws -> (customer: CustomerRecord, created: Bool) {
        let result = try claim(customer, replaying: nil)
        return (result.customer, result.created)
    }

    /// The first page of an organization's webhook events.
    public func webhookEvents(organizationID: String, limit: Int) throws -> Page<StoredWebhookEvent> {
        try webhookEvents(organizationID: organizationID, limit: limit, startingAfter: nil)
    }
}

/// One page of a list, and whether more follow.
public struct Page<Item: Sendable>: Sendable {
    /// The page's items, in list order.
    public var items: [Item]
    /// Whether more items follow this page.
    public var hasMore: Bool

    /// A value with every field given.
    public init(items: [Item], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// Where ingestion of one journal segment stands after a batch.
public struct JournalCheckpoint: Sendable, Equatable {
    /// The segment's name, unique across nodes.
    public var segment: String
    /// The byte offset just past the last ingested record.
    public var offset: Int64

    /// A value with every field given.
    public init(segment: String, offset: Int64) {
        self.segment = segment
        self.offset = offset
    }
}
