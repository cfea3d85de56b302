import LinkCore
import Synchronization

/// The dashboard's sessions: stateless, so that every node of a shared store accepts a session any node gave.
///
/// The cookie is `tolt_session=<organization id>.<issued>.<expiry>.<mac>`: when the session began and when it ends,
/// in seconds since 1970, and the MAC an HMAC-SHA256 of the id, both times and the digest of the organization's
/// current secret key, under a key derived from the store's click signing key (shared by every node). A session
/// lasts while both its expiry and its start plus the lifetime the server runs with now are ahead, so a shorter
/// `--dashboard-session` after a restart shortens the sessions already given too. Importing a new secret key changes
/// the digest, so every session of that organization ends. The CSRF token of a session is the HMAC of its cookie
/// value under a second derived key: it needs no storage, and it is only known to whoever can read the page.
///
/// Builds before gave `<organization id>.<expiry>.<mac>`, without the start, under a key of its own: an upgrade signs
/// nobody out, ``verify(_:now:organization:)`` still takes one, for the at most 24 hours it can last.
struct DashboardSessions: Sendable {
    static let cookieName = "tolt_session"
    /// What the dashboard's paths share, and so the cookie's `Path`.
    static let cookiePath = "/dashboard"
    /// The default lifetime of a session, in seconds (`--dashboard-session`).
    static let defaultLifetime: Int64 = 8 * 3600
    /// How far ahead of this node's clock another node's may be: a session it began that many seconds "later" is
    /// still taken.
    static let clockSkew: Int64 = 60

    private let keys: DerivedKeys
    /// Seconds a session lasts.
    let lifetime: Int64
    /// Whether the cookie says `Secure` (the server speaks TLS).
    let secure: Bool

    /// `signer` may get its key after start-up (a node whose store was down); until then no organization can be
    /// found (the key is installed before the first configuration), so no session is made or accepted.
    init(signer: ClickSigner, lifetime: Int64, secure: Bool) {
        keys = DerivedKeys(signer: signer)
        self.lifetime = lifetime
        self.secure = secure
    }

    /// A new session's cookie value for `organization`, begun `now` and valid until `now + lifetime`; `nil` while
    /// the signer has no key (then no organization is known either).
    func value(for organization: OrganizationRecord, now: Int64) -> String? {
        let times = "\(now).\(now + lifetime)"
        guard let mac = keys.get()?.session.hexCode(for: "\(organization.id).\(times).\(organization.secretKeyDigest)")
        else { return nil }
        return "\(organization.id).\(times).\(mac)"
    }

    /// The organization a cookie value holds a live session of, or `nil` when it is malformed, forged, expired,
    /// or its organization is gone or changed its secret key. `organization` looks an id up in the link table.
    ///
    /// A session is live while its expiry and its start plus ``lifetime`` are both ahead of `now` (and its start is
    /// not more than ``clockSkew`` ahead). A session of the format before (no start) is live while its expiry is
    /// ahead, but no further than ``lifetime`` (and the skew): the most a session whose start is unknown can have left.
    ///
    /// The times must be written as ``value(for:now:)`` writes them (decimal digits, no sign, no leading zero): the
    /// MAC covers the numbers, so `+1796157970` or `01796157970` would otherwise be a second valid cookie for the
    /// same session, with a CSRF token of its own. A cookie has exactly one valid spelling.
    func verify(_ value: String, now: Int64, organization: (String) -> OrganizationRecord?) -> OrganizationRecord? {
        guard value.utf8.count <= 200, let keys = keys.get() else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let key: MessageAuthenticator
        switch parts.count {
        case 4:
            guard let issued = Self.time(parts[1]), let expiry = Self.time(parts[2]), issued <= now + Self.clockSkew,
                now < expiry, now < issued + lifetime
            else { return nil }
            key = keys.session
        case 3:
            guard let expiry = Self.time(parts[1]), now < expiry, expiry <= now + lifetime + Self.clockSkew else {
                return nil
            }
            key = keys.formerSession
        default:
            return nil
        }
        guard let record = organization(String(parts[0])) else { return nil }
        let signed = parts.dropLast().joined(separator: ".") + "." + record.secretKeyDigest
        return MessageAuthenticator.constantTimeEquals(String(parts[parts.count - 1]), key.hexCode(for: signed))
            ? record : nil
    }

    /// A time as ``value(for:now:)`` writes it, in its one spelling; `nil` for any other text.
    private static func time(_ text: Substring) -> Int64? {
        guard let time = Int64(text), String(time) == text else { return nil }
        return time
    }

    /// The CSRF token every form of a session carries.
    func csrfToken(for sessionValue: String) -> String {
        keys.get()?.csrf.hexCode(for: sessionValue) ?? ""
    }

    /// Whether `token` is the CSRF token of `sessionValue` (compared in constant time).
    func checkCSRF(_ token: String?, sessionValue: String) -> Bool {
        guard let token, keys.get() != nil else { return false }
        return MessageAuthenticator.constantTimeEquals(token, csrfToken(for: sessionValue))
    }

    /// `Set-Cookie` for a new session.
    func setCookie(_ value: String) -> String {
        "\(Self.cookieName)=\(value); Path=\(Self.cookiePath); Max-Age=\(lifetime); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    /// `Set-Cookie` that removes the session (sign-out).
    var clearCookie: String {
        "\(Self.cookieName)=; Path=\(Self.cookiePath); Max-Age=0; HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    /// The session value in a `Cookie` header, if any.
    static func cookieValue(in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard trimmed.hasPrefix(cookieName + "=") else { continue }
            return String(trimmed.dropFirst(cookieName.utf8.count + 1))
        }
        return nil
    }
}

/// The session and CSRF keys, each the HMAC of its purpose's label under the click signing key, derived once the
/// signer has that key. `formerSession` checks the cookies of the format before (``DashboardSessions``): a label of
/// its own per format, so that no MAC of one format is ever a MAC of the other.
private final class DerivedKeys: Sendable {
    struct Keys: Sendable {
        let session, formerSession, csrf: MessageAuthenticator
    }

    private let signer: ClickSigner
    private let derived = Mutex<Keys?>(nil)

    init(signer: ClickSigner) { self.signer = signer }

    func get() -> Keys? {
        derived.withLock { derived in
            if let derived { return derived }
            guard let session = signer.code(for: Array("tolt-edge dashboard session v2".utf8)),
                let formerSession = signer.code(for: Array("tolt-edge dashboard session v1".utf8)),
                let csrf = signer.code(for: Array("tolt-edge dashboard csrf v1".utf8))
            else { return nil }
            derived = Keys(
                session: MessageAuthenticator(key: session), formerSession: MessageAuthenticator(key: formerSession),
                csrf: MessageAuthenticator(key: csrf))
            return derived
        }
    }
}
