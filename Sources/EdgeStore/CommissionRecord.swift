import LinkCore

/// What a partner earned on one purchase of a customer they brought.
public struct CommissionRecord: Sendable, Equatable {
    /// `comm_…`.
    public var id: String
    /// Milliseconds since 1970: when the purchase's event arrived.
    public var createdAt: Int64
    public var organizationID: String
    public var partnerID: String
    public var programID: String
    /// The customer's id (`cust_…`).
    public var customer: String
    /// The customer's app user id, as it was claimed.
    public var customerID: String
    /// The RevenueCat event that made the purchase known.
    public var eventID: String
    public var transactionID: String
    public var productID: String?
    /// The purchase's price, in cents.
    public var revenueCents: Int64
    /// The commission, in cents of `currency`.
    public var amountCents: Int64
    /// Always `USD`: RevenueCat reports prices in US dollars.
    public var currency: String
    public var status: CommissionStatus

    public init(
        id: String, createdAt: Int64, organizationID: String, partnerID: String, programID: String, customer: String,
        customerID: String, eventID: String, transactionID: String, productID: String?, revenueCents: Int64,
        amountCents: Int64, currency: String = "USD", status: CommissionStatus
    ) {
        self.id = id
        self.createdAt = createdAt
        self.organizationID = organizationID
        self.partnerID = partnerID
        self.programID = programID
        self.customer = customer
        self.customerID = customerID
        self.eventID = eventID
        self.transactionID = transactionID
        self.productID = productID
        self.revenueCents = revenueCents
        self.amountCents = amountCents
        self.currency = currency
        self.status = status
    }
}

/// A page request for an organization's commissions, newest first.
public struct CommissionQuery: Sendable, Equatable {
    public var organizationID: String
    public var limit: Int = 20
    /// Only commissions listed after this commission id (`comm_…`, the last of the previous page).
    public var startingAfter: String?
    public var partnerID: String?
    /// The customer: its app user id, or its id (`cust_…`).
    public var customerID: String?
    public var status: CommissionStatus?

    public init(
        organizationID: String, limit: Int = 20, startingAfter: String? = nil, partnerID: String? = nil,
        customerID: String? = nil, status: CommissionStatus? = nil
    ) {
        self.organizationID = organizationID
        self.limit = limit
        self.startingAfter = startingAfter
        self.partnerID = partnerID
        self.customerID = customerID
        self.status = status
    }
}

/// A RevenueCat webhook event as it arrived, for ``Store/recordWebhookEvent(_:plan:)``.
public struct WebhookEventRecord: Sendable, Equatable {
    public var organizationID: String
    /// RevenueCat's `event.id`: an event is stored once per organization.
    public var eventID: String
    public var type: String
    public var environment: String?
    public var appUserID: String?
    /// Milliseconds since 1970.
    public var receivedAt: Int64
    /// The body exactly as posted.
    public var body: [UInt8]
    /// The user ids to find the customer by, in order (``RevenueCatEvent/customerLookupIDs``).
    public var lookupIDs: [String]
    /// The event's `transaction_id`, whose stored state the planner needs.
    public var transactionID: String?

    public init(
        organizationID: String, eventID: String, type: String, environment: String?, appUserID: String?,
        receivedAt: Int64, body: [UInt8], lookupIDs: [String], transactionID: String?
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
    }
}

/// A RevenueCat webhook event as the store keeps it, with what it did.
public struct StoredWebhookEvent: Sendable, Equatable {
    public var eventID: String
    public var type: String
    public var environment: String?
    public var appUserID: String?
    /// The customer (`cust_…`) the event was attributed to, if any.
    public var customer: String?
    /// ``WebhookOutcome``'s raw value.
    public var outcome: String
    /// Milliseconds since 1970.
    public var receivedAt: Int64
    /// The body exactly as posted.
    public var body: [UInt8]

    public init(
        eventID: String, type: String, environment: String?, appUserID: String?, customer: String?, outcome: String,
        receivedAt: Int64, body: [UInt8]
    ) {
        self.eventID = eventID
        self.type = type
        self.environment = environment
        self.appUserID = appUserID
        self.customer = customer
        self.outcome = outcome
        self.receivedAt = receivedAt
        self.body = body
    }
}
