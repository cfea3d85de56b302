import EdgeStore
import LinkCore
import TestSupport
import Testing

/// An organization's `timezone` (the dashboard's days): `UTC` unless set, an IANA name with a zone file in the
/// system's tzdata, exported, kept when absent, and refused by path with nothing written when invalid.
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
}
