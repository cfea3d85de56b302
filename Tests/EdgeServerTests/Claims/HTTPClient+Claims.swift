import TestSupport

/// Claims and customer lists over the test client's real socket.
extension HTTPClient {
    /// `POST /client/claims` with `body` as it is.
    func claim(_ body: String, headers: [(String, String)] = []) throws -> HTTPResponse {
        try claim(bytes: Array(body.utf8), headers: headers)
    }

    func claim(bytes: [UInt8], headers: [(String, String)] = []) throws -> HTTPResponse {
        try request("POST", "/client/claims", headers: [("Content-Type", "application/json")] + headers, body: bytes)
    }

    /// `GET /v1/customers?<query>` with a secret key; the whole answer, which must be a 200.
    func customerPage(_ query: String = "", key: String = "sk_acme_secret") throws -> [String: Any] {
        let response = try request(
            "GET", "/v1/customers" + (query.isEmpty ? "" : "?" + query), headers: [("Authorization", "Bearer \(key)")])
        guard response.status == 200, let object = response.jsonObject else {
            throw TestError("GET /v1/customers?\(query): \(response.status) \(response.text)")
        }
        return object
    }

    /// The body of `GET /v1/customers?<query>` as sent, to prove that nothing changed byte for byte.
    func customerText(_ query: String = "", key: String = "sk_acme_secret") throws -> String {
        let response = try request(
            "GET", "/v1/customers?limit=100&" + query, headers: [("Authorization", "Bearer \(key)")])
        guard response.status == 200 else {
            throw TestError("GET /v1/customers: \(response.status) \(response.text)")
        }
        return response.text
    }

    /// The `data` of `GET /v1/customers?<query>`.
    func customers(_ query: String = "", key: String = "sk_acme_secret") throws -> [[String: Any]] {
        try customerPage(query, key: key)["data"] as? [[String: Any]] ?? []
    }
}
