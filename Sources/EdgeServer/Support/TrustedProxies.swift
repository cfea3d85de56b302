#if canImport(Glibc)
    import Glibc
#endif

/// The proxies whose `X-Forwarded-For` is believed (`--trusted-proxy CIDR`), and the rule that finds the
/// client behind them.
public struct TrustedProxies: Sendable, Equatable {
    /// One network: 16 address bytes (IPv4 mapped into IPv6) and a prefix length over them.
    struct Network: Sendable, Equatable {
        var address: [UInt8]
        var prefix: Int

        func contains(_ candidate: [UInt8]) -> Bool {
            var bits = prefix
            var index = 0
            while bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if address[index] & mask != candidate[index] & mask { return false }
                bits -= 8
                index += 1
            }
            return true
        }
    }

    var networks: [Network] = []

    public init() {}

    /// Parses CIDRs such as `10.0.0.0/8`, `::1/128` or a bare address; throws on a malformed one.
    public init(_ cidrs: [String]) throws {
        for cidr in cidrs {
            let parts = cidr.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let address = Self.parse(String(parts[0])) else {
                throw ConfigurationError("--trusted-proxy \(cidr): not an IP address or CIDR")
            }
            let isIPv4 = !parts[0].contains(":")
            var prefix = 128
            if parts.count == 2 {
                guard let bits = Int(parts[1]), bits >= 0, bits <= (isIPv4 ? 32 : 128) else {
                    throw ConfigurationError("--trusted-proxy \(cidr): bad prefix length")
                }
                prefix = isIPv4 ? bits + 96 : bits
            }
            networks.append(Network(address: address, prefix: prefix))
        }
    }

    public var isEmpty: Bool { networks.isEmpty }

    /// Whether the address (as text) is one of the trusted proxies.
    func trusts(_ address: [UInt8]) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// Whether `peer`, an address as text, is one of the trusted proxies.
    func trusts(peer: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.parse(peer) else { return false }
        return trusts(bytes)
    }

    /// The client address for a request from `peer` (text) with the given `X-Forwarded-For` value: the
    /// peer itself unless it is trusted; otherwise, walking the header from the right, the first hop that
    /// is not a trusted proxy (the hop just before the first trusted one). Malformed hops end the walk.
    ///
    /// A hop is an address as ``hopAddress(_:)`` reads it, with or without a port, and the client is that address
    /// alone: `203.0.113.7:51234` is `203.0.113.7`, so a client has one rate-limit budget and one stored address
    /// whatever port its connection to the proxy came from.
    public func clientAddress(peer: String, forwardedFor: String?) -> String {
        guard !networks.isEmpty, let forwardedFor, let peerBytes = Self.parse(peer), trusts(peerBytes) else {
            return peer
        }
        var client = peer
        for hop in forwardedFor.split(separator: ",").reversed().prefix(32) {
            let text = Self.hopAddress(String(hop).trimmingSpaces)
            guard let bytes = Self.parse(text) else { break }
            client = text
            if !trusts(bytes) { break }
        }
        return client
    }

    /// The address of one `X-Forwarded-For` hop, as proxies write it: `203.0.113.7`, `2001:db8::7`, or with the
    /// client's port (`203.0.113.7:51234`, Azure's and some load balancers'), or an IPv6 address in brackets, with
    /// or without a port (`[2001:db8::7]`, `[2001:db8::7]:51234`), the forms of RFC 7239 §6. A bare IPv6 address has
    /// colons and no port, and is taken as it is; so is anything else, which ``parse(_:)`` then refuses.
    static func hopAddress(_ hop: String) -> String {
        let bytes = Array(hop.utf8)
        func isPort(_ digits: ArraySlice<UInt8>) -> Bool {
            (1...5).contains(digits.count) && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        if bytes.first == 0x5B {  // `[v6]` or `[v6]:port`
            guard let close = bytes.firstIndex(of: 0x5D) else { return hop }
            let rest = bytes[(close + 1)...]
            guard rest.isEmpty || (rest.first == 0x3A && isPort(rest.dropFirst())) else { return hop }
            return String(decoding: bytes[1..<close], as: UTF8.self)
        }
        // `a.b.c.d:port`: one colon, after a dotted address (an IPv6 address has at least two).
        guard let colon = bytes.firstIndex(of: 0x3A), !bytes[(colon + 1)...].contains(0x3A),
            bytes[..<colon].contains(0x2E), isPort(bytes[(colon + 1)...])
        else { return hop }
        return String(decoding: bytes[..<colon], as: UTF8.self)
    }

    /// 16 bytes for an IPv4 or IPv6 literal (IPv4 as `::ffff:a.b.c.d`), or `nil`.
    static func parse(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        if text.contains(":") {
            let ok = bytes.withUnsafeMutableBytes { inet_pton(AF_INET6, text, $0.baseAddress) }
            return ok == 1 ? bytes : nil
        }
        bytes[10] = 0xFF
        bytes[11] = 0xFF
        let ok = bytes.withUnsafeMutableBytes { inet_pton(AF_INET, text, $0.baseAddress! + 12) }
        return ok == 1 ? bytes : nil
    }
}

/// A server setting that cannot be used, named by its flag.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }
}
