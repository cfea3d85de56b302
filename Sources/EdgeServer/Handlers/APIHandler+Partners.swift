import EdgeStore
import LinkCore

extension APIHandler {
    /// The most codes listed with a partner; `codes_truncated` says when it has more.
    static let maximumListedCodes = 100

    /// `GET /v1/partners` with the secret key: the organization's partners, active or not, in byte order of their
    /// ids (a partner has no creation time to list it by, and its id never changes), paged like the other lists
    /// (`starting_after` a partner id), filtered by `status`, each with its codes and its balance
    /// (``Store/partnerBalances(organizationID:partnerIDs:)``, one read for the page).
    func listPartners(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        let limit = try limit(request)
        let status = try status(request, as: PartnerStatus.self)
        // The store, not the table in force: a partner imported a moment ago is listed before this node reloads. The
        // organization's configuration alone (``Store/configRecords(organizationID:)``): on a shared store, reading
        // every organization's cost each request 130-200 ms with 120,000 partners of others.
        let records = try reader.configRecords(organizationID: organization.id)
        let partners = records.partners.sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
        var start = 0
        if let after = request.query["starting_after"] {
            guard let index = partners.firstIndex(where: { $0.id == after }) else {
                throw APIError.invalidRequest(
                    "starting_after \(QuotedText.shown(after)) is no partner of this organization: give the last id"
                        + " of the page before")
            }
            start = index + 1
        }
        let matching = partners[start...].lazy.filter { status == nil || $0.status == status?.rawValue }
        let page = Array(matching.prefix(limit + 1))
        let shown = Array(page.prefix(limit))
        let balances = try reader.partnerBalances(organizationID: organization.id, partnerIDs: shown.map(\.id))
        var codes: [String: [CodeRecord]] = [:]
        let listed = Set(shown.map(\.id))
        for code in records.codes where listed.contains(code.partnerID) {
            codes[code.partnerID, default: []].append(code)
        }
        let items = shown.map { partner in
            PartnerListItem(
                partner: partner,
                codes: (codes[partner.id] ?? []).sorted {
                    Array($0.code.utf8).lexicographicallyPrecedes(Array($1.code.utf8))
                },
                balance: balances[partner.id] ?? PartnerBalance())
        }
        return APIResponse.success {
            ResourceJSON.list(Page(items: items, hasMore: page.count > limit), into: &$0, item: ResourceJSON.partner)
        }
    }
}

/// A partner's `status`, as the `status` filter takes it.
enum PartnerStatus: String, CaseIterable {
    case active, inactive
}

/// One item of `GET /v1/partners`: the partner, its codes in byte order, and its balance.
public struct PartnerListItem: Sendable {
    public var partner: PartnerRecord
    public var codes: [CodeRecord]
    public var balance: PartnerBalance

    public init(partner: PartnerRecord, codes: [CodeRecord], balance: PartnerBalance) {
        self.partner = partner
        self.codes = codes
        self.balance = balance
    }
}
