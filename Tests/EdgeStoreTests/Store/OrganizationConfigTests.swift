import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// `configRecords(organizationID:)`: one organization's configuration, what `GET /v1/partners` and the dashboard read,
/// read from the organization down through SQLite step 14's and PostgreSQL step 9's indexes, so that on a shared
/// store an organization's list costs its own partners, not every organization's.
@Suite struct OrganizationConfigTests {
    /// Two organizations (`ConfigFixtures.standard`: `org_acme` with three programs, an inactive partner and an
    /// inactive code; `org_other`) and a third imported after them, whose partners' ids sort among acme's.
    static let third = """
        {"organizations":[
          {"id":"org_third","name":"Third","public_key":"pk_third","secret_key":"sk_third_secret","programs":[
            {"id":"prg_b_third","name":"Third App",
             "partners":[{"id":"part_ab","name":"Ab","status":"inactive","codes":[{"code":"AB1","active":true}]},
                         {"id":"part_zz","name":"Zz","status":"active","codes":[{"code":"SAM20","active":true},
                                                                                {"code":"ZZ","active":false}]}]}]}
        ]}
        """

    /// `records` with only what belongs to `organizationID`, each list in its order: what the organization's read
    /// must return.
    static func only(_ organizationID: String, of records: ConfigRecords) -> ConfigRecords {
        let programs = records.programs.filter { $0.organizationID == organizationID }
        let programIDs = Set(programs.map(\.id))
        let partners = records.partners.filter { programIDs.contains($0.programID) }
        let partnerIDs = Set(partners.map(\.id))
        return ConfigRecords(
            organizations: records.organizations.filter { $0.id == organizationID }, programs: programs,
            partners: partners, codes: records.codes.filter { partnerIDs.contains($0.partnerID) },
            revision: records.revision)
    }

    @Test(arguments: StoreKind.allCases) func theReadHoldsExactlyTheOrganizationsRecords(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        try fixture.importJSON(Self.third)
        let all = try fixture.store.configRecords()

        let acme = try fixture.store.configRecords(organizationID: "org_acme")
        #expect(acme == Self.only("org_acme", of: all))
        #expect(acme.organizations.map(\.id) == ["org_acme"] && acme.organizations == [all.organizations[0]])
        #expect(acme.programs.map(\.id) == ["prg_acme", "prg_bare", "prg_play"])
        #expect(acme.partners.map(\.id) == ["part_a", "part_b", "part_bo", "part_idle", "part_lee", "part_sam"])
        #expect(acme.partners.first { $0.id == "part_idle" }?.status == "inactive", "an inactive partner is listed")
        #expect(acme.codes.count == 7 && acme.codes.map(\.reference) == acme.codes.map(\.reference).sorted())
        #expect(acme.codes.contains { $0.code == "OLD10" && !$0.active }, "an inactive code is listed")
        #expect(acme.codes.filter { $0.code == "SAM20" }.map(\.partnerID) == ["part_sam"], "not org_third's SAM20")
        #expect(acme.revision == all.revision && acme.revision > 0)

        let third = try fixture.store.configRecords(organizationID: "org_third")
        #expect(third == Self.only("org_third", of: all))
        #expect(third.partners.map(\.id) == ["part_ab", "part_zz"])
        #expect(third.codes.map(\.code) == ["AB1", "SAM20", "ZZ"])
        #expect(try fixture.store.configRecords(organizationID: "org_other") == Self.only("org_other", of: all))

        let none = try fixture.store.configRecords(organizationID: "org_nope")
        #expect(none == ConfigRecords(revision: all.revision), "an unknown organization has nothing, not an error")
    }

    /// An organization of more partners than one statement reads the codes of (``SQLStore/codesChunk``, 100), whose
    /// codes were imported at three times with another organization's in between and one partner's second code last:
    /// every code, each once, in reference order, as `configRecords()` has them.
    @Test(arguments: StoreKind.allCases) func codesOfManyPartnersComeInReferenceOrder(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        func document(_ partners: Range<Int>, extra: String = "") -> String {
            let list = partners.map {
                #"{"id":"part_m\#($0)","name":"M\#($0)","status":"active","codes":[{"code":"M\#($0)","active":true}]}"#
            }
            return
                #"{"organizations":[{"id":"org_many","name":"Many","public_key":"pk_many","secret_key":"sk_many_secret","#
                + #""programs":[{"id":"prg_many","name":"Many","partners":[\#((list + [extra]).filter { !$0.isEmpty }.joined(separator: ","))]}]}]}"#
        }
        try fixture.importJSON(document(0..<120))
        try fixture.importJSON(ConfigFixtures.standard)
        try fixture.importJSON(
            document(
                120..<250,
                extra: #"{"id":"part_m7","name":"M7","status":"active","codes":[{"code":"SECOND","active":false}]}"#))
        let all = try fixture.store.configRecords()
        let many = try fixture.store.configRecords(organizationID: "org_many")
        #expect(many == Self.only("org_many", of: all))
        #expect(many.partners.count == 250 && many.codes.count == 251)
        #expect(many.codes.last?.code == "SECOND" && many.codes.last?.partnerID == "part_m7")
        #expect(Set(many.codes.map(\.reference)).count == 251)
    }

    /// Each read goes down from the organization by index: its programs by `programs_by_organization` (in id order,
    /// no sort), their partners by `partners_by_program`, and their codes, by partner id, by the codes' unique index;
    /// no table is scanned: what keeps an organization's read from growing with the others'. (PostgreSQL is kept off
    /// its sequential and bitmap scans and its hash and merge joins, which tables this small and never analysed
    /// invite, and which read every row of a table: an index must then serve each step, and the plan names it.)
    @Test(arguments: StoreKind.allCases) func theReadsGoThroughTheIndexes(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        // The same statements on both stores (`SQLStore`).
        let organization: [SQLValue] = [.text("org_acme")]
        let statements: [(String, [SQLValue])] = [
            (SQLiteStore.organizationProgramsSQL, organization), (SQLiteStore.organizationPartnersSQL, organization),
            (SQLiteStore.organizationCodesSQL, (0..<SQLiteStore.codesChunk).map { _ in .text("part_sam") }),
        ]
        let plans: [[String]]
        if let store = fixture.store as? SQLiteStore {
            plans = try statements.map { sql, bindings in
                try store.withConnection { db in try db.rows("EXPLAIN QUERY PLAN " + sql, bindings) { $0.text(3) } }
            }
            for plan in plans { #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)") }
            #expect(!plans[0].contains { $0.contains("TEMP B-TREE") }, "the index holds the programs in id order")
        } else {
            let store = try #require(fixture.store as? PostgresStore)
            plans = try statements.map { sql, bindings in
                try store.withConnection { db in
                    try db.execute(
                        "SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashjoin = off;"
                            + " SET enable_mergejoin = off")
                    return try db.rows("EXPLAIN " + sql, bindings) { $0.text(0) }
                }
            }
            for plan in plans { #expect(!plan.contains { $0.contains("Seq Scan") }, "\(plan)") }
        }
        for plan in plans.prefix(2) {
            #expect(plan.contains { $0.contains("programs_by_organization") }, "\(plan)")
        }
        #expect(plans[1].contains { $0.contains("partners_by_program") }, "\(plans[1])")
        let unique = kind == .sqlite ? "sqlite_autoindex_codes_1" : "codes_partner_id_code_folded_key"
        #expect(plans[2].contains { $0.contains(unique) }, "\(plans[2])")
    }

    /// SQLite step 14 and PostgreSQL step 9 on a store the build before left: the indexes are built over the
    /// configuration it holds, the read returns it, and the compatibility marks stay where they were (9, 4): an older
    /// build's imports write these tables as before, and the database keeps the indexes up for them.
    @Test(arguments: StoreKind.allCases) func aStoreOfTheStepBeforeGetsTheIndexes(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (old, removeOld) = try fixture.olderStore(sqliteStep: 13, postgresStep: 8)
        defer { removeOld() }
        try fixture.importJSON(ConfigFixtures.standard, into: old)
        let names = "('programs_by_organization', 'partners_by_program')"
        let indexes =
            kind == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN \(names) ORDER BY name"
            : "SELECT indexname::text FROM pg_indexes WHERE indexname IN \(names) ORDER BY indexname"
        #expect(try Self.text(indexes, on: old).isEmpty)

        try old.migrate()
        #expect(try Self.text(indexes, on: old) == ["partners_by_program", "programs_by_organization"])
        #expect(try AppLinksMigrationTests.compatibleMark(old) == [kind == .sqlite ? "9" : "4"])
        let all = try old.configRecords()
        #expect(try old.configRecords(organizationID: "org_acme") == Self.only("org_acme", of: all))
    }

    static func text(_ sql: String, on store: any Store) throws -> [String] {
        if let store = store as? SQLiteStore { return try store.withConnection { try $0.rows(sql) { $0.text(0) } } }
        let store = try #require(store as? PostgresStore)
        return try store.withConnection { try $0.rows(sql) { $0.text(0) } }
    }
}
