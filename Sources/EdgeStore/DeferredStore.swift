import LinkCore
import Synchronization

/// A ``Store`` whose connection is opened on first use, and again on the next call after opening failed: so that a
/// server can be built while its store cannot be reached. Every call forwards to the connection; while none can be
/// opened, calls throw what opening threw (``StoreError/unavailable(_:)`` for a store that is down). Keeping an open
/// connection alive is the connection's own business.
public final class DeferredStore: Store {
    private let open: @Sendable () throws -> any Store
    private let opened = Mutex<(any Store)?>(nil)

    /// `open` makes the connection; it is called under this store's lock, one caller at a time.
    public init(open: @escaping @Sendable () throws -> any Store) {
        self.open = open
    }

    /// The connection, opened now when it is not yet.
    private func store() throws -> any Store {
        try opened.withLock { connection in
            if let connection { return connection }
            let fresh = try open()
            connection = fresh
            return fresh
        }
    }

    public func migrate() throws { try store().migrate() }
    public func configRecords() throws -> ConfigRecords { try store().configRecords() }
    public func configRecords(organizationID: String) throws -> ConfigRecords {
        try store().configRecords(organizationID: organizationID)
    }
    public func isPartner(_ partnerID: String, of organizationID: String) throws -> Bool {
        try store().isPartner(partnerID, of: organizationID)
    }
    public func configRevision() throws -> Int64 { try store().configRevision() }
    public func applyConfig(_ changes: ConfigChanges, expectedRevision: Int64) throws {
        try store().applyConfig(changes, expectedRevision: expectedRevision)
    }
    /// Whether the connection, once open, hears of changes; `false` before it is (the watcher polls meanwhile).
    public var notifiesConfigChanges: Bool { opened.withLock { $0?.notifiesConfigChanges ?? false } }
    public func waitForConfigChange(seconds: Double) throws -> Bool {
        try store().waitForConfigChange(seconds: seconds)
    }
    public func clickSigningKey() throws -> [UInt8] { try store().clickSigningKey() }
    public func organizationSummary(organizationID: String) throws -> OrganizationSummary {
        try store().organizationSummary(organizationID: organizationID)
    }
    public func commissionTotals(organizationID: String) throws -> [PartnerCommissionTotal] {
        try store().commissionTotals(organizationID: organizationID)
    }
    public func ingest(_ clicks: [ClickRecord], repeats: [ClickRecord], checkpoint: JournalCheckpoint) throws {
        try store().ingest(clicks, repeats: repeats, checkpoint: checkpoint)
    }
    public func journalOffset(segment: String) throws -> Int64 { try store().journalOffset(segment: segment) }
    public func forgetJournalSegment(_ segment: String) throws { try store().forgetJournalSegment(segment) }
    public func clicks(_ query: ClickQuery) throws -> Page<ClickRecord> { try store().clicks(query) }
    public func clickCounts(_ query: ClickCountQuery) throws -> [DailyClickCount] { try store().clickCounts(query) }
    public func deleteClicks(createdBefore: Int64, limit: Int) throws -> Int {
        try store().deleteClicks(createdBefore: createdBefore, limit: limit)
    }
    public func claim(
        _ customer: CustomerRecord, replaying plan: ((RevenueCatEvent, CommissionLedger) -> WebhookPlan)?
    ) throws -> (customer: CustomerRecord, created: Bool, replayed: [WebhookOutcome]) {
        try store().claim(customer, replaying: plan)
    }
    public func customer(organizationID: String, customerID: String) throws -> CustomerRecord? {
        try store().customer(organizationID: organizationID, customerID: customerID)
    }
    public func customers(_ query: CustomerQuery) throws -> Page<CustomerRecord> { try store().customers(query) }
    public func recordWebhookEvent(
        _ event: WebhookEventRecord, plan: (RevenueCatEvent, CommissionLedger) -> WebhookPlan
    ) throws -> (outcome: WebhookOutcome, replayed: [WebhookOutcome]) {
        try store().recordWebhookEvent(event, plan: plan)
    }
    public func createPayout(_ payout: PayoutRecord) throws -> PayoutOutcome { try store().createPayout(payout) }
    public func payouts(_ query: PayoutQuery) throws -> Page<PayoutRecord> { try store().payouts(query) }
    public func partnerBalances(organizationID: String, partnerIDs: [String]) throws -> [String: PartnerBalance] {
        try store().partnerBalances(organizationID: organizationID, partnerIDs: partnerIDs)
    }
    public func commissions(_ query: CommissionQuery) throws -> Page<CommissionRecord> {
        try store().commissions(query)
    }
    public func webhookEvents(organizationID: String, limit: Int, startingAfter: String?) throws
        -> Page<StoredWebhookEvent>
    {
        try store().webhookEvents(organizationID: organizationID, limit: limit, startingAfter: startingAfter)
    }
}
