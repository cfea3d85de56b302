/// The invisible characters a copy brings along around a code: whitespace (Unicode's `White_Space`: a space, tab or
/// line break, a no-break or ideographic space) and the invisible formatting characters (`Cf`): a zero-width space,
/// joiner or non-joiner, a word joiner, a byte-order mark, a soft hyphen, a bidirectional mark, embedding or isolate
/// (from a bio, a chat or a web page). No new code may hold one (``CodeRules``: whitespace is refused on write, the
/// formatting characters always), so links drop them around a code as claims do; a code stored before that rule and
/// ending in a no-break or ideographic space keeps its exact link, and the import warns about it. Bytes only, no allocation: the link path calls it, on a code that matched nothing.
public enum InvisibleCharacters {
    /// `bytes` without the invisible characters at its start and end, as a range of its indices.
    public static func trimmed(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
        var kept = 0..<bytes.count
        while let length = invisibleLength(in: bytes, kept, atStart: true) { kept = kept.dropFirst(length) }
        while let length = invisibleLength(in: bytes, kept, atStart: false) { kept = kept.dropLast(length) }
        return kept
    }

    /// The length of the invisible character at the start (or the end) of `range`, if there is one.
    static func invisibleLength(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>, atStart: Bool) -> Int? {
        for length in 1...3 where length <= range.count {
            let piece = atStart ? range.prefix(length) : range.suffix(length)
            if isInvisible(UnsafeRawBufferPointer(rebasing: bytes[piece])) { return length }
        }
        return nil
    }

    /// Whether `sequence` is the UTF-8 of one of: the whitespace U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680,
    /// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000; or the formatting characters U+00AD soft hyphen, U+061C
    /// Arabic letter mark, U+180E Mongolian vowel separator, U+200B–U+200F, U+202A–U+202E, U+2060–U+2064,
    /// U+2066–U+206F, U+FEFF.
    static func isInvisible(_ sequence: UnsafeRawBufferPointer) -> Bool {
        switch sequence.count {
        case 1:
            return (0x09...0x0D).contains(sequence[0]) || sequence[0] == 0x20
        case 2:
            let (a, b) = (sequence[0], sequence[1])
            return (a == 0xC2 && (b == 0x85 || b == 0xA0 || b == 0xAD)) || (a == 0xD8 && b == 0x9C)
        case 3:
            let (a, b, c) = (sequence[0], sequence[1], sequence[2])
            if a == 0xE1 { return (b == 0xA0 && c == 0x8E) || (b == 0x9A && c == 0x80) }
            if a == 0xE3 { return b == 0x80 && c == 0x80 }
            if a == 0xEF { return b == 0xBB && c == 0xBF }
            guard a == 0xE2 else { return false }
            if b == 0x80 { return (0x80...0x8F).contains(c) || (0xA8...0xAF).contains(c) }
            if b == 0x81 { return c == 0x9F || (0xA0...0xA4).contains(c) || (0xA6...0xAF).contains(c) }
            return false
        default:
            return false
        }
    }
}
