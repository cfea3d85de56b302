import Foundation
import LinkCore
import Testing

/// Which names are time zones: those of the tz database, checked against the system's own copy of it.
@Suite struct TimeZoneNameTests {
    static let zoneDirectory = "/usr/share/zoneinfo"

    /// The zones and links `tzdata.zi` (the tz database as one `zic` input, which Debian's `tzdata` installs) names.
    static func databaseNames() throws -> Set<String> {
        let text = try String(contentsOfFile: zoneDirectory + "/tzdata.zi", encoding: .utf8)
        var names = Set<String>()
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "Z", fields.count > 1 { names.insert(String(fields[1])) }
            if fields.first == "L", fields.count > 2 { names.insert(String(fields[2])) }
        }
        return names
    }

    /// Every name of the database is valid but `Factory`; every other file under the zone directory is not (the
    /// `posix/` and `right/` copies, `localtime`, `posixrules`, the tables). Before, a file's presence made a name.
    @Test func theNamesOfTheSystemsTimeZoneDatabaseAndNoOtherFileOfItsDirectory() throws {
        let names = try Self.databaseNames()
        #expect(names.count > 400 && names.contains("Europe/Paris") && names.contains("UTC"), "\(names.count)")
        for name in names where name != "Factory" {
            #expect(TimeZoneName.isValid(name), "\(name)")
        }
        #expect(names.contains("Factory") && !TimeZoneName.isValid("Factory"))
        let files = try #require(FileManager.default.subpaths(atPath: Self.zoneDirectory))
        var others = 0
        for file in files where !names.contains(file) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: Self.zoneDirectory + "/" + file, isDirectory: &isDirectory)
            if isDirectory.boolValue { continue }
            #expect(!TimeZoneName.isValid(file), "\(file)")
            others += 1
        }
        #expect(others > 400, "the right/ copies at least (Debian links posix/ to the zones): \(others)")
        for name in ["localtime", "posixrules", "posix/Europe/Paris", "right/Europe/Paris", "zone.tab", "leapseconds"] {
            #expect(FileManager.default.fileExists(atPath: Self.zoneDirectory + "/" + name), "\(name)")
            #expect(!TimeZoneName.isValid(name), "\(name)")
        }
    }

    @Test func namesThatCouldLeaveTheZoneDirectoryOrAreNoZoneAreRefused() {
        for name in [
            "", "/", "/etc/passwd", "../etc/passwd", "Europe/../Europe/Paris", "./Europe/Paris", "Europe//Paris",
            "Europe/Paris/", "Europe/Paris\u{0}", "Europe/Paris\u{0}.tab", "-Europe", "Europe/-Paris", "europe/Paris",
            "Europe/paris", "_Europe", "+05", "Europe/Île", String(repeating: "A", count: 65), "Europe/Paris ",
        ] {
            #expect(!TimeZoneName.isValid(name), "\(name)")
        }
        for name in ["UTC", "Etc/GMT+5", "Etc/GMT-14", "America/Argentina/Buenos_Aires", "GMT0", "EST5EDT"] {
            #expect(TimeZoneName.isValid(name), "\(name)")
        }
    }
}
