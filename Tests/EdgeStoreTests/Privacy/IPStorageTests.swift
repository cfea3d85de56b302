import EdgeStore
import Testing

/// What `--ip-storage` keeps of an address.
@Suite struct IPStorageTests {
    @Test func anonymizedKeepsTheIPv4Slash24AndTheIPv6Slash48() {
        let cases = [
            ("2.125.160.216", "2.125.160.0"), ("10.0.0.255", "10.0.0.0"), ("0.0.0.0", "0.0.0.0"),
            ("2001:db8:1:2:3:4:5:6", "2001:db8:1::"), ("2001:218::", "2001:218::"),
            ("2001:db8:abcd:ffff::1", "2001:db8:abcd::"), ("::1", "::"), ("fe80::1:2", "fe80::"),
            ("2001:0DB8:0001:0000::", "2001:db8:1::"),
            // IPv4-mapped IPv6 is IPv4.
            ("::ffff:2.125.160.216", "2.125.160.0"), ("::FFFF:10.1.2.3", "10.1.2.0"),
        ]
        for (address, kept) in cases {
            #expect(IPStorage.anonymized.stored(address) == kept, "\(address)")
        }
    }

    @Test func anonymizedStoresNothingForTextThatIsNotAnAddress() {
        for text in ["", "unknown", "2.125.160", "2.125.160.216.1", "fe80::1%eth0", "::ffff:zz", "1.2.3.4 "] {
            #expect(IPStorage.anonymized.stored(text) == "", "\(text)")
        }
    }

    @Test func fullKeepsAndNoneDrops() {
        for address in ["2.125.160.216", "2001:db8:1:2:3:4:5:6", "::ffff:2.125.160.216"] {
            #expect(IPStorage.full.stored(address) == address)
            #expect(IPStorage.none.stored(address) == "")
        }
    }
}
