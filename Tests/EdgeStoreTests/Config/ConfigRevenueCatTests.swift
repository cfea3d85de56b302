import EdgeStore
import LinkCore
import TestSupport
import Testing

/// An organization's `revenuecat.authorization` in the import file: stored verbatim, kept when left out,
/// cleared by `null`, and never written by `export` nor repeated in an error.
@Suite struct ConfigRevenueCatTests {
    static let secret = "Bearer rc-webhook-7f3a9c"

    /// Sets `org_acme`'s `revenuecat` member to `body`.
    static func acmeRevenueCat(_ body: String) -> String {
        #"{"organizations":[{"id":"org_acme","revenuecat":\#(body)}]}"#
    }

    static func storedAuthorization(_ fixture: StoreFixture) throws -> String? {
        try #require(try fixture.store.configRecords().organizations.first { $0.id == "org_acme" })
            .revenueCatAuthorizationDigest
    }

    @Test func theDocumentTellsAbsentFromNullAndFromAValue() throws {
        let document = try ConfigDocument(
            json: Array(
                """
                {"organizations":[{"public_key":"pk_a"},{"public_key":"pk_b","revenuecat":null},
                  {"public_key":"pk_c","revenuecat":{}},{"public_key":"pk_d","revenuecat":{"authorization":null}},
                  {"public_key":"pk_e","revenuecat":{"authorization":"\(Self.secret)"}}]}
                """.utf8))
        #expect(
            document.organizations.map(\.revenueCatAuthorization) == [
                .absent, .null, .absent, .null, .value(Self.secret),
            ])
    }

    @Test(arguments: StoreKind.allCases) func theAuthorizationIsStoredKeptWhenAbsentAndClearedByNull(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        #expect(try Self.storedAuthorization(fixture) == nil)

        let set = try fixture.importJSON(Self.acmeRevenueCat(#"{"authorization":"\#(Self.secret)"}"#))
        #expect(set.changes == ["updated organization org_acme"], "a change of only the authorization is an update")
        #expect(try Self.storedAuthorization(fixture) == SecretDigest.of(Self.secret))

        // Left out (no revenuecat, or revenuecat without authorization): kept, and nothing to write.
        let revision = try fixture.store.configRevision()
        #expect(try fixture.importJSON(ConfigFixtures.acme).reportsNothing)
        #expect(try fixture.importJSON(Self.acmeRevenueCat("{}")).reportsNothing)
        #expect(try fixture.importJSON(#"{"organizations":[{"id":"org_acme","name":"Acme Inc"}]}"#).changes.count == 1)
        #expect(try Self.storedAuthorization(fixture) == SecretDigest.of(Self.secret))
        #expect(try fixture.store.configRevision() == revision + 1)

        // A new value replaces it verbatim, inner spaces and punctuation included.
        let other = #"Basic dXNlcjpwYXNz!~ "quoted" \\ x"#
        let replaced = try fixture.importJSON(
            Self.acmeRevenueCat(#"{"authorization":"Basic dXNlcjpwYXNz!~ \"quoted\" \\\\ x"}"#))
        #expect(replaced.changes == ["updated organization org_acme"])
        #expect(try Self.storedAuthorization(fixture) == SecretDigest.of(other))

        #expect(try fixture.importJSON(Self.acmeRevenueCat(#"{"authorization":null}"#)).changes.count == 1)
        #expect(try Self.storedAuthorization(fixture) == nil)
        try fixture.importJSON(Self.acmeRevenueCat(#"{"authorization":"\#(Self.secret)"}"#))
        #expect(try fixture.importJSON(Self.acmeRevenueCat("null")).changes == ["updated organization org_acme"])
        #expect(try Self.storedAuthorization(fixture) == nil)
        #expect(try fixture.importJSON(Self.acmeRevenueCat("null")).reportsNothing)
    }

    @Test(arguments: StoreKind.allCases) func aNewOrganizationCanStartWithAnAuthorization(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(
            """
            {"organizations":[{"id":"org_new","name":"New","public_key":"pk_new","secret_key":"sk_new_secret",
              "revenuecat":{"authorization":"\(Self.secret)"}}]}
            """)
        let organization = try #require(try fixture.store.configRecords().organizations.first)
        #expect(organization.revenueCatAuthorizationDigest == SecretDigest.of(Self.secret))
    }

    @Test(arguments: StoreKind.allCases) func exportNeverWritesTheAuthorizationAndItsReimportKeepsIt(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.acmeRevenueCat(#"{"authorization":"\#(Self.secret)"}"#))
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        #expect(!exported.contains(Self.secret) && !exported.contains("rc-webhook"))
        #expect(!exported.contains("revenuecat") && !exported.contains("authorization"))

        #expect(try fixture.importJSON(exported).reportsNothing)
        #expect(
            try Self.storedAuthorization(fixture) == SecretDigest.of(Self.secret),
            "an export re-imported keeps the secret")
        let copy = try StoreFixture(kind)
        defer { copy.remove() }
        try copy.importJSON(exported)
        #expect(try copy.store.configRecords().organizations.first?.revenueCatAuthorizationDigest == nil)
    }

    @Test(arguments: StoreKind.allCases) func anInvalidAuthorizationIsNotRepeatedInTheError(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let error = try #require(throws: StoreError.self) {
            try fixture.importJSON(Self.acmeRevenueCat(#"{"authorization":"\#(Self.secret) "}"#))
        }
        #expect(error.message.hasPrefix("organizations[0].revenuecat.authorization: "), "\(error.message)")
        #expect(!error.message.contains("rc-webhook"))
        #expect(try Self.storedAuthorization(fixture) == nil)
    }
}
