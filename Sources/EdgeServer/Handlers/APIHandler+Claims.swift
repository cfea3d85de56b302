import EdgeStore
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

extension APIHandler {
    /// `POST /client/claims`: ``resolveClaim(_:)``'s answer, or its error in the JSON error shape, with the outcome
    /// for the metrics (``WorkerTally/claim(_:)``).
    func claim(_ request: APIRequest) -> APIResponse {
        var response: APIResponse
        do {
            response = try resolveClaim(request)
        } catch let error as APIError {
            response = APIResponse.error(error)
            response.tally = .claim(ClaimOutcome(errorCode: error.code))
        } catch {
            response = APIResponse.error(.answering(error))
            response.tally = .claim(.error)
        }
        return response
    }

    /// The claim rules in the documented order: rate limit, a JSON `Content-Type`, body size, input, public key,
    /// first code wins, code or click, shared code, claim window, then the store's atomic insert.
    private func resolveClaim(_ request: APIRequest) throws -> APIResponse {
        // Before the limiter: a node without its configuration yet takes nothing from a client's budget.
        let table = try configuredTable()
        if let wait = claimLimiter.acquire(request.clientIP, now: Clock.monotonicSeconds()) {
            throw APIError(
                status: 429, code: "rate_limited",
                message: "More than \(claimLimiter.limit) claims a minute from this address; retry in \(wait) s",
                headers: [("retry-after", String(wait))])
        }
        do {
            try request.requireOneContentType()
            try ClaimRequest.checkContentType(request.headers[.contentType])
            guard request.body.count <= ClaimRequest.maximumBodySize else {
                throw APIError.payloadTooLarge(limit: ClaimRequest.maximumBodySize)
            }
            let claim = try ClaimRequest(body: request.body)
            guard let organization = table.organization(publicKey: claim.publicID) else {
                throw ClaimFailure.unknownPublicKey
            }
            if let existing = try reader.customer(organizationID: organization.id, customerID: claim.appUserID) {
                return alreadyClaimed(existing, by: claim, table: table, organization: organization)
            }
            let now = Clock.epochMilliseconds()
            let (target, firstSeenAt) = try ClaimRules.resolve(
                claim, organization: organization, table: table, now: now, isAuthentic: signer.verify)
            let customer = CustomerRecord(
                id: EntityID.make(prefix: "cust_"), organizationID: organization.id, customerID: claim.appUserID,
                partnerID: target.partnerID, programID: target.program.record.id, code: target.code,
                clickID: claim.clickID, status: "lead", claimedAt: now, firstSeenAt: firstSeenAt)
            // Events of this user that arrived before the claim are applied with it, as if it had come first.
            let result = try writer.claim(customer) { event, ledger in
                Self.plan(event, ledger: ledger, table: table, now: now)
            }
            // Not created: a racing claim for the same user won, and the store read it back.
            guard result.created else {
                return alreadyClaimed(result.customer, by: claim, table: table, organization: organization)
            }
            var response = success(
                status: "claimed", appUserID: claim.appUserID, sameClaim: nil,
                inEffect: ClaimInEffect(result.customer, table: table))
            response.tally = .claim(.claimed, replayed: result.replayed)
            return response
        } catch let failure as ClaimFailure {
            throw APIError(failure)
        }
    }

    /// `already_claimed`, with `same_claim`: whether the user's partner was claimed with this claim's code (in any
    /// case, or the code it matches: the full-width `ＳＡＭ２０` matches `SAM20`) or, for a click claim, its click. It
    /// tells an app whose first answer was lost (or that claims again on a later launch) that its code did apply,
    /// apart from a user whom another code had brought first (never by canonical equivalence or a fold alone: another
    /// partner's lookalike code is another code). A same claim also names what is in effect (``ClaimInEffect``); another
    /// claim does not: the public key is in every copy of the app, so anyone could otherwise learn, for any user id,
    /// which partner brought that user.
    private func alreadyClaimed(
        _ existing: CustomerRecord, by claim: ClaimRequest, table: LinkTable, organization: OrganizationRecord
    ) -> APIResponse {
        let sameClaim =
            if let clickID = claim.clickID {
                existing.clickID == clickID
            } else if let code = claim.code {
                ASCII.sameCode(existing.code, code)
                    || Self.matches(code, existing, table: table, publicKey: organization.publicKey)
            } else {
                false
            }
        return success(
            status: "already_claimed", appUserID: claim.appUserID, sameClaim: sameClaim,
            inEffect: sameClaim ? ClaimInEffect(existing, table: table) : nil)
    }

    /// Whether `code` matches, in the link table, the code `existing` was claimed with.
    private static func matches(_ code: String, _ existing: CustomerRecord, table: LinkTable, publicKey: String) -> Bool
    {
        guard case .target(let target)? = table.match(publicKey: publicKey, code: code) else { return false }
        return target.partnerID == existing.partnerID && ASCII.sameCode(target.code, existing.code)
    }

    private func success(status: String, appUserID: String, sameClaim: Bool?, inEffect: ClaimInEffect?) -> APIResponse {
        var response = APIResponse.success { object in
            object.string("message", "Success")
            object.member("data") { json in
                json.object {
                    $0.string("status", status)
                    $0.string("app_user_id", appUserID)
                    if let sameClaim { $0.raw("same_claim", sameClaim ? "true" : "false") }
                    if let inEffect {
                        $0.string("code", inEffect.code)
                        $0.string("partner_name", inEffect.partnerName)
                    }
                }
            }
        }
        response.tally = .claim(status == "claimed" ? .claimed : .alreadyClaimed)
        return response
    }
}

/// What a claim's answer says is in effect for its user, so that an app can tell the person ("Code SAM20 applied",
/// "Invited by Sam") without a second call: the code the customer was claimed with, as the store holds it (a click
/// claim's too: its click's code), and its partner's name from the link table in force. Both come from what the
/// claim already read or wrote (the customer the store returned, the table in memory): no store round trip more.
private struct ClaimInEffect {
    let code: String
    /// `null` in the answer when the partner has no name to show (``LinkTable/partnerName(_:of:)``).
    let partnerName: String?

    init(_ customer: CustomerRecord, table: LinkTable) {
        code = customer.code
        partnerName = table.partnerName(customer.partnerID, of: customer.organizationID)
    }
}
