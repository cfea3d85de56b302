import LinkCore

/// A RevenueCat webhook event as it arrived, for ``Store/recordWebhookEvent(_:plan:)``.
public struct WebhookEventRecord: Sendable, Equatable {
    /// The organization (`org_…`).
    public var organizationID: String
    /// RevenueCat's `event.id`: an event is stored once per organization.
    public var eventID: String
    /// RevenueCat's `event.type`.
    public var type: String
    /// `PRODUCTION` or `SANDBOX`, as the event said.
    public var environment: String?
    /// The event's `app_user_id`.
    public var appUserID: String?
    /// Milliseconds since 1970.
    public var receivedAt: Int64
    /// The body exactly as posted.
    public var body: [UInt8]
    /// The user ids to find the customer by, in order (``RevenueCatEvent/customerLookupIDs``).
    public var lookupIDs: [String]
    /// The event's `transaction_id`, whose stored state the planner needs.
    public var transactionID: String?
    /// The event's `original_transaction_id`: a renewal belongs to the customer that made its subscription's first
    /// purchase, whatever user ids it carries.
    public var originalTransactionID: String?
    /// RevenueCat's event time (or, without one, ``receivedAt``): how long a claim may still apply the event when
    /// it is stored `unattributed`.
    public var eventTime: Int64

    /// A value with every field given.
    public init(
        organizationID: String, eventID: String, type: String, environment: String?, appUserID: String?,
        receivedAt: Int64, body: [UInt8], lookupIDs: [String], transactionID: String?,
        originalTransactionID: String? = nil, eventTime: Int64? = nil
    ) {
        self.organizationID = organizationID
        self.eventID = eventID
        self.type = type
        self.environment = environment
        self.appUserID = appUserID
        self.receivedAt = receivedAt
        self.body = body
        self.lookupIDs = lookupIDs
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.eventTime = eventTime ?? receivedAt
    }

    /// The record of `event`, parsed from `body` and received at `receivedAt`.
    public init(organizationID: String, event: RevenueCatEvent, receivedAt: Int64, body: [UInt8]) {
        self.init(
            organizationID: organizationID, eventID: event.id, type: event.type, environment: event.environment,
            appUserID: event.appUserID, receivedAt: receivedAt, body: body, lookupIDs: event.customerLookupIDs,
            transactionID: event.transactionID, originalTransactionID: event.originalTransactionID,
            eventTime: event.timestamp)
    }
}
