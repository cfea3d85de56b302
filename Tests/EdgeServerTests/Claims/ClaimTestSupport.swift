import Foundation
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

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
            throw ClientError("GET /v1/customers?\(query): \(response.status) \(response.text)")
        }
        return object
    }

    /// The body of `GET /v1/customers?<query>` as sent, to prove that nothing changed byte for byte.
    func customerText(_ query: String = "", key: String = "sk_acme_secret") throws -> String {
        let response = try request(
            "GET", "/v1/customers?limit=100&" + query, headers: [("Authorization", "Bearer \(key)")])
        guard response.status == 200 else {
            throw ClientError("GET /v1/customers: \(response.status) \(response.text)")
        }
        return response.text
    }

    /// The `data` of `GET /v1/customers?<query>`.
    func customers(_ query: String = "", key: String = "sk_acme_secret") throws -> [[String: Any]] {
        try customerPage(query, key: key)["data"] as? [[String: Any]] ?? []
    }
}

extension HTTPResponse {
    /// The body as a JSON object, or `nil`.
    var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) as? [String: Any]
    }

    /// The machine code of an error answer.
    var errorCode: String? { jsonObject?["error"] as? String }
    var message: String { jsonObject?["message"] as? String ?? "" }

    /// Whether this is the one JSON error shape: `success` false, a message and the machine `code`.
    func isError(_ status: Int, _ code: String) -> Bool {
        guard let json = jsonObject, self.status == status, json["success"] as? Bool == false,
            json["error"] as? String == code,
            let message = json["message"] as? String, !message.isEmpty, json.count == 3
        else { return false }
        return header("content-type")?.hasPrefix("application/json") == true
    }

    /// The exact success answer of a claim.
    func isClaim(_ status: String, user: String) -> Bool {
        self.status == 200
            && text == #"{"success":true,"message":"Success","data":{"status":"\#(status)","app_user_id":"\#(user)"}}"#
                + "\n"
    }
}

/// Claim bodies, built the way an app builds them.
enum ClaimBody {
    static func make(
        publicID: String = "pk_acme", user: String, code: String? = nil, clickID: String? = nil,
        firstSeenAt: String? = nil
    ) -> String {
        var fields = [#""public_id":\#(quoted(publicID))"#, #""app_user_id":\#(quoted(user))"#]
        if let code { fields.append(#""code":\#(quoted(code))"#) }
        if let clickID { fields.append(#""click_id":\#(quoted(clickID))"#) }
        if let firstSeenAt { fields.append(#""first_seen_at":\#(quoted(firstSeenAt))"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A claim for the windowed program `prg_acme`, first seen an hour ago.
    static func recent(user: String, code: String = "SAM20", publicID: String = "pk_acme") -> String {
        make(
            publicID: publicID, user: user, code: code,
            firstSeenAt: Timestamp.format(WallClock.milliseconds() - 3_600_000))
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
    }
}

/// A JSON value re-serialized with sorted keys, so that two documents compare by content.
func canonicalJSON(_ object: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    else { return "<not JSON: \(object)>" }
    return String(decoding: data, as: UTF8.self)
}

enum WallClock {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec / 1_000_000)
    }

    /// `first_seen_at` text for `offset` milliseconds from now, in the given style.
    static func iso(offset: Int64) -> String { Timestamp.format(milliseconds() + offset) }
}

extension Int64 {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
}
