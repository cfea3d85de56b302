import Testing

@testable import EdgeServer

/// What the claim limiter counts a client address as: parsed, never compared as text.
@Suite struct ClientNetworkTests {
    @Test func anIPv4AddressIsOneClientHoweverItIsSpelled() {
        let plain = ClientNetwork(address: "203.0.113.7")
        #expect(plain.description == "203.0.113.7")
        for spelling in [
            "::ffff:203.0.113.7", "::FFFF:203.0.113.7", "::ffff:cb00:7107", "0:0:0:0:0:ffff:cb00:7107",
            "0000:0000:0000:0000:0000:ffff:CB00:7107", "::0:ffff:203.0.113.7",
        ] {
            #expect(ClientNetwork(address: spelling) == plain, "\(spelling)")
        }
        #expect(ClientNetwork(address: "203.0.113.8") != plain)
        // Not the same address: IPv4-compatible (deprecated) and IPv4-translated forms are IPv6 addresses.
        #expect(ClientNetwork(address: "::203.0.113.7") != plain)
        #expect(ClientNetwork(address: "::ffff:0:203.0.113.7") != plain)
    }

    @Test func anIPv6AddressIsCountedAsItsSlashSixtyFour() {
        let network = ClientNetwork(address: "2001:db8:1:2::1")
        #expect(network.description == "2001:db8:1:2::/64")
        for sameNetwork in [
            "2001:db8:1:2::", "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2:a:b:c:d", "2001:db8:1:2::1:0",
        ] {
            #expect(ClientNetwork(address: sameNetwork) == network, "\(sameNetwork)")
        }
        for otherNetwork in ["2001:db8:1:3::1", "2001:db8:1::1", "2001:db8::1:2:0:0:1", "::1"] {
            #expect(ClientNetwork(address: otherNetwork) != network, "\(otherNetwork)")
        }
        // IPv4 clients sit inside ::/64 by their bits, but each keeps its own budget.
        #expect(ClientNetwork(address: "::1") != ClientNetwork(address: "0.0.0.1"))
        #expect(ClientNetwork(address: "::") != ClientNetwork(address: "0.0.0.0"))
        #expect(ClientNetwork(address: "1.2.3.4") != ClientNetwork(address: "1.2.3.5"))
    }

    @Test func textThatIsNoAddressIsUnknown() {
        for text in [
            "", " ", "localhost", "203.0.113.7:443", "203.0.113.07", "203.0.113", " 203.0.113.7", "[2001:db8::1]",
            "fe80::1%eth0", "2001:db8::1::2", String(repeating: "1", count: 100),
        ] {
            #expect(ClientNetwork(address: text) == .unknown, "\(text.debugDescription)")
        }
        #expect(ClientNetwork.unknown.description == "unknown")
        #expect(ClientNetwork(address: "0.0.0.0") != .unknown && ClientNetwork(address: "::") != .unknown)
    }
}
