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

    /// The exact success answer of a claim.
    func isClaim(_ status: String, user: String) -> Bool {
        self.status == 200
            && text == #"{"success":true,"message":"Success","data":{"status":"\#(status)","app_user_id":"\#(user)"}}"#
                + "\n"
    }

    /// `already_claimed` for `user`, its `same_claim` as given: whether the user's partner came from this claim's
    /// own code or click.
    func isAlreadyClaimed(user: String, sameClaim: Bool) -> Bool {
        status == 200
            && text
                == #"{"success":true,"message":"Success","data":{"status":"already_claimed","app_user_id":"\#(user)","#
                + #""same_claim":\#(sameClaim)}}"# + "\n"
    }
}
