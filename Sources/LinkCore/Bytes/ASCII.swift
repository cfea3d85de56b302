/// Byte-level helpers for ASCII text: case folding and the character classes the link path needs.
public enum ASCII {
    /// The byte with `A`–`Z` folded to `a`–`z`; every other byte is returned as it is.
    @inline(__always)
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// The string with ASCII letters folded to lower case. Codes match without case this way: non-ASCII bytes
    /// compare exactly, so the fold is the same on every platform and costs one pass over the bytes.
    public static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { lowercased($0) }, as: UTF8.self)
    }

    /// The string with ASCII letters folded to upper case (for telling lookalike codes apart, ``sameCode(_:_:)``).
    public static func uppercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 &- 0x61 < 26 ? $0 & 0xDF : $0 }, as: UTF8.self)
    }

    /// Whether two codes are one code as links, claims and the store's unique index match them: the same bytes, with
    /// ASCII letters folded. Not Swift's `==` on the folded strings, which is Unicode canonical equivalence (`É` as
    /// U+00C9 equals `E` and U+0301 there, though a link and the store tell them apart).
    public static func sameCode(_ first: String, _ second: String) -> Bool {
        first.utf8.count == second.utf8.count
            && zip(first.utf8, second.utf8).allSatisfy { lowercased($0) == lowercased($1) }
    }

    /// Whether `byte` is an RFC 3986 unreserved character (`A–Z a–z 0–9 - . _ ~`), the only bytes a
    /// percent-encoded value keeps as they are.
    @inline(__always)
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: return true
        default: return false
        }
    }

    /// Whether the bytes contain a control character (C0, or DEL), which never belongs in a header or URL.
    public static func containsControl<S: Sequence>(_ bytes: S) -> Bool where S.Element == UInt8 {
        bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The value of one hexadecimal digit, or `nil`.
    @inline(__always)
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
