import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Secret keys and webhook authorizations are kept as digests: an import hashes them, migration step 4 hashes the
/// ones an older store kept in clear, and nothing of the clear values is left in the database's files.
@Suite struct SecretsAtRestTests {
    static let secretKey = "sk_plain_secret_0123456789"
    static let authorization = "Bearer rc_plain_hook_0123456789"

    /// The bytes of the database and its write-ahead log.
    static func files(_ fixture: StoreFixture) -> [UInt8] {
        ["", "-wal"].flatMap { suffix in
            (try? Array(Data(contentsOf: URL(fileURLWithPath: fixture.sqliteStore.path + suffix)))) ?? []
        }
    }

    static func files(path: String) throws -> [UInt8] {
        let wal = (try? Array(Data(contentsOf: URL(fileURLWithPath: path + "-wal")))) ?? []
        return try Array(Data(contentsOf: URL(fileURLWithPath: path))) + wal
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test func anImportKeepsDigestsOnly() throws {
        let fixture = try StoreFixture(
            importing: """
                {"organizations":[{"id":"org_s","name":"S","public_key":"pk_s","secret_key":"\(Self.secretKey)",
                  "revenuecat":{"authorization":"\(Self.authorization)"}}]}
                """)
        defer { fixture.remove() }
        let organization = try #require(try fixture.store.configRecords().organizations.first)
        #expect(organization.secretKeyDigest == SecretDigest.of(Self.secretKey))
        #expect(organization.revenueCatAuthorizationDigest == SecretDigest.of(Self.authorization))
        #expect(LinkTable(try fixture.store.configRecords()).organization(secretKey: Self.secretKey)?.id == "org_s")
        let bytes = Self.files(fixture)
        #expect(!bytes.isEmpty)
        #expect(!Self.contains(bytes, Self.secretKey) && !Self.contains(bytes, "rc_plain_hook"))
    }

    /// A store of step 3 kept both in clear; step 4 hashes them in place, and the clear values leave the files.
    @Test func stepFourHashesWhatAnOlderStoreKeptInClear() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let old = try SQLiteStore(path: fixture.directory + "/step3.sqlite")
        try old.migrate(throughStep: 3)
        try old.withConnection { db in
            try db.query(
                """
                INSERT INTO organizations (id, name, public_key, secret_key, revenuecat_authorization)
                VALUES ('org_old', 'Old', 'pk_old', ?, ?)
                """, [.text(Self.secretKey), .text(Self.authorization)])
        }
        let before = try Self.files(path: old.path)
        #expect(Self.contains(before, Self.secretKey), "the step-3 store holds the key in clear")
        try old.migrate()
        let organization = try #require(try old.configRecords().organizations.first)
        #expect(organization.secretKeyDigest == SecretDigest.of(Self.secretKey))
        #expect(organization.revenueCatAuthorizationDigest == SecretDigest.of(Self.authorization))
        #expect(LinkTable(try old.configRecords()).organization(secretKey: Self.secretKey)?.id == "org_old")
        try old.migrate()  // again: digests are not hashed twice
        #expect(try old.configRecords().organizations.first?.secretKeyDigest == SecretDigest.of(Self.secretKey))
        let after = try Self.files(path: old.path)
        #expect(!Self.contains(after, Self.secretKey) && !Self.contains(after, "rc_plain_hook"))
    }
}
