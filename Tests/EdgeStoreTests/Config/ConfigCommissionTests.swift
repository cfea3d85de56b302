import EdgeStore
import LinkCore
import TestSupport
import Testing

/// A program's `commission` in the import file: read exactly, stored as its rule, kept when left out, removed
/// by `null`, and written back by `export` in the form the import reads.
@Suite struct ConfigCommissionTests {
    /// `ConfigFixtures.acme` with a commission on each of its two programs.
    static let acmeWithCommissions = """
        {"organizations":[{"id":"org_acme","programs":[
          {"id":"prg_acme","commission":{"percent":12.5,"recurring":true,"duration_months":12}},
          {"id":"prg_play","commission":{"fixed_cents":500,"recurring":false}}]}]}
        """

    /// Sets the commission of `prg_acme` to `body`.
    static func acmeCommission(_ body: String) -> String {
        #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","commission":\#(body)}]}]}"#
    }

    static func storedRule(_ fixture: StoreFixture, program: String = "prg_acme") throws -> CommissionRule? {
        try #require(try fixture.store.configRecords().programs.first { $0.id == program }).commission
    }

    @Test func theDocumentTellsAnAbsentCommissionFromNullAndFromARule() throws {
        let document = try ConfigDocument(
            json: Array(
                """
                {"organizations":[{"public_key":"pk_x","programs":[
                  {"name":"absent"},{"name":"null","commission":null},
                  {"name":"rule","commission":{"percent":12.50,"duration_months":null}}]}]}
                """.utf8))
        let programs = try #require(document.organizations.first).programs
        #expect(programs[0].commission == .absent)
        #expect(programs[1].commission == .null)
        guard case .value(let commission) = programs[2].commission else {
            Issue.record("the third program has a rule: \(programs[2].commission)")
            return
        }
        #expect(commission.percent == "12.50", "the number's text, as written")
        #expect(commission.fixedCents == nil && commission.recurring == nil && commission.durationMonths == nil)
    }

    @Test(arguments: StoreKind.allCases) func aCommissionIsStoredAsItsRule(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        #expect(try Self.storedRule(fixture) == nil, "a program has no rule until the file gives one")
        let report = try fixture.importJSON(Self.acmeWithCommissions)
        #expect(report.changes == ["updated program prg_acme", "updated program prg_play"])
        #expect(
            try Self.storedRule(fixture)
                == CommissionRule(amount: .percent(basisPoints: 1250), recurring: true, durationMonths: 12))
        #expect(
            try Self.storedRule(fixture, program: "prg_play")
                == CommissionRule(amount: .fixedCents(500), recurring: false, durationMonths: nil))
        // Another connection reads the same rules from the file.
        let other = try fixture.reopen()
        #expect(try other.configRecords() == (try fixture.store.configRecords()))
    }

    @Test(arguments: StoreKind.allCases) func recurringIsTheDefaultAndTheLargestValuesAreAccepted(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.acmeCommission(#"{"fixed_cents":10000000,"duration_months":1200}"#))
        #expect(
            try Self.storedRule(fixture)
                == CommissionRule(
                    amount: .fixedCents(CommissionRule.maximumFixedCents), recurring: true,
                    durationMonths: CommissionRule.maximumDurationMonths))
        try fixture.importJSON(Self.acmeCommission(#"{"percent":100,"duration_months":null}"#))
        #expect(try Self.storedRule(fixture) == CommissionRule(amount: .percent(basisPoints: 10_000)))
    }

    /// A percentage as a JSON number and the basis points it must be stored as.
    struct Percent: CustomStringConvertible, Sendable {
        var json: String
        var basisPoints: Int
        var description: String { json }
    }

    @Test(
        arguments: StoreKind.allCases,
        [
            Percent(json: "20", basisPoints: 2000), Percent(json: "12.5", basisPoints: 1250),
            Percent(json: "12.50", basisPoints: 1250), Percent(json: "0.01", basisPoints: 1),
            Percent(json: "0.1", basisPoints: 10), Percent(json: "33.33", basisPoints: 3333),
            Percent(json: "99.99", basisPoints: 9999), Percent(json: "100", basisPoints: 10_000),
            Percent(json: "100.000", basisPoints: 10_000), Percent(json: "1.25e1", basisPoints: 1250),
            Percent(json: "2E+1", basisPoints: 2000), Percent(json: "1500e-2", basisPoints: 1500),
            Percent(json: "0.29", basisPoints: 29),  // 0.29 is 0.28999… as a Double: no floating point here
        ])
    func aPercentageIsReadExactlyFromItsText(kind: StoreKind, _ percent: Percent) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.acmeCommission(#"{"percent":\#(percent.json)}"#))
        #expect(try Self.storedRule(fixture)?.amount == .percent(basisPoints: percent.basisPoints))
    }

    @Test(arguments: StoreKind.allCases) func anAbsentCommissionKeepsTheRuleAndNullRemovesIt(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.acmeWithCommissions)
        let rule = try Self.storedRule(fixture)

        // The whole fixture again: it names no commission, so the rules stay and nothing is written.
        let revision = try fixture.store.configRevision()
        #expect(try fixture.importJSON(ConfigFixtures.acme).reportsNothing)
        #expect(try Self.storedRule(fixture) == rule)
        #expect(try fixture.store.configRevision() == revision)

        let report = try fixture.importJSON(Self.acmeCommission("null"))
        #expect(report.changes == ["updated program prg_acme"])
        #expect(try Self.storedRule(fixture) == nil)
        #expect(try Self.storedRule(fixture, program: "prg_play") != nil, "the other program keeps its rule")
        #expect(try fixture.importJSON(Self.acmeCommission("null")).reportsNothing)
    }

    @Test(arguments: StoreKind.allCases) func aChangeOfOnlyTheCommissionIsReportedAndWritten(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.acmeWithCommissions)
        let changes: [(json: String, rule: CommissionRule)] = [
            (#"{"percent":12.5,"recurring":true}"#, CommissionRule(amount: .percent(basisPoints: 1250))),
            (
                #"{"percent":12.5,"recurring":false}"#,
                CommissionRule(amount: .percent(basisPoints: 1250), recurring: false)
            ),
            (
                #"{"percent":12.51,"recurring":false}"#,
                CommissionRule(amount: .percent(basisPoints: 1251), recurring: false)
            ),
            (#"{"fixed_cents":1251,"recurring":false}"#, CommissionRule(amount: .fixedCents(1251), recurring: false)),
            (
                #"{"fixed_cents":1251,"recurring":false,"duration_months":3}"#,
                CommissionRule(amount: .fixedCents(1251), recurring: false, durationMonths: 3)
            ),
        ]
        for change in changes {
            let revision = try fixture.store.configRevision()
            let report = try fixture.importJSON(Self.acmeCommission(change.json))
            #expect(report.changes == ["updated program prg_acme"], "\(change.json)")
            #expect(try Self.storedRule(fixture) == change.rule, "\(change.json)")
            #expect(try fixture.store.configRevision() == revision + 1, "\(change.json)")
            #expect(try fixture.importJSON(Self.acmeCommission(change.json)).reportsNothing, "\(change.json)")
        }
    }

    @Test(arguments: StoreKind.allCases) func aNewProgramCanStartWithARule(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let report = try fixture.importJSON(
            """
            {"organizations":[{"id":"org_acme","programs":[
              {"id":"prg_new","name":"New","commission":{"percent":30,"recurring":false}}]}]}
            """)
        #expect(report.changes == ["created program prg_new"])
        #expect(
            try Self.storedRule(fixture, program: "prg_new")
                == CommissionRule(amount: .percent(basisPoints: 3000), recurring: false))
    }

    @Test(arguments: StoreKind.allCases) func exportWritesEachRuleInTheImportFormAndRoundTrips(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.acmeWithCommissions)
        try fixture.importJSON(
            """
            {"organizations":[{"id":"org_acme","programs":[
              {"id":"prg_bare","name":"Bare","commission":{"percent":0.05}},
              {"id":"prg_twenty","name":"Twenty","commission":{"percent":20.00,"recurring":false}}]}]}
            """)
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        #expect(exported.contains(#""commission":{"percent":12.5,"recurring":true,"duration_months":12}"#))
        #expect(exported.contains(#""commission":{"fixed_cents":500,"recurring":false}"#))
        #expect(exported.contains(#""commission":{"percent":0.05,"recurring":true}"#))
        #expect(exported.contains(#""commission":{"percent":20,"recurring":false}"#))

        // Into the same store: nothing changes.
        let records = try fixture.store.configRecords()
        #expect(try fixture.importJSON(exported).reportsNothing)
        #expect(try fixture.store.configRecords() == records)
        // Into an empty store: the same rules, and the same export.
        let copy = try StoreFixture(kind)
        defer { copy.remove() }
        try copy.importJSON(exported)
        #expect(try copy.store.configRecords().comparable == records.comparable)
        #expect(String(decoding: try ConfigImporter.exportDocument(from: copy.store), as: UTF8.self) == exported)

        // A program without a rule is exported as null, so the export says everything and a re-import keeps it so.
        try fixture.importJSON(Self.acmeCommission("null"))
        let withoutRule = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        #expect(withoutRule.contains(#""name":"Acme Pro","claim_window_days":30,"#))
        #expect(withoutRule.contains(#""commission":null"#))
        #expect(try copy.importJSON(withoutRule).changes == ["updated program prg_acme"])
        #expect(try Self.storedRule(copy) == nil)
    }
}
