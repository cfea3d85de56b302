import EdgeStore
import Foundation
import TestSupport
import Testing

/// `CountryLookup` over MaxMind's test databases (`Tests/Fixtures/geoip/`; which networks they hold is in
/// `GeoIP2-Country-Test.source.json`).
@Suite struct CountryLookupTests {
    static func open(_ name: String) throws -> CountryLookup {
        try CountryLookup(path: try TestFiles.fixture("geoip/" + name))
    }

    static func answer(_ lookup: CountryLookup, _ text: String) throws -> CountryLookup.Answer {
        lookup.country(of: try #require(IPAddress(text), "\(text) parses"))
    }

    /// What the source data says, checked against the JSON so the expectations are not made up: `2.125.160.216/29`
    /// and `81.2.69.160/27` are GB (written as IPv4 in IPv6, `::a.b.c.d` with 96 more bits of prefix), `2001:218::/32`
    /// is JP.
    @Test func theSourceDataHoldsTheNetworksTheTestsUse() throws {
        let path = try TestFiles.fixture("geoip/GeoIP2-Country-Test.source.json")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let networks = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        func iso(_ network: String) -> String? {
            let entry = networks.first { $0.keys.contains(network) }?[network] as? [String: Any]
            return (entry?["country"] as? [String: Any])?["iso_code"] as? String
        }
        #expect(iso("::2.125.160.216/125") == "GB")
        #expect(iso("::81.2.69.160/123") == "GB")
        #expect(iso("2001:218::/32") == "JP")
    }

    @Test(arguments: ["GeoIP2-Country-Test.mmdb", "GeoLite2-Country-Test.mmdb", "GeoIP2-City-Test.mmdb"])
    func everyShapeGivesTheCountryOfIPv4AndIPv6(database: String) throws {
        let lookup = try Self.open(database)
        #expect(try Self.answer(lookup, "2.125.160.216") == .country("GB"))
        #expect(try Self.answer(lookup, "81.2.69.160") == .country("GB"))
        #expect(try Self.answer(lookup, "2001:218::") == .country("JP"))
        #expect(try Self.answer(lookup, "2001:218:ffff::1") == .country("JP"))
        #expect(try Self.answer(lookup, "::ffff:2.125.160.216") == .country("GB"), "IPv4-mapped is IPv4")
        for absent in ["2001:db8::1", "127.0.0.1", "10.1.2.3", "192.0.2.1"] {
            #expect(try Self.answer(lookup, absent) == .unknown, "\(absent) is in no network of the database")
        }
        #expect(lookup.databaseType.contains("Country") || lookup.databaseType.contains("City"))
    }

    @Test func aFileThatIsNotAMaxMindDBIsRefusedWithTheFileAndTheReason() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SystemRandomNumberGenerator()
        let noise = directory.path + "/noise.mmdb"
        #expect(
            FileManager.default.createFile(
                atPath: noise, contents: Data((0..<5000).map { _ in random.next() as UInt8 })))
        let empty = directory.path + "/empty.mmdb"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let cases = [
            (directory.path + "/missing.mmdb", "No such file"), (directory.path, "failed"),
            (noise, "invalid metadata"), (empty, "failed"),
            (try TestFiles.fixture("geoip/README.md"), "invalid metadata"),
        ]
        for (path, reason) in cases {
            do {
                _ = try CountryLookup(path: path)
                Issue.record("\(path) opened")
            } catch let error as CountryLookup.OpenError {
                #expect(error.path == path)
                #expect(error.description.contains(path), "\(error)")
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }

    /// The broken databases open (their metadata is sound) and are IPv4 only; where their damage lies, a lookup
    /// reports it and never crashes.
    @Test func brokenDatabasesReportDamageAndNeverCrash() throws {
        let pointers = try Self.open("MaxMind-DB-test-broken-pointers-24.mmdb")
        guard case .failed(let tree) = try Self.answer(pointers, "1.1.1.32") else {
            Issue.record("1.1.1.32 reads a corrupt search tree")
            return
        }
        #expect(tree.contains("search tree"))
        guard case .failed(let data) = try Self.answer(pointers, "1.1.1.16") else {
            Issue.record("1.1.1.16 reads a bad pointer")
            return
        }
        #expect(data.contains("data"))
        #expect(try Self.answer(pointers, "2001:218::") == .unknown, "IPv6 in an IPv4-only database")

        let tree24 = try Self.open("MaxMind-DB-test-broken-search-tree-24.mmdb")
        for database in [pointers, tree24] {
            for last in 0...255 {
                let answer = try Self.answer(database, "1.1.1.\(last)")
                if case .country = answer { Issue.record("1.1.1.\(last): a test database holds no country") }
            }
        }
    }
}
