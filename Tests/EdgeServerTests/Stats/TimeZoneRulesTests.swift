import EdgeServer
import Foundation
import TestSupport
import Testing

/// The TZif reader behind `/v1/stats/clicks?timezone=`: offsets from a zone's transitions and its footer rule,
/// names that cannot leave the zone directory, and files that are not zones.
@Suite struct TimeZoneRulesTests {
    static func zones() throws -> String {
        let path = try TestFiles.fixture("zoneinfo/America/Los_Angeles")
        return String(path.dropLast("/America/Los_Angeles".count))
    }

    /// Seconds since 1970 of a UTC time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Int64 {
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour, components.minute) =
            (year, month, day, hour, minute)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int64(calendar.date(from: components)!.timeIntervalSince1970)
    }

    @Test func losAngelesChangesAtTwoInTheMorningLocalTimeInMarchAndNovember() throws {
        let zone = try #require(TimeZoneRules.named("America/Los_Angeles", in: try Self.zones()))
        // 2026-03-08 02:00 PST is 10:00Z; 2026-11-01 02:00 PDT is 09:00Z.
        #expect(zone.offset(at: Self.utc(2026, 3, 8, 9, 59)) == -8 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 3, 8, 10)) == -7 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 11, 1, 8, 59)) == -7 * 3600)
        #expect(zone.offset(at: Self.utc(2026, 11, 1, 9)) == -8 * 3600)
        // Past the file's last transition (2037), the footer's rule: 2100-07-01 is daylight time, 2100-01-01 not.
        #expect(zone.offset(at: Self.utc(2100, 7, 1, 12)) == -7 * 3600)
        #expect(zone.offset(at: Self.utc(2100, 1, 1, 12)) == -8 * 3600)
        // Before 1883 local mean time (-7:52:58).
        #expect(zone.offset(at: Self.utc(1850, 1, 1, 0)) == -(7 * 3600 + 52 * 60 + 58))
    }

    @Test func everyHourOf2026AgreesWithFoundation() throws {
        let directory = try Self.zones()
        for name in ["America/Los_Angeles", "Asia/Kolkata", "Asia/Kathmandu", "Europe/Dublin"] {
            let zone = try #require(TimeZoneRules.named(name, in: directory), "\(name)")
            let reference = try #require(TimeZone(identifier: name))
            var hour = Self.utc(2026, 1, 1, 0)
            var mismatches: [Int64] = []
            while hour < Self.utc(2027, 1, 1, 0) {
                let expected = reference.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(hour)))
                if zone.offset(at: hour) != Int64(expected) { mismatches.append(hour) }
                hour += 3600
            }
            #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(5))")
        }
    }

    @Test func footerRulesAloneGiveTheSameOffsetsAsSlimFilesWould() throws {
        let zone = try #require(TimeZoneRules.named("America/Los_Angeles", in: try Self.zones()))
        let slim = try TimeZoneRules(tzif: Self.footerOnly("PST8PDT,M3.2.0,M11.1.0", standardOffset: -8 * 3600))
        let dublin = try TimeZoneRules(tzif: Self.footerOnly("IST-1GMT0,M10.5.0,M3.5.0/1", standardOffset: 3600))
        for hour in stride(from: Self.utc(2026, 1, 1, 0), to: Self.utc(2027, 1, 1, 0), by: 3600) {
            #expect(slim.offset(at: hour) == zone.offset(at: hour), "\(hour)")
        }
        // Dublin's "negative daylight time": winter is GMT (0), summer IST (+1).
        #expect(dublin.offset(at: Self.utc(2026, 1, 15, 12)) == 0)
        #expect(dublin.offset(at: Self.utc(2026, 7, 15, 12)) == 3600)
        let kathmandu = try TimeZoneRules(tzif: Self.footerOnly("<+0545>-5:45", standardOffset: 20700))
        #expect(kathmandu.offset(at: Self.utc(2026, 7, 15, 12)) == 20700)
    }

    @Test func namesThatCouldLeaveTheZoneDirectoryAreRefused() throws {
        let directory = try Self.zones()
        for name in [
            "../zoneinfo/America/Los_Angeles", "/etc/passwd", "America/../America/Los_Angeles", "America//Los_Angeles",
            ".hidden", "America/", "", "America/Los_Angeles\u{0}", "-America", String(repeating: "A", count: 65),
            "America/Los Angeles", "Amérique/Paris",
        ] {
            #expect(!TimeZoneRules.isValidName(name), "\(name)")
            #expect(TimeZoneRules.named(name, in: directory) == nil, "\(name)")
        }
        #expect(TimeZoneRules.isValidName("America/Argentina/Buenos_Aires"))
        #expect(TimeZoneRules.isValidName("Etc/GMT+5"))
        #expect(TimeZoneRules.named("Mars/Olympus_Mons", in: directory) == nil, "no such file")
        #expect(TimeZoneRules.named("America", in: directory) == nil, "a directory, not a zone")
        #expect(TimeZoneRules.named("UTC", in: "/nonexistent") == .utc, "UTC needs no file")
    }

    @Test func filesThatAreNotVersion2ZonesAreRefused() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try TestFiles.fixture("zoneinfo/Asia/Kolkata"))))
        _ = try TimeZoneRules(tzif: bytes)
        for cut in [0, 4, 44, bytes.count / 2, bytes.count - 30] {
            #expect(throws: TimeZoneRules.FormatError.self, "cut at \(cut)") {
                try TimeZoneRules(tzif: Array(bytes[0..<cut]))
            }
        }
        var generator = SeededGenerator(seed: 14)
        for _ in 0..<200 {
            let noise = (0..<Int.random(in: 0...4096, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            #expect(throws: TimeZoneRules.FormatError.self) { try TimeZoneRules(tzif: noise) }
        }
        var version1 = bytes
        version1[4] = 0
        #expect(throws: TimeZoneRules.FormatError.self) { try TimeZoneRules(tzif: version1) }
        #expect(throws: TimeZoneRules.FormatError.self) {
            try TimeZoneRules(tzif: Self.footerOnly("PST8PDT,M13.2.0,M11.1.0", standardOffset: -8 * 3600))
        }
        #expect(throws: TimeZoneRules.FormatError.self) {
            try TimeZoneRules(tzif: [UInt8](repeating: 0, count: TimeZoneRules.maximumFileSize + 1))
        }
    }

    /// A version 2 TZif file with no transitions, one local time type, and `rule` as its footer: what a slim file
    /// for a zone whose rule has not changed in its range looks like.
    static func footerOnly(_ rule: String, standardOffset: Int32) -> [UInt8] {
        func header() -> [UInt8] {
            var bytes = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
            for count: UInt32 in [0, 0, 0, 0, 1, 4] { bytes += withUnsafeBytes(of: count.bigEndian, Array.init) }
            return bytes
        }
        let type = withUnsafeBytes(of: standardOffset.bigEndian, Array.init) + [0, 0] + Array("STD\u{0}".utf8)
        return header() + type + header() + type + Array("\n\(rule)\n".utf8)
    }
}
