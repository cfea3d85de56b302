import TestSupport
import Testing

@testable import EdgeStore

/// A rollback: a store a newer build has migrated, opened by this build. Refused, changing nothing, unless the
/// newer build marked it as one this build may still use (`compatible_schema_version` in `meta`).
@Suite struct SchemaCompatibilityTests {
    /// The steps this build knows for the fixture's kind of store.
    static func known(_ kind: StoreKind) -> Int {
        kind == .sqlite ? SQLiteMigrations.steps.count : PostgresMigrations.steps.count
    }

    static func execute(_ sql: String, on store: any Store) throws {
        if let store = store as? SQLiteStore {
            try store.withConnection { try $0.execute(sql) }
        } else if let store = store as? PostgresStore {
            try store.withConnection { try $0.execute(sql) }
        }
    }

    static func text(_ sql: String, on store: any Store) throws -> [String] {
        if let store = store as? SQLiteStore { return try store.withConnection { try $0.rows(sql) { $0.text(0) } } }
        let store = try #require(store as? PostgresStore)
        return try store.withConnection { try $0.rows(sql) { $0.text(0) } }
    }

    static func version(_ store: any Store) throws -> Int {
        if store is SQLiteStore { return Int(try text("PRAGMA user_version", on: store)[0]) ?? -1 }
        return Int(try text("SELECT MAX(version)::text FROM schema_migrations", on: store)[0]) ?? -1
    }

    static func mark(_ store: any Store) throws -> [String] {
        try text("SELECT value FROM meta WHERE key = 'compatible_schema_version'", on: store)
    }

    /// What a newer build with one more step leaves: the version one above this build's, and its mark (`nil`: none).
    static func migrateAsANewerBuild(_ fixture: StoreFixture, mark: Int?) throws {
        let newer = known(fixture.kind) + 1
        if fixture.kind == .sqlite {
            try execute("PRAGMA user_version = \(newer)", on: fixture.store)
        } else {
            try execute("INSERT INTO schema_migrations (version) VALUES (\(newer))", on: fixture.store)
        }
        try execute("DELETE FROM meta WHERE key = 'compatible_schema_version'", on: fixture.store)
        if let mark {
            try execute(
                "INSERT INTO meta (key, value) VALUES ('compatible_schema_version', '\(mark)')", on: fixture.store)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aMigratedStoreIsMarkedWithEveryStepThisBuildKnows(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let compatible = kind == .sqlite ? SQLiteMigrations.compatibleVersion : PostgresMigrations.compatibleVersion
        #expect(try Self.mark(fixture.store) == [String(compatible)])
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func aStoreANewerBuildMigratedIsRefusedAndLeftAsItIs(kind: StoreKind, marked: Bool) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let newer = Self.known(kind) + 1
        try Self.migrateAsANewerBuild(fixture, mark: marked ? newer : nil)
        let records = try fixture.store.configRecords()

        let error = #expect(throws: StoreError.self) { try fixture.reopen() }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("is at schema version \(newer), from a newer tolt-edge"), "\(message)")
        #expect(message.contains("knows versions up to \(Self.known(kind))"), "\(message)")
        #expect(message.contains("nothing was changed"), "\(message)")
        #expect(throws: StoreError.self) { try fixture.store.migrate() }

        #expect(try Self.version(fixture.store) == newer)
        #expect(try Self.mark(fixture.store) == (marked ? [String(newer)] : []))
        #expect(try fixture.store.configRecords() == records)
    }

    @Test(arguments: StoreKind.allCases)
    func aNewerStoreMarkedAsUsableByThisBuildIsUsedAsItIs(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let newer = Self.known(kind) + 1
        try Self.migrateAsANewerBuild(fixture, mark: Self.known(kind))

        let reopened = try fixture.reopen()
        try reopened.migrate()
        #expect(try Self.version(reopened) == newer, "not stepped back")
        #expect(try Self.mark(reopened) == [String(Self.known(kind))], "the newer build's mark is kept")
        let click = ClickRecord(
            id: "clk_0000000000000000000000000000000000000001", createdAt: 1_767_225_600_000,
            organizationID: "org_acme", programID: "prg_acme", partnerID: "part_sam", code: "SAM20", platform: .ios,
            userAgent: "ua", referer: "", ip: "127.0.0.1")
        try reopened.ingest([click], checkpoint: JournalCheckpoint(segment: "node/segment", offset: 64))
        #expect(try reopened.clicks(ClickQuery(organizationID: "org_acme")).items == [click])
    }
}
