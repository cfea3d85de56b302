import EdgeStore
import LinkCore

extension APIHandler {
    /// The path under which each organization's RevenueCat webhook lives: `/webhooks/revenuecat/<public_key>`.
    static let revenueCatWebhookPrefix = "/webhooks/revenuecat/"

    /// `POST /webhooks/revenuecat/<public_key>`: checks the organization (404) and RevenueCat's `Authorization`
    /// value (401), the size (413), one `Content-Type` line and the envelope (400), then stores the event once and
    /// applies it. Every valid event is answered `200`, attributable or not, so RevenueCat retries only what really
    /// failed.
    func receiveRevenueCatEvent(_ request: APIRequest) throws -> APIResponse {
        var publicKey = request.path.dropFirst(Self.revenueCatWebhookPrefix.count)
        // One trailing slash after a key is the same URL: it is easily pasted into RevenueCat, and no key holds a
        // slash. More after the key, or a slash with no key before it (`revenuecat//`), is no webhook URL at all,
        // said so rather than blamed on the key.
        if publicKey.count > 1, publicKey.last == "/" { publicKey = publicKey.dropLast() }
        guard !publicKey.contains("/") else {
            throw APIError.notFound("No such path: the webhook's URL is \(Self.revenueCatWebhookPrefix)<public_key>")
        }
        let table = try configuredTable()
        guard let organization = table.organization(publicKey: String(publicKey)) else {
            throw APIError.notFound(
                "No organization has the public key in this webhook URL", code: "unknown_public_key")
        }
        // The value is compared by its digest, which is all the store keeps. That none is stored is said (a new user
        // trying the webhook cannot otherwise tell it from a wrong value), which tells a caller only that nothing it
        // sends is accepted.
        guard let expected = organization.revenueCatAuthorizationDigest else {
            throw APIError(
                status: 401, code: "unauthorized",
                message: "This organization has no RevenueCat authorization stored, so its webhook refuses every event"
                    + " (set revenuecat.authorization in the import file, or in the dashboard's Settings → Integrations,"
                    + " and the same value in RevenueCat)")
        }
        // Guessing the authorization would let a caller post purchases that pay partners: 10 wrong values a minute
        // from a client for this organization, and it is refused before its value is read. Counted per organization,
        // apart from `/v1`'s keys (``webhookFailures``): RevenueCat posts every organization's events from one pool of
        // addresses, so one organization's stale authorization holds back only its own events. A request without the
        // header tries no value and is not counted.
        let client = ClientNetwork(address: request.clientIP).scoped(to: organization.id)
        try refuseIfFailingTooOften(client, in: webhookFailures)
        guard let given = request.authorization, SecretDigest.matches(given, digest: expected) else {
            let refusal = APIError(
                status: 401, code: "unauthorized",
                message: "The Authorization header is missing or is not the organization's RevenueCat authorization "
                    + "(set as revenuecat.authorization in the import file, and the same value in RevenueCat)")
            guard request.authorization != nil || request.repeatedHeaders.contains(.authorization) else {
                throw refusal
            }
            throw failedAuthentication(client, refusal, in: webhookFailures)
        }
        guard request.body.count <= RevenueCatEvent.maximumBodySize else {
            throw APIError.payloadTooLarge(limit: RevenueCatEvent.maximumBodySize)
        }
        try request.requireOneContentType()
        let now = Clock.epochMilliseconds()
        let record: WebhookEventRecord
        do {
            record = try WebhookEventRecord(organizationID: organization.id, body: request.body, receivedAt: now)
        } catch {
            throw APIError.invalidRequest(error.message)
        }
        // The event's plan, and those of the events stored `unattributed` under ids it ties to a customer.
        let (outcome, replayed) = try writer.recordWebhookEvent(record) { event, ledger in
            Self.plan(event, ledger: ledger, table: table, now: now)
        }
        var response = APIResponse.success { object in
            object.member("data") { json in
                json.object {
                    $0.string("event_id", record.eventID)
                    $0.string("status", outcome == .duplicate ? "duplicate" : "stored")
                    $0.string("outcome", outcome.rawValue)
                }
            }
        }
        response.tally = .webhook(
            typeSlot: MetricLabels.webhookTypeSlot(record.type), outcome: outcome, replayed: replayed)
        return response
    }
}

extension APIHandler {
    /// The webhook's rules for `event`: the commission rule of the customer's program in `table`, `now` for a
    /// missing event time. The webhook plans an event with it on arrival, and a claim or a tie the events stored
    /// before it.
    static func plan(_ event: RevenueCatEvent, ledger: CommissionLedger, table: LinkTable, now: Int64) -> WebhookPlan {
        let rule = ledger.customer.flatMap { table.program(id: $0.programID)?.commission }
        return CommissionPlanner.plan(event, ledger: ledger, rule: rule, now: now) { EntityID.make(prefix: "comm_") }
    }

    /// `GET /v1/webhook_events` with the secret key: the RevenueCat events received, newest first, with what each
    /// did and its body as posted, so the app's team can see what RevenueCat delivered.
    func listWebhookEvents(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        let after = request.query["starting_after"]
        if let after, after.isEmpty || after.utf8.count > RevenueCatEvent.maximumIDLength {
            throw APIError.invalidRequest("starting_after must be an event id")
        }
        // Bodies are up to 1 MiB each: a page holds at most 20, and fewer once their bodies pass
        // `StoredWebhookEvent.pageBodyBudget`.
        let page = try reader.webhookEvents(
            organizationID: organization.id, limit: try limit(request, maximum: 20), startingAfter: after)
        return APIResponse.success { ResourceJSON.list(page, into: &$0, item: ResourceJSON.webhookEvent) }
    }
}
