/// One Unicode scalar read from UTF-8 bytes that may not be valid: a link's percent-decoded path, a value put in a
/// page. Bytes only, no allocation.
public enum UTF8Scalar {
    /// The scalar that starts at `index` and its length in bytes (an ASCII byte is itself, one byte long), or `nil`
    /// when the bytes there are no well-formed UTF-8 sequence: a stray continuation byte, a cut sequence, an overlong
    /// form (`E0 82 AA` for U+00AA), a surrogate or a value beyond U+10FFFF.
    @inline(__always)
    public static func decode(_ bytes: UnsafeRawBufferPointer, at index: Int) -> (value: UInt32, length: Int)? {
        let lead = bytes[index]
        let length: Int
        let smallest: UInt32
        switch lead {
        case 0x00...0x7F: return (UInt32(lead), 1)
        case 0xC2...0xDF: (length, smallest) = (2, 0x80)
        case 0xE0...0xEF: (length, smallest) = (3, 0x800)
        case 0xF0...0xF4: (length, smallest) = (4, 0x1_0000)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0x7F >> length)
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= smallest, value <= 0x10_FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return (value, length)
    }
}
