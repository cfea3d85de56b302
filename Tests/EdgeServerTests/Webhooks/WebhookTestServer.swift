import EdgeStore
import Foundation
import LinkCore
import TestSupport

/// A test server whose organizations take RevenueCat webhooks, and the calls the webhook tests make.
extension TestServer {
    /// `org_acme`'s RevenueCat authorization value in ``webhookConfig``.
    static let authorization = "Bearer rc_hook_0123456789"

    /// The standard fixture with webhooks: `org_acme` takes them (``authorization``); `prg_acme` (code `SAM20`,
    /// 30-day claim window) pays 20 % on every purchase for 12 months, `prg_play` (`LEE`) 500 cents on the
    /// first purchase only, `prg_bare` (`BARE1`) nothing. `org_other` has no authorization set.
    static let webhookConfig = ConfigFixtures.standard
        .replacingOccurrences(
            of: #""secret_key":"sk_acme_secret","#,
            with: #""secret_key":"sk_acme_secret","revenuecat":{"authorization":"\#(authorization)"},"#
        )
        .replacingOccurrences(
            of: #""name":"Acme Pro","#,
            with: #""name":"Acme Pro","commission":{"percent":20,"recurring":true,"duration_months":12},"#
        )
        .replacingOccurrences(
            of: #""name":"Acme Lite","#,
            with: #""name":"Acme Lite","commission":{"fixed_cents":500,"recurring":false},"#)

    static func webhooks(_ kind: StoreKind = .sqlite) throws -> TestServer {
        try TestServer(config: webhookConfig, store: kind)
    }

    /// Claims `user` with `code` for `org_acme` (first seen an hour ago, inside every claim window).
    func claimUser(_ user: String, code: String = "SAM20") throws {
        let response = try client().claim(ClaimBody.recent(user: user, code: code))
        guard response.status == 200 else { throw TestError("claim \(user): \(response.status) \(response.text)") }
    }

    /// Records a claim of `user` for `part_sam` (`SAM20`, `prg_acme`) made at `claimedAt`, through the store as
    /// the claim route would: for tests whose purchases are dated in the past (the fixtures' story of 2026, a
    /// rule's months), since purchases made before the claim are not recorded and a claim over HTTP is made now.
    func claimUser(_ user: String, at claimedAt: Int64) throws {
        let (_, created) = try store.claim(
            CustomerRecord(
                id: EntityID.make(prefix: "cust_"), organizationID: "org_acme", customerID: user,
                partnerID: "part_sam", programID: "prg_acme", code: "SAM20", clickID: nil, status: "lead",
                claimedAt: claimedAt, firstSeenAt: claimedAt))
        guard created else { throw TestError("claim \(user): already claimed") }
    }
}

extension HTTPClient {
    /// `POST /webhooks/revenuecat/<key>` with `body` and, unless nil, `authorization`.
    func webhook(
        _ body: [UInt8], key: String = "pk_acme", authorization: String? = TestServer.authorization
    ) throws -> HTTPResponse {
        var headers = [("Content-Type", "application/json")]
        if let authorization { headers.append(("Authorization", authorization)) }
        return try request("POST", "/webhooks/revenuecat/\(key)", headers: headers, body: body)
    }

    /// Posts an event that must be answered `200`; returns its `outcome`.
    @discardableResult
    func deliver(_ body: [UInt8], key: String = "pk_acme") throws -> String {
        let response = try webhook(body, key: key)
        guard response.status == 200, let data = response.jsonObject?["data"] as? [String: Any],
            let outcome = data["outcome"] as? String
        else { throw TestError("webhook: \(response.status) \(response.text)") }
        return outcome
    }

    /// The `data` of `GET /v1/commissions?<query>`.
    func commissions(_ query: String = "", key: String = "sk_acme_secret") throws -> [[String: Any]] {
        try commissionPage(query, key: key)["data"] as? [[String: Any]] ?? []
    }

    func commissionPage(_ query: String = "", key: String = "sk_acme_secret") throws -> [String: Any] {
        let response = try request(
            "GET", "/v1/commissions" + (query.isEmpty ? "" : "?" + query),
            headers: [("Authorization", "Bearer \(key)")])
        guard response.status == 200, let object = response.jsonObject else {
            throw TestError("GET /v1/commissions?\(query): \(response.status) \(response.text)")
        }
        return object
    }

    /// The customer with app user id `user`.
    func customer(_ user: String) throws -> [String: Any] {
        guard let customer = try customers("customer_id=\(user)").first else { throw TestError("no customer \(user)") }
        return customer
    }
}
