#if canImport(Glibc)
    import Glibc
#endif

/// What a client address is counted as by a rate limit: an IPv4 address, or the /64 network of an IPv6 address.
///
/// A host given IPv6 gets a whole /64 (SLAAC, privacy addresses), so counting whole addresses would give it 2^64
/// budgets. The address is parsed, never compared as text: `::ffff:203.0.113.7`, `::FFFF:cb00:7107` and
/// `203.0.113.7` are one client, and so are `2001:db8::1` and `2001:0DB8:0:0::1`.
struct ClientNetwork: Hashable, Sendable, CustomStringConvertible {
    /// The first 64 bits of the address in network order (zero for IPv4).
    let high: UInt64
    /// For IPv4, `0000:ffff:a.b.c.d` (its IPv4-mapped form); for an IPv6 /64, zero; `1` for ``unknown``.
    let low: UInt64

    /// Every address the engine could not name (no peer address, unparseable text) shares one budget: an address
    /// that cannot be told apart must not get a budget of its own per request.
    static let unknown = ClientNetwork(high: 0, low: 1)

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// This network's budget for one `scope` (an organization's webhook): its bits mixed with a hash of `scope`, seeded
    /// per process as every hash here is. Two pairs may share a budget by a collision, which only ever limits them
    /// together; none can be aimed at, as the seed is unknown.
    func scoped(to scope: String) -> ClientNetwork {
        var hasher = Hasher()
        hasher.combine(scope)
        let mix = UInt64(bitPattern: Int64(hasher.finalize()))
        return ClientNetwork(high: high ^ mix, low: low ^ (mix &* 0x9E37_79B9_7F4A_7C15))
    }

    /// Parses an IPv4 or IPv6 literal (no brackets, port or zone); anything else is ``unknown``.
    init(address text: String) {
        guard text.utf8.count <= ClientAddress.maximumLength else {
            self = .unknown
            return
        }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else {
            self = .unknown
            return
        }
        let (high, low) = withUnsafeBytes(of: &v6) { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        // ::ffff:a.b.c.d is the IPv4 address a dual-stack socket or a proxy spelled as IPv6.
        if high == 0 && low >> 32 == 0xFFFF {
            self.init(ipv4: UInt32(truncatingIfNeeded: low))
        } else {
            self.init(high: high, low: 0)
        }
    }

    private init(ipv4: UInt32) {
        self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(ipv4))
    }

    var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// `203.0.113.7`, `2001:db8:1:2::/64` or `unknown`: for logs and test messages.
    var description: String {
        if self == .unknown { return "unknown" }
        if isIPv4 {
            let value = UInt32(truncatingIfNeeded: low)
            return (0..<4).map { String(value >> (24 - 8 * UInt32($0)) & 0xFF) }.joined(separator: ".")
        }
        let groups = (0..<4).map { String(high >> (48 - 16 * UInt64($0)) & 0xFFFF, radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
