#if canImport(Glibc)
    import Glibc
#endif

/// A client address parsed from the text a click carries: IPv4, or IPv6 (an IPv4-mapped IPv6 address,
/// `::ffff:a.b.c.d`, is taken as the IPv4 address it maps, as a dual-stack socket or a proxy may write it).
public enum IPAddress: Sendable, Equatable {
    case v4(UInt8, UInt8, UInt8, UInt8)
    /// The 16 bytes, network order.
    case v6([UInt8])

    /// Parses an address literal; `nil` for anything else (a zone suffix such as `%eth0` included).
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= ClickRecord.maximumIPLength else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        if text.utf8.contains(UInt8(ascii: ":")) {
            guard bytes.withUnsafeMutableBytes({ inet_pton(AF_INET6, text, $0.baseAddress) }) == 1 else { return nil }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                self = .v4(bytes[12], bytes[13], bytes[14], bytes[15])
            } else {
                self = .v6(bytes)
            }
        } else {
            guard bytes.withUnsafeMutableBytes({ inet_pton(AF_INET, text, $0.baseAddress) }) == 1 else { return nil }
            self = .v4(bytes[0], bytes[1], bytes[2], bytes[3])
        }
    }

    /// The address with everything past its first `prefix` bits zeroed.
    func keepingPrefix(v4 bits4: Int, v6 bits6: Int) -> IPAddress {
        switch self {
        case .v4(let a, let b, let c, let d):
            let kept = Self.masked([a, b, c, d], bits: bits4)
            return .v4(kept[0], kept[1], kept[2], kept[3])
        case .v6(let bytes):
            return .v6(Self.masked(bytes, bits: bits6))
        }
    }

    private static func masked(_ bytes: [UInt8], bits: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = max(0, min(8, bits - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
    }

    /// The canonical text: dotted quad, or RFC 5952 compressed IPv6 (`2001:db8:1::`), as `inet_ntop` writes it.
    public var text: String {
        switch self {
        case .v4(let a, let b, let c, let d):
            return "\(a).\(b).\(c).\(d)"
        case .v6(let bytes):
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let written = bytes.withUnsafeBytes {
                inet_ntop(AF_INET6, $0.baseAddress, &buffer, socklen_t(buffer.count))
            }
            guard written != nil else { return "" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
