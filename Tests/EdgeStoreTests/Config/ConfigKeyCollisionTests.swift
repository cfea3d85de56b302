import EdgeStore
import LinkCore
import TestSupport
import Testing

/// A secret key may be no public key, and a public key no secret key, the organization's own or another's: a public
/// key is printed in every link an organization shares. Before, `"public_key":"pub_abcdef","secret_key":"pub_abcdef"`
/// was imported and `Authorization: Bearer pub_abcdef` read the organization's clicks; so was a secret key equal to
/// another organization's public key, and a public key equal to another's secret key (`"public_key":"sk_demo"`). Each
/// is refused naming the field, nothing written. Secret keys are stored as digests: a public key is compared with
/// them by its digest.
@Suite struct ConfigKeyCollisionTests {
    /// A document that must be refused, and the start of its error (`org_acme`: `pk_acme`, `sk_acme_secret`;
    /// `org_other`: `pk_other`, `sk_other_secret`).
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var json: String
        var error: String
        var description: String { name }
    }

    static func organizations(_ body: String) -> String { #"{"organizations":[\#(body)]}"# }

    static let cases: [Case] = [
        Case(
            name: "a new organization's secret key equal to its public key",
            json: organizations(#"{"id":"org_new","name":"N","public_key":"pub_abcdef","secret_key":"pub_abcdef"}"#),
            error: "organizations[0].secret_key: must differ from the public key, which every link shows"),
        Case(
            name: "a secret key set to the organization's stored public key",
            json: organizations(#"{"id":"org_acme","secret_key":"pk_acme"}"#),
            error: "organizations[0].secret_key: must differ from the public key"),
        Case(
            name: "a public key set to the organization's stored secret key",
            json: organizations(#"{"id":"org_acme","public_key":"sk_acme_secret"}"#),
            error: "organizations[0].public_key: must differ from the secret key"),
        Case(
            name: "a new organization's secret key equal to another's public key",
            json: organizations(#"{"id":"org_new","name":"N","public_key":"pk_new","secret_key":"pk_acme"}"#),
            error: "organizations[0].secret_key: is another organization's public key"),
        Case(
            name: "a secret key set to another organization's public key",
            json: organizations(#"{"id":"org_other","secret_key":"pk_acme"}"#),
            error: "organizations[0].secret_key: is another organization's public key"),
        Case(
            name: "a new organization's public key equal to another's secret key",
            json: organizations(#"{"id":"org_new","name":"N","public_key":"sk_acme_secret"}"#),
            error: "organizations[0].public_key: is another organization's secret key"),
        Case(
            name: "a public key set to another organization's secret key",
            json: organizations(#"{"id":"org_other","public_key":"sk_acme_secret"}"#),
            error: "organizations[0].public_key: is another organization's secret key"),
        Case(
            name: "a secret key equal to a public key earlier in the file",
            json: organizations(
                #"{"id":"org_x","name":"X","public_key":"pk_x_shared"},"#
                    + #"{"id":"org_y","name":"Y","public_key":"pk_y","secret_key":"pk_x_shared"}"#),
            error: "organizations[1].secret_key: is another organization's public key"),
        Case(
            name: "a public key equal to a secret key earlier in the file",
            json: organizations(
                #"{"id":"org_x","name":"X","public_key":"pk_x","secret_key":"sk_x_shared"},"#
                    + #"{"id":"org_y","name":"Y","public_key":"sk_x_shared"}"#),
            error: "organizations[1].public_key: is another organization's secret key"),
        Case(
            name: "a secret key equal to another organization's secret key",
            json: organizations(#"{"id":"org_new","name":"N","public_key":"pk_new","secret_key":"sk_acme_secret"}"#),
            error: "organizations[0].secret_key: is already used by another organization"),
    ]

    @Test(arguments: StoreKind.allCases, cases)
    func aKeyOfTheOtherKindIsRefusedNamingTheFieldAndNothingIsWritten(kind: StoreKind, _ invalid: Case) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let before = try fixture.store.configRecords()
        let revision = try fixture.store.configRevision()
        let error = try #require(throws: StoreError.self) { try fixture.importJSON(invalid.json) }
        #expect(error.code == "invalid_config")
        #expect(error.message.hasPrefix(invalid.error), "\(error.message)")
        #expect(try fixture.store.configRecords() == before)
        #expect(try fixture.store.configRevision() == revision)
    }

    /// Keys of both kinds that differ are taken, a key moved between kinds of one organization in one import
    /// included only when it stops being the other.
    @Test(arguments: StoreKind.allCases) func distinctKeysAreTaken(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let report = try fixture.importJSON(
            Self.organizations(
                #"{"id":"org_new","name":"N","public_key":"pub_abcdef","secret_key":"sk_abcdef"},"#
                    + #"{"id":"org_acme","secret_key":"sk_acme_rotated"},"#
                    // The old secret is a digest nobody holds now: a public key may take its text.
                    + #"{"id":"org_other","public_key":"sk_acme_secret"}"#))
        #expect(!report.warnings.contains { $0.contains("_key") }, "\(report.warnings)")
        let organizations = try fixture.store.configRecords().organizations
        let new = try #require(organizations.first { $0.id == "org_new" })
        #expect(new.publicKey == "pub_abcdef" && new.secretKeyDigest == SecretDigest.of("sk_abcdef"))
        #expect(organizations.first { $0.id == "org_other" }?.publicKey == "sk_acme_secret")
    }

    /// Keys stored alike before the rule (another tool, an earlier build) are not refused when an import leaves
    /// them as they are, as an export re-imported and every dashboard form do: each is warned about, naming the
    /// secret key to replace.
    @Test(arguments: StoreKind.allCases) func keysStoredAlikeBeforeTheRuleAreWarnedAboutNotRefused(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        // org_acme's secret key is its own public key.
        var acme = try #require(try fixture.store.configRecords().organizations.first { $0.id == "org_acme" })
        acme.secretKeyDigest = SecretDigest.of("pk_acme")
        var changes = ConfigChanges()
        changes.organizations = [acme]
        try fixture.store.applyConfig(changes, expectedRevision: try fixture.store.configRevision())

        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        let report = try fixture.importJSON(exported)
        #expect(report.changes.isEmpty, "\(report.changes)")
        let warnings = report.warnings.joined(separator: "\n")
        #expect(warnings.contains("the stored secret key is the organization's public key"), "\(warnings)")

        // A public key stored equal to another organization's secret key.
        var other = try #require(try fixture.store.configRecords().organizations.first { $0.id == "org_other" })
        other.publicKey = "sk_third"
        var third = other
        third.id = "org_third"
        third.publicKey = "pk_third"
        third.secretKeyDigest = SecretDigest.of("sk_third")
        changes.organizations = [other, third]
        try fixture.store.applyConfig(changes, expectedRevision: try fixture.store.configRevision())
        let again = try fixture.importJSON(#"{"organizations":[{"id":"org_other","name":"Other"}]}"#)
        #expect(
            again.warnings.contains { $0.contains("public_key: is the stored secret key of org_third") },
            "\(again.warnings)")
        // Setting the secret key anew is how either is mended, and it is then refused no more.
        try fixture.importJSON(#"{"organizations":[{"id":"org_third","secret_key":"sk_third_rotated"}]}"#)
        let mended = try fixture.importJSON(#"{"organizations":[{"id":"org_other","name":"Other"}]}"#)
        #expect(!mended.warnings.contains { $0.contains("_key") }, "\(mended.warnings)")
    }
}
