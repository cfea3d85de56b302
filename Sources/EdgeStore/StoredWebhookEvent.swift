/// A RevenueCat webhook event as the store keeps it, with what it did.
public struct StoredWebhookEvent: Sendable, Equatable {
    /// RevenueCat's `event.id`.
    public var eventID: String
    /// RevenueCat's `event.type`.
    public var type: String
    /// `PRODUCTION` or `SANDBOX`, as the event said.
    public var environment: String?
    /// The event's `app_user_id`.
    public var appUserID: String?
    /// The customer (`cust_…`) the event was attributed to, if any.
    public var customer: String?
    /// ``WebhookOutcome``'s raw value.
    public var outcome: String
    /// Milliseconds since 1970.
    public var receivedAt: Int64
    /// The body exactly as posted.
    public var body: [UInt8]
    /// When a claim applied the event, stored `unattributed` because it arrived before the claim of its user
    /// (milliseconds since 1970, the claim's time); `nil` for an event applied when it arrived.
    public var attributedAt: Int64?

    /// A value with every field given.
    public init(
        eventID: String, type: String, environment: String?, appUserID: String?, customer: String?, outcome: String,
        receivedAt: Int64, body: [UInt8], attributedAt: Int64? = nil
    ) {
        self.eventID = eventID
        self.type = type
        self.environment = environment
        self.appUserID = appUserID
        self.customer = customer
        self.outcome = outcome
        self.receivedAt = receivedAt
        self.body = body
        self.attributedAt = attributedAt
    }

    /// The most bytes of bodies a page of the event list holds, however many events its `limit` asks for: events
    /// are up to 1 MiB each, and 20 of them made a 20 MB answer that took seconds to send (and to copy on the loop
    /// that sends it). A page that would pass it ends early, `has_more` set; an event bigger than it alone is a page.
    public static let pageBodyBudget = 1 << 20

    /// How many of the events whose bodies are `sizes` bytes, in list order, make a page: as many as fit
    /// ``pageBodyBudget`` together, and at least one.
    static func fittingPage(_ sizes: [Int64]) -> Int {
        var total: Int64 = 0
        var count = 0
        for size in sizes {
            total += size
            if count > 0, total > Int64(pageBodyBudget) { break }
            count += 1
        }
        return count
    }
}
