import LinkCore
import Testing

@testable import EdgeServer

/// How long a dashboard cookie lasts when the lifetime changes between its sign-in and its use (a restart with
/// another `--dashboard-session`), and the cookies of the format before, at set times: no clock, no sockets.
@Suite struct DashboardSessionLifetimeTests {
    static let signer = ClickSigner(secret: Array("session lifetime test key".utf8))
    static let acme = OrganizationRecord(
        id: "org_acme", name: "Acme", publicKey: "pk_acme", secretKeyDigest: SecretDigest.of("sk_acme_secret"))
    static let signIn: Int64 = 1_796_000_000
    static let hour: Int64 = 3600

    static func sessions(lifetime: Int64) -> DashboardSessions {
        DashboardSessions(signer: signer, lifetime: lifetime, secure: false)
    }

    /// Whether `value` opens a session at `now` under `lifetime`.
    static func isLive(_ value: String, at now: Int64, lifetime: Int64) -> Bool {
        sessions(lifetime: lifetime).verify(value, now: now, organization: { $0 == acme.id ? acme : nil }) == acme
    }

    /// A session given under 8 hours lasts 1 hour from its sign-in once the server runs with 1 hour, and never
    /// past its own 8 hours when the server runs with 24. It lasted its whole 8 hours under 1 hour before (the
    /// check was only that no more than the new lifetime was left), unless more than the new lifetime was left, when
    /// it ended at once.
    @Test func aSessionEndsAtTheEarlierOfItsExpiryAndItsSignInPlusTheCurrentLifetime() throws {
        let value = try #require(Self.sessions(lifetime: 8 * Self.hour).value(for: Self.acme, now: Self.signIn))
        let shorter = Self.hour
        #expect(Self.isLive(value, at: Self.signIn, lifetime: shorter))
        #expect(Self.isLive(value, at: Self.signIn + shorter - 1, lifetime: shorter))
        #expect(!Self.isLive(value, at: Self.signIn + shorter, lifetime: shorter))
        #expect(!Self.isLive(value, at: Self.signIn + 7 * Self.hour + 30 * 60, lifetime: shorter))
        #expect(Self.isLive(value, at: Self.signIn + 8 * Self.hour - 1, lifetime: 8 * Self.hour))
        #expect(Self.isLive(value, at: Self.signIn + 8 * Self.hour - 1, lifetime: 24 * Self.hour))
        #expect(!Self.isLive(value, at: Self.signIn + 8 * Self.hour, lifetime: 24 * Self.hour))
        // Another node whose clock is a little ahead gave it: taken; a sign-in far in the future is no session.
        #expect(Self.isLive(value, at: Self.signIn - 60, lifetime: shorter))
        #expect(!Self.isLive(value, at: Self.signIn - 61, lifetime: shorter))
        // Times at Int64's ends are refused before any sum could overflow (the MAC is checked after them).
        for (start, end) in [(Int64.max, Int64.max), (Int64.min, Int64.max), (Self.signIn, Int64.min)] {
            #expect(!Self.isLive("org_acme.\(start).\(end).00", at: Self.signIn, lifetime: 24 * Self.hour))
        }
    }

    /// A cookie of the format before (`<id>.<expiry>.<mac>`, no sign-in time): an upgrade signs nobody out. With its
    /// start unknown, it lasts until its expiry, and is refused while more than the current lifetime is left.
    @Test func aCookieOfTheFormatBeforeLastsUntilItsExpiryWithinTheCurrentLifetime() throws {
        let expiry = Self.signIn + 8 * Self.hour
        let key = MessageAuthenticator(
            key: try #require(Self.signer.code(for: Array("tolt-edge dashboard session v1".utf8))))
        let mac = key.hexCode(for: "org_acme.\(expiry).\(Self.acme.secretKeyDigest)")
        let former = "org_acme.\(expiry).\(mac)"
        #expect(Self.isLive(former, at: Self.signIn, lifetime: 8 * Self.hour))
        #expect(Self.isLive(former, at: expiry - 1, lifetime: 8 * Self.hour))
        #expect(!Self.isLive(former, at: expiry, lifetime: 8 * Self.hour))
        #expect(!Self.isLive(former, at: Self.signIn, lifetime: Self.hour))
        #expect(Self.isLive(former, at: expiry - Self.hour, lifetime: Self.hour))
        // The old MAC does not sign a cookie of the current format, nor the current one an old cookie.
        #expect(!Self.isLive("org_acme.\(Self.signIn).\(expiry).\(mac)", at: Self.signIn, lifetime: 8 * Self.hour))
        let current = try #require(Self.sessions(lifetime: 8 * Self.hour).value(for: Self.acme, now: Self.signIn))
        let currentMAC = try #require(current.split(separator: ".").last)
        #expect(!Self.isLive("org_acme.\(expiry).\(currentMAC)", at: Self.signIn, lifetime: 8 * Self.hour))
    }
}
