/// The compatibility forms of ASCII that a keyboard or a copy brings into a code: the full-width `ＳＡＭ２０` a
/// Japanese, Chinese or Korean input method types for `SAM20`, the ligature `ﬁ`, the bold or circled letters of a
/// styled bio (`𝐒𝐀𝐌𝟐𝟎`, `Ⓢ`), a superscript digit, the Kelvin sign. Each is a character whose NFKC form is printable
/// ASCII (the generated ``table``), and the fold writes that ASCII in its place, ASCII letters in lower case.
///
/// Every other character stays as it is: the fold never touches a letter a code may mean (`É`, `ß`, `Ж`, CJK, an
/// emoji), so two codes that differ by such letters never fold together. It maps each character on its own and
/// composes nothing (a full-width `Ｅ` before U+0301 is `e` and U+0301, not `é`), which keeps it to bytes: the link
/// path folds a code that matched nothing as it is, with no allocation (``LinkTable/matchAfterMiss(publicKey:lowercasedCode:)``).
public enum CompatibilityCharacters {
    /// How much longer than a code its fold can be, at most: by a third (`ⅷ`, three bytes, is `viii`).
    /// `scripts/make-compatibility-table.py` refuses a table where a character grows more.
    public static func maximumFoldedLength(of length: Int) -> Int { length + (length + 2) / 3 }

    /// Writes the fold of `code` into `output` and returns its length, or `nil` when it does not fit.
    @inline(__always)
    public static func fold(_ code: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
        var length = 0
        var fits = true
        forEachFoldedByte(of: code) { byte in
            guard length < output.count else { return fits = false }
            output[length] = byte
            length += 1
        }
        return fits ? length : nil
    }

    /// The fold of `code`, for the link table's keys and for telling lookalike codes apart.
    public static func folded(_ code: String) -> [UInt8] {
        var folded: [UInt8] = []
        folded.reserveCapacity(maximumFoldedLength(of: code.utf8.count))
        Array(code.utf8).withUnsafeBytes { bytes in forEachFoldedByte(of: bytes) { folded.append($0) } }
        return folded
    }

    /// Whether `code` holds a character the fold changes (other than an ASCII letter's case).
    public static func holdsCompatibilityForm(_ code: String) -> Bool {
        !code.utf8.elementsEqual(folded(code), by: { ASCII.lowercased($0) == $1 })
    }

    /// Hands `body` each byte of the fold of `bytes`, in order. A byte that starts no well-formed UTF-8 sequence is
    /// kept as it is: a link's path may hold any bytes, and they must match nothing they did not match before.
    @inline(__always)
    static func forEachFoldedByte(of bytes: UnsafeRawBufferPointer, _ body: (UInt8) -> Void) {
        var index = 0
        while index < bytes.count {
            guard bytes[index] >= 0x80, let (scalar, length) = UTF8Scalar.decode(bytes, at: index) else {
                body(ASCII.lowercased(bytes[index]))
                index += 1
                continue
            }
            if let entry = entry(for: scalar) {
                let ascii = UnsafeRawBufferPointer(start: entry.ascii.utf8Start, count: entry.ascii.utf8CodeUnitCount)
                for position in 0..<ascii.count {
                    let raise = position == ascii.count - 1 ? UInt8(scalar - entry.first) : 0
                    body(ASCII.lowercased(ascii[position] + raise))
                }
            } else {
                for position in index..<(index + length) { body(bytes[position]) }
            }
            index += length
        }
    }

    /// The entry of ``table`` whose range holds `scalar`, found by binary search.
    static func entry(for scalar: UInt32) -> (first: UInt32, last: UInt32, ascii: StaticString)? {
        var low = 0
        var high = table.count
        while low < high {
            let middle = (low + high) / 2
            if table[middle].first <= scalar { low = middle + 1 } else { high = middle }
        }
        guard low > 0, scalar <= table[low - 1].last else { return nil }
        return table[low - 1]
    }
}
