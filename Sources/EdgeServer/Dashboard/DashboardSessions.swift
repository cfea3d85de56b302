import LinkCore
import Synchronization

/// The dashboard's sessions: stateless, so that every node of a shared store accepts a session any node gave.
///
/// The cookie is `tolt_session=<organization id>.<expiry>.<mac>`: the expiry in seconds since 1970, the MAC an
/// HMAC-SHA256 of the id, the expiry and the digest of the organization's current secret key, under a key derived
/// from the store's click signing key (shared by every node). Importing a new secret key changes the digest, so
/// every session of that organization ends. The CSRF token of a session is the HMAC of its cookie value under a
/// second derived key: it needs no storage, and it is only known to whoever can read the page.
struct DashboardSessions: Sendable {
    static let cookieName = "tolt_session"
    /// What the dashboard's paths share, and so the cookie's `Path`.
    static let cookiePath = "/dashboard"
    /// The default lifetime of a session, in seconds (`--dashboard-session`).
    static let defaultLifetime: Int64 = 8 * 3600

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

    /// A new session's cookie value for `organization`, valid until `now + lifetime`; `nil` while the signer has no
    /// key (then no organization is known either).
    func value(for organization: OrganizationRecord, now: Int64) -> String? {
        let expiry = now + lifetime
        guard let mac = mac(organizationID: organization.id, expiry: expiry, organization) else { return nil }
        return "\(organization.id).\(expiry).\(mac)"
    }

    /// The organization a cookie value holds a live session of, or `nil` when it is malformed, forged, expired,
    /// or its organization is gone or changed its secret key. `organization` looks an id up in the link table.
    ///
    /// The expiry must be written as ``value(for:now:)`` writes it (decimal digits, no sign, no leading zero): the
    /// MAC covers the number, so `+1796157970` or `01796157970` would otherwise be a second valid cookie for the
    /// same session, with a CSRF token of its own. A cookie has exactly one valid spelling.
    func verify(_ value: String, now: Int64, organization: (String) -> OrganizationRecord?) -> OrganizationRecord? {
        guard value.utf8.count <= 200 else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let expiry = Int64(parts[1]), String(expiry) == parts[1], expiry > now,
            expiry <= now + lifetime + 60,
            let record = organization(String(parts[0]))
        else { return nil }
        guard let expected = mac(organizationID: record.id, expiry: expiry, record) else { return nil }
        return MessageAuthenticator.constantTimeEquals(String(parts[2]), expected) ? record : nil
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

    private func mac(organizationID: String, expiry: Int64, _ organization: OrganizationRecord) -> String? {
        keys.get()?.session.hexCode(for: "\(organizationID).\(expiry).\(organization.secretKeyDigest)")
    }
}

/// The session and CSRF keys, each the HMAC of its purpose's label under the click signing key, derived once the
/// signer has that key.
private final class DerivedKeys: Sendable {
    private let signer: ClickSigner
    private let derived = Mutex<(session: MessageAuthenticator, csrf: MessageAuthenticator)?>(nil)

    init(signer: ClickSigner) { self.signer = signer }

    func get() -> (session: MessageAuthenticator, csrf: MessageAuthenticator)? {
        derived.withLock { derived in
            if let derived { return derived }
            guard let session = signer.code(for: Array("tolt-edge dashboard session v1".utf8)),
                let csrf = signer.code(for: Array("tolt-edge dashboard csrf v1".utf8))
            else { return nil }
            derived = (MessageAuthenticator(key: session), MessageAuthenticator(key: csrf))
            return derived
        }
    }
}
