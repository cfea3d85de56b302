import Foundation
import TestSupport

/// Reading the JSON answers of the claim and customer endpoints.
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

    /// The success answer of a claim, exact but for the values of `code` and `partner_name`, which `claimed` carries
    /// (whichever code and partner the test claimed; ``isClaimed(user:code:partner:)`` names them).
    func isClaim(_ status: String, user: String) -> Bool {
        let head = #"{"success":true,"message":"Success","data":{"status":"\#(status)","app_user_id":"\#(user)""#
        return self.status == 200 && (status == "claimed" ? namesWhatIsInEffect(after: head) : text == head + "}}\n")
    }

    /// `claimed` for `user`, exactly, naming `code` and `partner` (`nil`: `null`) as in effect.
    func isClaimed(user: String, code: String, partner: String?) -> Bool {
        status == 200
            && text == #"{"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"\#(user)","#
                + Self.inEffect(code: code, partner: partner) + "}}\n"
    }

    /// `already_claimed` for `user`, its `same_claim` as given: whether the user's partner came from this claim's
    /// own code or click. A same claim also names what is in effect, exact but for its values
    /// (``isSameClaim(user:code:partner:)`` names them); another claim names nothing.
    func isAlreadyClaimed(user: String, sameClaim: Bool) -> Bool {
        let head =
            #"{"success":true,"message":"Success","data":{"status":"already_claimed","app_user_id":"\#(user)","#
            + #""same_claim":\#(sameClaim)"#
        return status == 200 && (sameClaim ? namesWhatIsInEffect(after: head) : text == head + "}}\n")
    }

    /// `already_claimed` for `user` with `"same_claim":true`, exactly, naming `code` and `partner` (`nil`: `null`).
    func isSameClaim(user: String, code: String, partner: String?) -> Bool {
        status == 200
            && text
                == #"{"success":true,"message":"Success","data":{"status":"already_claimed","app_user_id":"\#(user)","#
                + #""same_claim":true,"# + Self.inEffect(code: code, partner: partner) + "}}\n"
    }

    /// `"code":…,"partner_name":…` as the server writes them.
    private static func inEffect(code: String, partner: String?) -> String {
        #""code":\#(quoted(code)),"partner_name":\#(partner.map(quoted) ?? "null")"#
    }

    /// A JSON string as the server writes one: `/` and text above ASCII as they are.
    private static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(
            withJSONObject: text, options: [.fragmentsAllowed, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether the body is `head`, then `,"code":"…","partner_name":"…"|null` and the end: a string code and a string
    /// or null name, and nothing else.
    private func namesWhatIsInEffect(after head: String) -> Bool {
        guard text.hasPrefix(head + #","code":"#), text.hasSuffix("}}\n"),
            let data = jsonObject?["data"] as? [String: Any], data["code"] is String,
            data["partner_name"] is String || data["partner_name"] is NSNull
        else { return false }
        let code = data["code"] as! String
        return text == head + "," + Self.inEffect(code: code, partner: data["partner_name"] as? String) + "}}\n"
    }
}
