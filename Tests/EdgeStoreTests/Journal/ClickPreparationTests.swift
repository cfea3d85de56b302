import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// What the ingester does to a journaled click: the country from the whole address, then the address cut.
@Suite struct ClickPreparationTests {
    static func ingest(_ addresses: [String], preparation: ClickPreparation, log: LogLines = LogLines()) throws
        -> (clicks: [ClickRecord], ingester: ClickIngester)
    {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let (journal, writer) = try fixture.openJournal()
        for (number, address) in addresses.enumerated() {
            var click = ClickJournalTests.click(number)
            click.ip = address
            ClickJournalTests.stage(click, to: writer)
        }
        #expect(writer.flush())
        writer.close()
        let ingester = ClickIngester(
            journal: journal, store: try fixture.reopen(), preparation: preparation, log: log.append)
        try ingester.drain()
        return (try ClickJournalTests.stored(fixture.store), ingester)
    }

    @Test func theCountryIsLookedUpBeforeTheAddressIsCut() throws {
        let countries = try CountryLookup(path: try TestFiles.fixture("geoip/GeoIP2-Country-Test.mmdb"))
        let addresses = ["2.125.160.216", "2001:218::1", "192.0.2.1", "::ffff:81.2.69.160", "not an address"]
        let expected: [(IPStorage, [String])] = [
            (.full, addresses),
            (.anonymized, ["2.125.160.0", "2001:218::", "192.0.2.0", "81.2.69.0", ""]),
            (.none, ["", "", "", "", ""]),
        ]
        for (storage, stored) in expected {
            let (clicks, ingester) = try Self.ingest(
                addresses, preparation: ClickPreparation(countries: countries, ipStorage: storage))
            #expect(clicks.map(\.ip) == stored, "\(storage)")
            #expect(clicks.map(\.country) == ["GB", "JP", nil, "GB", nil], "\(storage)")
            #expect(ingester.countryFailureCount == 0)
        }
        let (clicks, _) = try Self.ingest(addresses, preparation: ClickPreparation(ipStorage: .anonymized))
        #expect(clicks.allSatisfy { $0.country == nil }, "no database, no country")
    }

    /// A damaged database: every click is stored, without a country where the lookup failed; failures are counted
    /// and logged once per ``ClickIngester/countryFailureLogInterval``, never with the address.
    @Test func aDamagedDatabaseStoresTheClicksWithoutACountryAndLogsRarely() throws {
        let countries = try CountryLookup(
            path: try TestFiles.fixture("geoip/MaxMind-DB-test-broken-pointers-24.mmdb"))
        let damaged = ["1.1.1.32", "1.1.1.16"]
        let failures = 2500
        let addresses = (0..<failures).map { damaged[$0 % 2] } + ["1.1.1.1", "2.125.160.216"]
        let log = LogLines()
        let (clicks, ingester) = try Self.ingest(
            addresses, preparation: ClickPreparation(countries: countries, ipStorage: .anonymized), log: log)
        #expect(clicks.count == addresses.count)
        #expect(clicks.allSatisfy { $0.country == nil })
        #expect(ingester.countryFailureCount == failures)
        let lines = log.lines.filter { $0.hasPrefix("geoip:") }
        let interval = ClickIngester.countryFailureLogInterval
        #expect((1...1 + failures / interval).contains(lines.count), "the first, then one per \(interval): \(lines)")
        #expect(lines.first?.contains("failed") == true)
        #expect(lines.allSatisfy { !$0.contains("1.1.1.") })
    }
}
