import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// An organization's `timezone` (the dashboard's days): `UTC` unless set, an IANA name with a zone file in the
/// system's tzdata, exported, kept when absent, and refused by path with nothing written when invalid; one an
/// earlier build stored is carried over with a warning.
@Suite struct ConfigTimeZoneTests {
    static func acme(_ fixture: StoreFixture) throws -> OrganizationRecord {
        try #require(try fixture.store.configRecords().organizations.first { $0.id == "org_acme" })
    }

    @Test func aNewOrganizationIsInUTCAndAnImportedZoneIsStoredExportedAndKept() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        #expect(try Self.acme(fixture).timezone == "UTC")
        #expect(
            try fixture.importJSON(#"{"organizations":[{"id":"org_acme","timezone":"America/Los_Angeles"}]}"#).changes
                == ["updated organization org_acme"])
        #expect(try Self.acme(fixture).timezone == "America/Los_Angeles")
        // Absent keeps it.
        #expect(try fixture.importJSON(#"{"organizations":[{"id":"org_acme","name":"Acme"}]}"#).reportsNothing)
        #expect(try Self.acme(fixture).timezone == "America/Los_Angeles")
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        #expect(exported.contains(#""public_key":"pk_acme","timezone":"America/Los_Angeles","#), "\(exported)")
        let copy = try StoreFixture()
        defer { copy.remove() }
        try copy.importJSON(exported)
        #expect(try Self.acme(copy).timezone == "America/Los_Angeles")
    }

    @Test func anUnknownOrUnsafeZoneIsRefusedByPathAndNothingIsWritten() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let before = try fixture.store.configRecords()
        for zone in [
            "Mars/Olympus_Mons", "../etc/passwd", "/etc/passwd", "", "America//New_York", "Europe/Paris\\u0000",
            // Files of the zone directory that are no zone of the tz database (a file's presence was enough).
            "localtime", "posixrules", "Factory", "posix/Europe/Paris", "right/Europe/Paris", "leapseconds",
        ] {
            let json = #"{"organizations":[{"id":"org_acme","timezone":"\#(zone)","name":"Renamed"}]}"#
            #expect(throws: StoreError.self, "\(zone)") { try fixture.importJSON(json) }
            do { try fixture.importJSON(json) } catch let error as StoreError {
                #expect(
                    error.message.hasPrefix("organizations[0].timezone: must be an IANA time zone name"), "\(error)")
            }
        }
        #expect(throws: StoreError.self) {
            try fixture.importJSON(#"{"organizations":[{"id":"org_acme","timezone":7}]}"#)
        }
        #expect(try fixture.store.configRecords() == before)
    }

    /// An earlier build stored any file of the zone directory. Such a zone no longer blocks the organization: an
    /// import that leaves it out (renaming it, as each dashboard form saves) or lists it again (an export) goes
    /// through, keeps it, and warns with the zone to set instead; a new zone is still checked.
    @Test(arguments: [
        ("posix/Europe/Paris", "Europe/Paris"), ("right/Europe/Paris", "Europe/Paris"), ("localtime", "UTC"),
        ("posixrules", "UTC"), ("Factory", "UTC"),
    ])
    func aZoneAnEarlierBuildStoredIsCarriedOverWithAWarning(zone: String, replacement: String) throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let store = try #require(fixture.store as? SQLiteStore)
        try store.withConnection { try $0.execute("UPDATE organizations SET timezone = '\(zone)'") }
        for json in [
            #"{"organizations":[{"id":"org_acme","name":"Renamed"}]}"#,
            #"{"organizations":[{"id":"org_acme","name":"Renamed again","timezone":"\#(zone)"}]}"#,
        ] {
            let report = try fixture.importJSON(json)
            #expect(
                report.warnings == [
                    "organizations[0].timezone: the stored time zone \(zone) is no tz database name, and the dashboard"
                        + " counts its days in UTC; set \(replacement) or another zone"
                ], "\(report.warnings)")
            #expect(try Self.acme(fixture).timezone == zone)
        }
        #expect(try Self.acme(fixture).name == "Renamed again")
        #expect(throws: StoreError.self) {
            try fixture.importJSON(#"{"organizations":[{"id":"org_acme","timezone":"Mars/Olympus_Mons"}]}"#)
        }
        try fixture.importJSON(#"{"organizations":[{"id":"org_acme","timezone":"\#(replacement)"}]}"#)
        #expect(try Self.acme(fixture).timezone == replacement)
        #expect(try fixture.importJSON(#"{"organizations":[{"id":"org_acme","name":"Acme"}]}"#).warnings.isEmpty)
    }
}
