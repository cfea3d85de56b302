import LinkCore
import Testing

/// Scalars read from bytes that may not be UTF-8.
@Suite struct UTF8ScalarTests {
    static func decode(_ bytes: [UInt8], at index: Int = 0) -> (value: UInt32, length: Int)? {
        bytes.withUnsafeBytes { UTF8Scalar.decode($0, at: index) }
    }

    @Test func wellFormedSequencesAreRead() {
        for text in ["a", "é", "Ｓ", "𝐒", "\u{10FFFF}", "\u{80}", "\u{800}", "\u{10000}"] {
            let decoded = Self.decode(Array(text.utf8))
            #expect(decoded?.value == text.unicodeScalars.first!.value && decoded?.length == text.utf8.count, "\(text)")
        }
        #expect(Self.decode(Array("aＳ".utf8), at: 1)?.value == 0xFF33)
    }

    @Test(
        arguments: [
            [0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBC, 0x33],
            [0xF4, 0x90, 0x80, 0x80],
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFF],
        ] as [[UInt8]])
    func malformedSequencesAreNone(bytes: [UInt8]) {
        #expect(Self.decode(bytes) == nil)
    }
}
