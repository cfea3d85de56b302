import LinkCore

/// A RevenueCat webhook event as it arrived, for ``Store/recordWebhookEvent(_:plan:)``: the parsed event, which the
/// store plans with, and the body as posted, which it keeps.
public struct WebhookEventRecord: Sendable, Equatable {
    /// The organization (`org_…`).
    public var organizationID: String
    /// The event as parsed from ``body`` (times past the arrival's clock already read as absent).
    public var event: RevenueCatEvent
    /// Milliseconds since 1970.
    public var receivedAt: Int64
    /// The body exactly as posted.
    public var body: [UInt8]

    /// The record of `event`, parsed from `body` and received at `receivedAt`.
    public init(organizationID: String, event: RevenueCatEvent, receivedAt: Int64, body: [UInt8]) {
        self.organizationID = organizationID
        self.event = event
        self.receivedAt = receivedAt
        self.body = body
    }

    /// The record of `body` read as it was when it arrived at `receivedAt`: parsed, with times past that clock read
    /// as absent. The webhook reads an event so, and a claim or a tie reads so an event stored before it.
    public init(organizationID: String, body: [UInt8], receivedAt: Int64) throws(RevenueCatEventError) {
        var event = try RevenueCatEvent(body: body)
        event.ignoreTimes(after: receivedAt)
        self.init(organizationID: organizationID, event: event, receivedAt: receivedAt, body: body)
    }

    /// RevenueCat's `event.id`: an event is stored once per organization.
    public var eventID: String { event.id }
    /// RevenueCat's `event.type`.
    public var type: String { event.type }
    /// `PRODUCTION` or `SANDBOX`, as the event said.
    public var environment: String? { event.environment }
    /// The event's `app_user_id`.
    public var appUserID: String? { event.appUserID }
    /// The user ids to find the customer by, in order (``RevenueCatEvent/customerLookupIDs``).
    public var lookupIDs: [String] { event.customerLookupIDs }
    /// The event's `transaction_id`, whose stored state the planner needs.
    public var transactionID: String? { event.transactionID }
    /// The event's `original_transaction_id`: a renewal belongs to the customer that made its subscription's first
    /// purchase, whatever user ids it carries.
    public var originalTransactionID: String? { event.originalTransactionID }
    /// RevenueCat's event time (or, without one, ``receivedAt``): how long a claim may still apply the event when
    /// it is stored `unattributed`.
    public var eventTime: Int64 { event.timestamp ?? receivedAt }
}
