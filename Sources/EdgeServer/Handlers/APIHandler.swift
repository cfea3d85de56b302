import EdgeStore
import LinkCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The JSON API: `GET /v1/clicks`, `/v1/customers`, `/v1/commissions`, `/v1/partners`, `/v1/payouts` and
/// `/v1/stats/clicks`, `POST /v1/payouts`, `POST /v1/partners`, `GET /v1/partners/<partner_id>` and its actions
/// (secret key), `POST /client/claims`
/// (public key) and `POST /webhooks/revenuecat/<public_key>` (RevenueCat's authorization value).
/// Runs on worker threads (``Route/Handler/worker(_:)``); every store call happens here, never on a loop thread.
final class APIHandler: Sendable {
    /// The one connection that writes: claims are serialized here rather than by SQLite's busy-wait sleeps.
    let writer: any Store
    /// Connections for reads (lists, customer lookups), which WAL lets run beside the writer.
    private let readers: [any Store]
    private let nextReader = Atomic<Int>(0)
    let watcher: ConfigWatcher
    let signer: ClickSigner
    /// 30 claims a minute per client (an IPv4 address or an IPv6 /64).
    let claimLimiter: RateLimiter
    /// 10 failed authentications a minute per client, on `/v1` and the dashboard's sign-in together
    /// (``refuseIfFailingTooOften(_:)``); the webhook's have ``webhookFailures``.
    let authenticationFailures: RateLimiter
    /// 10 wrong RevenueCat authorizations a minute per client and organization (``ClientNetwork/scoped(to:)``): apart
    /// from ``authenticationFailures``, since RevenueCat posts every organization's events from one pool of
    /// addresses, and one organization's stale authorization must not get the others' events refused.
    let webhookFailures: RateLimiter
    /// Where timezones are read from (``ServerConfiguration/timeZoneDirectory``).
    let timeZoneDirectory: String

    init(
        writer: any Store, readers: [any Store], watcher: ConfigWatcher, signer: ClickSigner,
        claimClients: Int = RateLimiter.defaultMaximumClients, timeZoneDirectory: String = TimeZoneRules.zoneDirectory
    ) {
        self.timeZoneDirectory = timeZoneDirectory
        claimLimiter = RateLimiter(limit: 30, window: 60, maximumClients: claimClients)
        authenticationFailures = RateLimiter(
            limit: Self.authenticationFailureLimit, window: 60, maximumClients: claimClients)
        webhookFailures = RateLimiter(limit: Self.authenticationFailureLimit, window: 60, maximumClients: claimClients)
        self.writer = writer
        self.readers = readers.isEmpty ? [writer] : readers
        self.watcher = watcher
        self.signer = signer
    }

    /// A read connection, taken in turn.
    var reader: any Store {
        readers[nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count]
    }

    /// The claims route's label in the metrics.
    static let claimsRouteName = "claims"
    /// The claims route's path; h2o also refuses its larger bodies early (``H2OEngine/smallerBodyLimits``).
    static let claimsPath = "/client/claims"

    /// Adds the API's routes: the lists with the secret key, claims (from apps, cross-origin) with the public key.
    func register(in router: inout Router) {
        let lists:
            [(
                path: String, parameters: Set<String>,
                handler: @Sendable (APIRequest, OrganizationRecord) throws -> APIResponse
            )] = [
                ("/v1/clicks", ["limit", "starting_after", "partner_id", "since"], listClicks),
                ("/v1/customers", ["limit", "starting_after", "partner_id", "status", "customer_id"], listCustomers),
                (
                    "/v1/commissions",
                    [
                        "limit", "starting_after", "partner_id", "customer_id", "status", "created_since",
                        "created_before", "paid", "payout_id",
                    ],
                    listCommissions
                ),
                ("/v1/webhook_events", ["limit", "starting_after"], listWebhookEvents),
                ("/v1/stats/clicks", ["timezone", "from", "to", "partner_id"], clickStats),
            ]
        for list in lists {
            router.add(
                Route(
                    .exact(list.path), methods: [.get, .head],
                    handler: .worker(taking(list.parameters, list.handler))))
        }
        // One route for the list and the post: its label in the metrics is `v1_payouts` for both.
        router.add(Route(.exact("/v1/payouts"), methods: [.get, .head, .post], handler: .worker(payouts)))
        // The same for partners (`v1_partners`); one partner and its actions are a route of their own (`v1_partner`),
        // taking every method: `partner(_:)` answers a method its path does not take with that path's `Allow`.
        router.add(Route(.exact("/v1/partners"), methods: [.get, .head, .post], handler: .worker(partners)))
        router.add(
            Route(
                .prefix(Self.partnerPathPrefix),
                methods: [.get, .head, .post, .put, .patch, .delete, .options, .other],
                name: Self.partnerRouteName, handler: .worker(partner)))
        router.add(
            Route(
                .exact(Self.claimsPath), methods: [.post], allowsCrossOrigin: true, name: Self.claimsRouteName,
                handler: .worker(claim)))
        router.add(
            Route(
                .prefix(Self.revenueCatWebhookPrefix), methods: [.post], name: "webhook",
                handler: .worker(receiveRevenueCatEvent)))
    }

    /// `handler`, for a request whose query passes ``checkQuery(_:takes:allowingEmpty:)``. The key is checked first:
    /// a request without a valid one is a `401` whatever its query says; `handler` is given the key's organization.
    /// A `starting_after` that names no row of the list is a `400` too (``readingCursor(_:)``).
    func taking(
        _ parameters: Set<String>, _ handler: @escaping @Sendable (APIRequest, OrganizationRecord) throws -> APIResponse
    ) -> @Sendable (APIRequest) throws -> APIResponse {
        { [self] request in
            let organization = try authenticate(request)
            try Self.checkQuery(request, takes: parameters)
            return try Self.readingCursor { try handler(request, organization) }
        }
    }

    /// `body`, with a `starting_after` that names no row of its list (``StoreError/unknownCursor(_:)``: none of the
    /// organization's, or none at all) answered `400 invalid_request`, not an empty page that would read as the
    /// list's end. The API's lists and the dashboard's read their cursor through it.
    static func readingCursor<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as StoreError where error.isUnknownCursor {
            throw APIError.invalidRequest("starting_after " + error.message)
        } catch let error as StoreError where error.isUnknownFilter {
            // The one filter the store checks: the commissions' `payout_id`.
            throw APIError.invalidRequest("payout_id " + error.message)
        }
    }

    /// Refuses (`400 invalid_request`, naming the parameter) a query that names anything but `parameters` (the ones
    /// the README documents for the route), or one of them twice or without a value, so that a query is never
    /// answered as if it had asked for less. A typo (`partnerid=part_x`) or an empty filter (`partner_id=`, a
    /// script's unset variable) would list every partner's rows or none; a repeated one
    /// (`partner_id=a&partner_id=b`) would be read as its last value alone. `_`, the cache-buster jQuery and other
    /// clients add, is let through. `allowingEmpty` lets an empty value through, for the dashboard's filter forms,
    /// whose "any" option sends one.
    static func checkQuery(_ request: APIRequest, takes parameters: Set<String>, allowingEmpty: Bool = false) throws {
        if let problem = request.queryProblem {
            throw APIError.invalidRequest("the query cannot be read whole: \(problem)")
        }
        if let unknown = request.query.keys.filter({ !parameters.contains($0) && $0 != "_" }).min() {
            throw APIError.invalidRequest(
                "unknown query parameter \(unknown.isEmpty ? "(an empty name)" : shown(unknown)): this endpoint takes "
                    + (parameters.isEmpty ? "none" : parameters.sorted().joined(separator: ", ")))
        }
        if let repeated = request.repeatedQueryNames.subtracting(["_"]).min() {
            throw APIError.invalidRequest(
                "query parameter \(shown(repeated)) is given more than once: give it once (it takes one value)")
        }
        if !allowingEmpty, let empty = request.query.filter({ $0.value.isEmpty && $0.key != "_" }).keys.min() {
            throw APIError.invalidRequest(ListFilters.emptyValue(name: shown(empty)).message)
        }
    }

    /// `body`'s value, with a filter it refuses (``ListFilters``) answered `400 invalid_request`, its message as
    /// the refusal's.
    static func filter<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let refusal as ListFilters.Refusal {
            throw APIError.invalidRequest(refusal.message)
        }
    }

    /// A query parameter's name as an error names it: its first 100 Unicode scalars and "…" past them, so that the
    /// answer to a query with a name of 400,000 bytes is not 400,000 bytes long (scalars, not characters: one letter
    /// with 5,000 combining accents is one character).
    static func shown(_ name: String) -> String {
        guard name.unicodeScalars.count > 100 else { return name }
        var shown = String.UnicodeScalarView()
        shown.append(contentsOf: name.unicodeScalars.prefix(100))
        return String(shown) + "…"
    }

    /// `partner_id` (an empty one never reaches here): one of `organization`'s partners
    /// (``ListFilters/partnerID(_:name:isPartner:)``), else `400 invalid_request`, never an empty list that reads as
    /// "no rows". The table in force answers; a partner it does not know is looked up in the store before it is
    /// refused, since one imported a moment ago is in the store before the next reload brings it to this node's table.
    func partnerID(_ request: APIRequest, of organization: OrganizationRecord) throws -> String? {
        guard let partner = request.query["partner_id"] else { return nil }
        return try Self.filter {
            try ListFilters.partnerID(partner, name: "partner_id") {
                try configuredTable().isPartner($0, of: organization.id)
                    || reader.isPartner($0, of: organization.id)
            }
        }
    }

    /// The link table in force, or `503 unavailable` with `Retry-After` while the node has loaded no configuration
    /// yet (its store was down since start-up): never a `401` or `404` a caller would take for an answer, and
    /// RevenueCat retries a `503`.
    func configuredTable() throws -> LinkTable {
        guard watcher.isLoaded else { throw APIError.noConfiguration }
        return watcher.table
    }

    /// The organization whose secret key the request carries. A client that failed too often in the last minute
    /// is refused first, its key not read (`429`, ``refuseIfFailingTooOften(_:)``); then a request without an
    /// `Authorization` line is `401` and not counted (it tries no key), and a wrong key, an `Authorization` that is
    /// no `Bearer` one, or two lines of it (neither is read) are `401` and counted against the client.
    func authenticate(_ request: APIRequest) throws -> OrganizationRecord {
        let client = ClientNetwork(address: request.clientIP)
        try refuseIfFailingTooOften(client)
        guard let header = request.authorization else {
            guard request.repeatedHeaders.contains(.authorization) else { throw APIError.unauthorized }
            throw failedAuthentication(client, .unauthorized)
        }
        guard header.lowercased().hasPrefix("bearer ") else { throw failedAuthentication(client, .unauthorized) }
        let key = String(header.dropFirst(7)).trimmingSpaces
        guard let organization = try configuredTable().organization(secretKey: key) else {
            throw failedAuthentication(
                client, APIError(status: 401, code: "unauthorized", message: "The secret key is not valid"))
        }
        return organization
    }

    /// `limit`: 1 to `maximum` (default 20).
    func limit(_ request: APIRequest, maximum: Int = ClickQuery.maximumLimit) throws -> Int {
        guard let text = request.query["limit"] else { return min(20, maximum) }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw APIError.invalidRequest("limit must be an integer from 1 to \(maximum)")
        }
        return limit
    }

    /// `starting_after`, which must be an id with `prefix` (``ListFilters/cursor(_:name:prefix:noun:)``).
    func startingAfter(_ request: APIRequest, prefix: String, noun: String) throws -> String? {
        guard let after = request.query["starting_after"] else { return nil }
        return try Self.filter { try ListFilters.cursor(after, name: "starting_after", prefix: prefix, noun: noun) }
    }

    /// Said by the errors of parameters whose values may hold a `+` (an offset, `…T13:00:00+01:00`; a zone,
    /// `Etc/GMT+5`): a query string reads an unencoded one as a space, which no such value is.
    static let plusHint = "a + in a query string is a space: write it %2B"

    /// `status`, one of `Status`'s values.
    func status<Status: RawRepresentable & CaseIterable>(_ request: APIRequest, as: Status.Type) throws -> Status?
    where Status.RawValue == String {
        guard let text = request.query["status"] else { return nil }
        return try Self.filter { try ListFilters.status(text, name: "status", as: Status.self) }
    }

    /// `starting_after` of the clicks, which must be a click id.
    func clickCursor(_ request: APIRequest) throws -> String? {
        guard let after = request.query["starting_after"] else { return nil }
        return try Self.filter { try ListFilters.clickCursor(after, name: "starting_after") }
    }

    func listClicks(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        var query = ClickQuery(organizationID: organization.id, limit: try limit(request))
        query.partnerID = try partnerID(request, of: organization)
        query.startingAfter = try clickCursor(request)
        if let since = request.query["since"] {
            // A date alone (`2026-01-31`) is its midnight UTC, as `tolt-edge prune --before` reads it.
            guard let millis = Timestamp.parseDateOrTime(since) else {
                throw APIError.invalidRequest(
                    "since must be an ISO 8601 time with its offset, such as 2026-01-31T12:00:00Z or"
                        + " 2026-01-31T13:00:00+01:00 (\(Self.plusHint)), or a date such as 2026-01-31")
            }
            query.since = millis
        }
        let page = try reader.clicks(query)
        return APIResponse.success { ResourceJSON.list(page, into: &$0, item: ResourceJSON.click) }
    }

    func listCustomers(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        var query = CustomerQuery(organizationID: organization.id, limit: try limit(request))
        query.partnerID = try partnerID(request, of: organization)
        query.customerID = request.query["customer_id"]
        query.startingAfter = try startingAfter(request, prefix: "cust_", noun: "a customer id")
        query.status = try status(request, as: CustomerStatus.self)?.rawValue
        let page = try reader.customers(query)
        return APIResponse.success { ResourceJSON.list(page, into: &$0, item: ResourceJSON.customer) }
    }
}
