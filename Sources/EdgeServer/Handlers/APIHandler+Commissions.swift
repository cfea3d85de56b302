import EdgeStore
import LinkCore

extension APIHandler {
    /// `GET /v1/commissions` with the secret key: newest first, paged like clicks, filtered by `partner_id`,
    /// `customer_id` (the app user id, or `cust_…`) and `status` (`pending` or `reversed`).
    func listCommissions(_ request: APIRequest) throws -> APIResponse {
        let organization = try authenticate(request)
        var query = CommissionQuery(organizationID: organization.id, limit: try limit(request))
        query.partnerID = request.query["partner_id"]
        query.customerID = request.query["customer_id"]
        if let after = request.query["starting_after"] {
            guard after.hasPrefix("comm_"), after.utf8.count <= 64 else {
                throw APIError.invalidRequest("starting_after must be a commission id (comm_…)")
            }
            query.startingAfter = after
        }
        if let status = request.query["status"] {
            guard let parsed = CommissionStatus(rawValue: status) else {
                throw APIError.invalidRequest("status must be pending or reversed")
            }
            query.status = parsed
        }
        let page = try reader.commissions(query)
        return APIResponse.success { ResourceJSON.list(page, into: &$0, item: ResourceJSON.commission) }
    }
}
