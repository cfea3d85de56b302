import EdgeStore
import LinkCore

extension APIHandler {
    /// `GET /v1/commissions` with the secret key: newest first, paged like clicks, filtered by `partner_id`,
    /// `customer_id` (the app user id, or `cust_…`) and `status` (`pending` or `reversed`).
    func listCommissions(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        var query = CommissionQuery(organizationID: organization.id, limit: try limit(request))
        query.partnerID = try partnerID(request, of: organization)
        query.customerID = request.query["customer_id"]
        query.startingAfter = try startingAfter(request, prefix: "comm_", noun: "a commission id")
        query.status = try status(request, as: CommissionStatus.self)
        let page = try reader.commissions(query)
        return APIResponse.success { ResourceJSON.list(page, into: &$0, item: ResourceJSON.commission) }
    }
}
