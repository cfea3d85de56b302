import Foundation
import LinkCore
import TestSupport

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
