import EdgeServer
import EdgeStore
import LinkCore
import TestSupport
import Testing

/// A click's country and stored address end to end: a tap over a socket from a client address (given by the trusted
/// proxy's `X-Forwarded-For`), the ingester, then `GET /v1/clicks`.
@Suite struct ClickCountryTests {
    /// Starts a server that trusts the loopback proxy, with `--geoip` (a fixture's name) and `--ip-storage`.
    static func server(geoip: String?, ipStorage: IPStorage? = nil) throws -> TestServer {
        let file = try geoip.map { try TestFiles.fixture("geoip/" + $0) }
        return try TestServer(trustedProxies: ["127.0.0.1/32"]) { configuration in
            configuration.geoIPFile = file
            if let ipStorage { configuration.ipStorage = ipStorage }
        }
    }

    /// Taps the link from each address and returns the listed clicks, by address, once all are stored.
    static func tap(_ server: TestServer, from addresses: [String]) throws -> [String: JSONValue] {
        var ids: [String: String] = [:]
        for address in addresses {
            let response = try server.client().request(
                "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.android), ("X-Forwarded-For", address)])
            ids[address] = try #require(LinkResponses.clickID(in: response), "\(address): \(response.status)")
        }
        for id in ids.values { #expect(try server.waitForClick(id, within: 5)) }
        let response = try server.client().request(
            "GET", "/v1/clicks?limit=100", headers: [("Authorization", "Bearer sk_acme_secret")])
        let listed = try #require(try response.json["data"]?.arrayValue)
        var byAddress: [String: JSONValue] = [:]
        for (address, id) in ids {
            byAddress[address] = listed.first { $0["id"]?.stringValue == id }
        }
        return byAddress
    }

    @Test(arguments: ["GeoIP2-Country-Test.mmdb", "GeoLite2-Country-Test.mmdb", "GeoIP2-City-Test.mmdb"])
    func clicksCarryTheCountryOfTheirAddress(database: String) throws {
        let server = try Self.server(geoip: database)
        defer { server.shutdown() }
        let expected: [String: String?] = [
            "2.125.160.216": "GB", "81.2.69.160": "GB", "2001:218::": "JP", "2001:218:1234::99": "JP",
            "::ffff:2.125.160.217": "GB", "192.0.2.44": nil, "2001:db8::1": nil,
        ]
        let clicks = try Self.tap(server, from: Array(expected.keys))
        for (address, country) in expected {
            let click = try #require(clicks[address], "\(address) is listed")
            #expect(click["country"]?.stringValue == country, "\(address)")
            #expect(country != nil || click["country"]?.isNull == true, "\(address): null, not absent")
        }
        let stored = try server.storedClicks()
        #expect(stored.count == expected.count)
        #expect(Set(stored.compactMap(\.country)) == ["GB", "JP"])
    }

    @Test func withoutGeoIPEveryCountryIsNull() throws {
        let server = try Self.server(geoip: nil)
        defer { server.shutdown() }
        let clicks = try Self.tap(server, from: ["2.125.160.216", "2001:218::"])
        #expect(clicks.count == 2)
        for click in clicks.values { #expect(click["country"]?.isNull == true) }
    }

    /// Each `--ip-storage` mode over IPv4 and IPv6; the country comes from the whole address in every mode.
    @Test(arguments: [IPStorage.full, .anonymized, .none])
    func eachIPStorageModeKeepsWhatItSays(mode: IPStorage) throws {
        let server = try Self.server(geoip: "GeoIP2-Country-Test.mmdb", ipStorage: mode)
        defer { server.shutdown() }
        // 2.125.160.216 is GB, but its /24 2.125.160.0 is not in the database: a country found after the cut would
        // be missing here.
        let expected: [String: String?] =
            switch mode {
            case .full: ["2.125.160.216": "2.125.160.216", "2001:218:abcd:1::5": "2001:218:abcd:1::5"]
            case .anonymized: ["2.125.160.216": "2.125.160.0", "2001:218:abcd:1::5": "2001:218:abcd::"]
            case .none: ["2.125.160.216": nil, "2001:218:abcd:1::5": nil]
            }
        let clicks = try Self.tap(server, from: Array(expected.keys))
        for (address, kept) in expected {
            let click = try #require(clicks[address])
            if let kept {
                #expect(click["ip"]?.stringValue == kept, "\(mode) \(address)")
            } else {
                #expect(click["ip"]?.isNull == true, "\(mode) \(address): null")
            }
        }
        #expect(clicks["2.125.160.216"]?["country"]?.stringValue == "GB")
        #expect(clicks["2001:218:abcd:1::5"]?["country"]?.stringValue == "JP")
        let stored = try server.storedClicks()
        #expect(Set(stored.map(\.ip)) == Set(expected.values.map { $0 ?? "" }), "the store holds what the API shows")
    }

    /// The default mode, without `--ip-storage`, is `anonymized`, the socket peer included.
    @Test func theDefaultIsAnonymized() throws {
        #expect(ServerConfiguration().ipStorage == .anonymized)
        let server = try TestServer()
        defer { server.shutdown() }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.first { $0.id == sentinel }?.ip == "127.0.0.0")
    }

    /// The broken databases open (their metadata is sound), so the server starts; a tap whose lookup runs into the
    /// damage is stored without a country, and the server goes on answering.
    @Test(arguments: ["MaxMind-DB-test-broken-pointers-24.mmdb", "MaxMind-DB-test-broken-search-tree-24.mmdb"])
    func aBrokenDatabaseStillStoresEveryClick(database: String) throws {
        let server = try Self.server(geoip: database, ipStorage: .full)
        defer { server.shutdown() }
        let addresses = ["1.1.1.32", "1.1.1.16", "1.1.1.1", "1.1.1.8", "2.125.160.216", "2001:218::1"]
        let clicks = try Self.tap(server, from: addresses)
        #expect(clicks.count == addresses.count)
        for address in addresses {
            #expect(clicks[address]?["country"]?.isNull == true, "\(address)")
            #expect(clicks[address]?["ip"]?.stringValue == address)
        }
        let again = try server.client().request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.android)])
        #expect(again.status == 302)
    }
}
