import Testing

@testable import LinkCore

/// The fold of a code's compatibility forms to the ASCII a person meant, which links and claims match after a miss.
@Suite struct CompatibilityCharactersTests {
    static func folded(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { code in
            withUnsafeTemporaryAllocation(
                byteCount: CompatibilityCharacters.maximumFoldedLength(of: code.count), alignment: 1
            ) {
                buffer in
                let length = CompatibilityCharacters.fold(code, into: buffer)!
                return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
            }
        }
    }

    @Test(arguments: [
        ("ＳＡＭ２０", "sam20"), ("ｓａｍ２０", "sam20"), ("SAM２０", "sam20"), ("ﬁx", "fix"), ("ﬃ", "ffi"),
        ("𝐒𝐀𝐌𝟐𝟎", "sam20"), ("𝗦𝗮𝗺", "sam"), ("ⓈⒶⓂ", "sam"), ("X²", "x2"), ("\u{212A}ING", "king"), ("ⅷ", "viii"),
        ("⑳", "20"), ("ＳＡＭ－２０", "sam-20"), ("～", "~"), ("＼", "\\"),
    ])
    func compatibilityFormsFoldToTheirASCII(code: String, folded: String) {
        #expect(Self.folded(Array(code.utf8)) == folded)
        #expect(CompatibilityCharacters.folded(code) == Array(folded.utf8))
        #expect(CompatibilityCharacters.holdsCompatibilityForm(code))
    }

    /// Letters a code may mean stay as they are: the fold never makes `CAFÉ` `CAFE`, nor touches CJK, Cyrillic, an
    /// emoji or a combining mark; the Angstrom sign's NFKC form is `Å`, not ASCII, so it stays too, and so do the
    /// ordinal indicators `ª` and `º` (NFKC `a` and `o`), letters of Spanish, Portuguese and Italian.
    @Test(arguments: [
        "CAFÉ", "CAFE\u{301}", "straße", "ЖУК", "東京20", "🎉20", "A\u{212B}", "½", "sam20", "SAM 20", "ｶﾞ", "1ª",
        "Nº1",
    ])
    func otherCharactersStay(code: String) {
        #expect(Self.folded(Array(code.utf8)) == ASCII.lowercased(code))
        #expect(!CompatibilityCharacters.holdsCompatibilityForm(code))
    }

    /// A link's path may hold any bytes: what is no well-formed UTF-8 is kept byte for byte, so an overlong `ª`
    /// (`E0 82 AA`) or a cut full-width letter matches nothing it did not match before.
    @Test(
        arguments: [
            [0xE0, 0x82, 0xAA], [0xEF, 0xBC], [0x53, 0xEF, 0xBC], [0xBC, 0xB3], [0xED, 0xA0, 0x80],
            [0xF5, 0x80, 0x80, 0x80],
            [0xC0, 0xB3],
        ] as [[UInt8]])
    func malformedBytesAreKept(bytes: [UInt8]) {
        let folded = bytes.withUnsafeBytes { code in
            withUnsafeTemporaryAllocation(byteCount: 8, alignment: 1) { buffer in
                let length = CompatibilityCharacters.fold(code, into: buffer)!
                return Array(UnsafeRawBufferPointer(rebasing: buffer[..<length]))
            }
        }
        #expect(folded == bytes.map(ASCII.lowercased))
    }

    @Test func aFoldThatDoesNotFitIsNil() {
        let code = Array("ⅷⅷ".utf8)
        code.withUnsafeBytes { code in
            withUnsafeTemporaryAllocation(byteCount: 7, alignment: 1) {
                #expect(CompatibilityCharacters.fold(code, into: $0) == nil)
            }
            withUnsafeTemporaryAllocation(byteCount: 8, alignment: 1) {
                #expect(CompatibilityCharacters.fold(code, into: $0) == 8)
            }
        }
    }

    /// The generated table is sorted, its ranges apart, every form printable ASCII, and no character grows by more
    /// than the third the link path's buffer allows for.
    @Test func theTableIsSortedAndBounded() {
        let table = CompatibilityCharacters.table
        for (entry, next) in zip(table, table.dropFirst()) { #expect(entry.last < next.first) }
        var scalars = 0
        for entry in table {
            let ascii = Array(
                UnsafeRawBufferPointer(start: entry.ascii.utf8Start, count: entry.ascii.utf8CodeUnitCount))
            #expect(!ascii.isEmpty && ascii.allSatisfy { (0x21...0x7E).contains($0) })
            #expect(entry.first == entry.last || ascii.count == 1)
            let width = String(Unicode.Scalar(entry.first)!).utf8.count
            #expect(ascii.count <= CompatibilityCharacters.maximumFoldedLength(of: width), "U+\(entry.first)")
            #expect(ascii.count * 3 <= width * 4, "U+\(entry.first)")
            scalars += Int(entry.last - entry.first) + 1
        }
        #expect(scalars > 1_300, "the full-width forms, ligatures, mathematical letters and the rest")
    }
}
