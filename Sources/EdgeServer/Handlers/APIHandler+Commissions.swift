import EdgeStore
import LinkCore

extension APIHandler {
    /// `GET /v1/commissions` with the secret key: newest first, paged like clicks, filtered by `partner_id`,
    /// `customer_id` (the app user id, or `cust_…`), `status` (`pending` or `reversed`), `created_since` and
    /// `created_before` (ISO 8601 times with their offset: the half-open range of `created_at`, refused when empty)
    /// `paid` (`false`: no payout holds it now, as a payout finds it; `true`: a payout settled it) and `payout_id`
    /// (those a payout paid or took back).
    func listCommissions(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        var query = CommissionQuery(organizationID: organization.id, limit: try limit(request))
        query.partnerID = try partnerID(request, of: organization)
        query.customerID = request.query["customer_id"]
        query.startingAfter = try startingAfter(request, prefix: "comm_", noun: "a commission id")
        query.status = try status(request, as: CommissionStatus.self)
        if let since = request.query["created_since"] {
            query.createdSince = try Self.filter {
                try ListFilters.time(since, name: "created_since", hint: Self.plusHint)
            }
        }
        if let before = request.query["created_before"] {
            query.createdBefore = try Self.filter {
                try ListFilters.time(before, name: "created_before", hint: Self.plusHint)
            }
        }
        try Self.filter {
            try ListFilters.range(
                since: query.createdSince, before: query.createdBefore, names: ("created_since", "created_before"))
        }
        if let paid = request.query["paid"] {
            query.paid = try Self.filter { try ListFilters.boolean(paid, name: "paid") }
        }
        if let payout = request.query["payout_id"] {
            query.payoutID = try Self.filter {
                try ListFilters.cursor(payout, name: "payout_id", prefix: "pay_", noun: "a payout id")
            }
        }
        let page = try reader.commissions(query)
        return APIResponse.success { ResourceJSON.list(page, into: &$0, item: ResourceJSON.commission) }
    }
}
