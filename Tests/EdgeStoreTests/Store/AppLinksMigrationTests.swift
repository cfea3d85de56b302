import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// SQLite step 12 and PostgreSQL step 7 add a program's `ios_app_ids` and `android_apps`: a store the build before
/// left (its programs stored) gets the columns, its programs read with no apps, and the import sets them. The
/// columns are ones an older build can live with, so the compatibility mark stays where it was (9 on SQLite, 4 on
/// PostgreSQL).
@Suite struct AppLinksMigrationTests {
    static func compatibleMark(_ store: any Store) throws -> [String] {
        let sql = "SELECT value FROM meta WHERE key = 'compatible_schema_version'"
        if let store = store as? SQLiteStore { return try store.withConnection { try $0.rows(sql) { $0.text(0) } } }
        let store = try #require(store as? PostgresStore)
        return try store.withConnection { try $0.rows(sql) { $0.text(0) } }
    }

    @Test(arguments: StoreKind.allCases) func aStoreOfTheStepBeforeGetsTheColumns(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (old, removeOld) = try fixture.olderStore(sqliteStep: 11, postgresStep: 6)
        defer { removeOld() }
        try CustomerAliasStoreTests.run(
            """
            INSERT INTO organizations (id, name, public_key, secret_key) VALUES ('org_acme', 'Acme', 'pk_acme', 'sha256:00')
            """, on: old)
        try CustomerAliasStoreTests.run(
            """
            INSERT INTO programs (id, organization_id, name, app_store_url)
            VALUES ('prg_acme', 'org_acme', 'Acme Pro', 'https://apps.apple.com/app/id1')
            """, on: old)

        try old.migrate()
        if let store = old as? SQLiteStore {
            #expect(try SQLiteMigrationsTests.version(store) == SQLiteMigrations.steps.count)
            #expect(SQLiteMigrations.steps.count >= 12)
        } else {
            let store = try #require(old as? PostgresStore)
            #expect(try store.schemaVersion() == PostgresMigrations.steps.count)
            #expect(PostgresMigrations.steps.count >= 7)
        }
        #expect(try Self.compatibleMark(old) == [kind == .sqlite ? "9" : "4"])
        let program = try #require(try old.configRecords().programs.first)
        #expect(program.iosAppIDs.isEmpty && program.androidApps.isEmpty)
        #expect(program.appStoreURL == "https://apps.apple.com/app/id1")

        try ConfigImporter.importDocument(try ConfigDocument(json: Array(ConfigAppLinksTests.apps.utf8)), into: old)
        #expect(try old.configRecords().programs.first?.iosAppIDs.count == 2)
        // An older build's import updates a program's own columns by name: the apps stay.
        try CustomerAliasStoreTests.run(
            """
            INSERT INTO programs (id, organization_id, name) VALUES ('prg_acme', 'org_acme', 'Acme Max')
            ON CONFLICT (id) DO UPDATE SET name = excluded.name
            """, on: old)
        let renamed = try #require(try old.configRecords().programs.first)
        #expect(renamed.name == "Acme Max" && renamed.iosAppIDs.count == 2 && renamed.androidApps.count == 2)
    }
}
