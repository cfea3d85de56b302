import EdgeStore
import LinkCore

extension APIHandler {
    /// The largest payout body accepted, in bytes: a claim's (its three fields fit in a few hundred).
    static let maximumPayoutBodySize = ClaimRequest.maximumBodySize
    /// The longest payout `reference`, in characters (a bank transfer's or PayPal's id is far shorter).
    static let maximumReferenceLength = 256
    /// The query parameters of `GET /v1/payouts`.
    static let payoutListParameters: Set<String> = ["limit", "starting_after", "partner_id"]

    /// `/v1/payouts` with the secret key: `POST` records a payout (``createPayout(_:organization:)``), `GET` and
    /// `HEAD` list them. The key is checked first, as on every `/v1` route, and its failures count against the
    /// client (``authenticate(_:)``).
    func payouts(_ request: APIRequest) throws -> APIResponse {
        let organization = try authenticate(request)
        guard request.method == .post else {
            try Self.checkQuery(request, takes: Self.payoutListParameters)
            return try Self.readingCursor { try listPayouts(request, organization: organization) }
        }
        // A post takes its fields from its body alone: a query would be a field sent where it is not read.
        guard request.query.isEmpty, request.queryProblem == nil else {
            throw APIError.invalidRequest(
                "POST /v1/payouts takes no query parameters: send partner_id, created_before and reference in the JSON"
                    + " body")
        }
        return try createPayout(request, organization: organization)
    }

    /// `GET /v1/payouts`: newest first, paged like the other lists, filtered by `partner_id`.
    func listPayouts(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        var query = PayoutQuery(organizationID: organization.id, limit: try limit(request))
        query.partnerID = try partnerID(request, of: organization)
        query.startingAfter = try startingAfter(request, prefix: "pay_", noun: "a payout id")
        let page = try reader.payouts(query)
        return APIResponse.success { ResourceJSON.list(page, into: &$0, item: ResourceJSON.payout) }
    }

    /// `POST /v1/payouts`: the body's fields checked (each bad one a `400` naming it, an unknown partner a `404`),
    /// then the store takes the partner's commissions in one transaction (``Store/createPayout(_:)``): `201` with the
    /// payout, `200` with the earlier payout of the partner that holds the same `reference`, or `409 nothing_to_pay` /
    /// `409 negative_balance` with nothing written.
    func createPayout(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        let members = try Self.jsonMembers(
            request, fields: PayoutRequestBody.fields, noun: "a payout", limit: Self.maximumPayoutBodySize)
        let now = Clock.epochMilliseconds()
        let body = try PayoutRequestBody(members, now: now)
        let isPartner =
            try configuredTable().isPartner(body.partnerID, of: organization.id)
            || reader.isPartner(body.partnerID, of: organization.id)
        guard isPartner else {
            throw APIError.notFound(
                "partner_id \(QuotedText.shown(body.partnerID)) is not a partner of this organization",
                code: "unknown_partner")
        }
        let payout = PayoutRecord(
            id: EntityID.make(prefix: "pay_"), organizationID: organization.id, partnerID: body.partnerID,
            createdAt: now, createdBefore: body.createdBefore, reference: body.reference, amountCents: 0,
            commissionCount: 0, commissionCents: 0, reversalCount: 0, reversalCents: 0)
        switch try writer.createPayout(payout) {
        case .created(let payout):
            var response = APIResponse.success { object in
                object.member("data") { ResourceJSON.payout(payout, into: &$0) }
            }
            response.status = 201
            return response
        case .existing(let payout):
            // `200`, not `201`: the payout named by the reference, recorded by an earlier post.
            return APIResponse.success { object in
                object.member("data") { ResourceJSON.payout(payout, into: &$0) }
            }
        case .nothingToPay:
            throw APIError(
                status: 409, code: "nothing_to_pay",
                message: "The partner has no pending commission created before \(Timestamp.format(body.createdBefore))"
                    + " that no payout holds, and no paid commission to take back: nothing was recorded")
        case .negativeBalance(let cents):
            throw APIError(
                status: 409, code: "negative_balance",
                message: "The partner's reversed commissions that payouts paid come to \(cents) cents more than its"
                    + " pending ones: nothing was recorded; they are taken back from a later payout")
        }
    }
}

/// A `POST /v1/payouts` body, checked: a JSON object of `partner_id` (required), `created_before` (required, an ISO
/// 8601 time with its offset, not after now) and `reference` (optional). Every refusal is `400 invalid_request` and
/// names its field.
struct PayoutRequestBody {
    var partnerID: String
    /// Milliseconds since 1970.
    var createdBefore: Int64
    var reference: String?

    /// The fields a payout takes.
    static let fields = ["partner_id", "created_before", "reference"]

    /// Reads the members of a body ``APIHandler/jsonMembers(_:fields:noun:allowingEmpty:limit:)`` took.
    init(_ members: [String: JSONValue], now: Int64) throws(APIError) {
        func text(_ name: String, required: Bool) throws(APIError) -> String? {
            try APIHandler.stringMember(members, name, required: required)
        }
        let partner = try text("partner_id", required: true)!
        guard partner.utf8.count <= 64 else {
            throw .invalidRequest("partner_id must be a partner id of 1 to 64 bytes")
        }
        partnerID = partner
        let before = try text("created_before", required: true)!
        guard let millis = Timestamp.parse(before) else {
            throw .invalidRequest(
                "created_before must be an ISO 8601 time with its offset, such as 2026-01-31T12:00:00Z or"
                    + " 2026-01-31T13:00:00+01:00 (not a date alone, nor a time without an offset)")
        }
        // A time to come would take commissions not made yet at the moment it names, and leave those made before it
        // for no payout: the payout says what it settled up to.
        guard millis <= now else {
            throw .invalidRequest("created_before must not be after now (\(Timestamp.format(now)))")
        }
        createdBefore = millis
        reference = try text("reference", required: false)
        if let reference {
            // Characters as a person counts them, and bytes, since one letter may carry any number of combining marks.
            guard reference.count <= APIHandler.maximumReferenceLength,
                reference.utf8.count <= 4 * APIHandler.maximumReferenceLength
            else {
                throw .invalidRequest(
                    "reference must be at most \(APIHandler.maximumReferenceLength) characters"
                        + " (\(4 * APIHandler.maximumReferenceLength) bytes in UTF-8)")
            }
            // A reference is read by people matching it to a bank's statement: one of spaces or characters drawn as
            // nothing (a zero-width space, a byte-order mark) matches nothing there, and would key retries by an
            // invisible value.
            guard !DisplayTextRules.isBlank(reference) else {
                throw .invalidRequest("reference must show a visible character, not only spaces or blank characters")
            }
            // One line of a bank's text, held to a claim id's rule.
            if let problem = ClaimRequest.controlCharacterProblem(reference, name: "reference") {
                throw .invalidRequest(problem)
            }
        }
    }
}
