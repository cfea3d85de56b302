import LinkCore
import Testing

/// The whitespace and invisible formatting characters a copy brings along, dropped around a code (not inside it) by the
/// link path.
@Suite struct InvisibleCharactersTests {
    static func trimmed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { String(decoding: $0[InvisibleCharacters.trimmed($0)], as: UTF8.self) }
    }

    @Test(arguments: [
        ("sam20\u{200B}", "sam20"), ("\u{FEFF}sam20", "sam20"), ("\u{200E}sam20\u{200F}", "sam20"),
        ("\u{2066}sam20\u{2069}", "sam20"), ("sam20\u{00AD}\u{2060}\u{200D}", "sam20"), ("\u{061C}sam20", "sam20"),
        ("\u{180E}sam20\u{202C}", "sam20"), ("sa\u{200B}m20", "sa\u{200B}m20"), ("\u{200B}\u{FEFF}", ""),
        ("sam20", "sam20"), ("", ""), ("é", "é"), ("\u{2065}sam20", "\u{2065}sam20"),
        (" sam20\t\n", "sam20"), ("\u{00A0}sam20\u{3000}", "sam20"), ("\u{2028}sam20\u{0085}", "sam20"),
        ("\u{1680}\u{2000}\u{200A}sam20\u{202F}\u{205F}\r", "sam20"), ("sam 20", "sam 20"),
        ("sam20\u{200B} \u{FEFF}", "sam20"), ("sam20\u{2029}\u{000B}\u{000C}", "sam20"),
        ("sam20\u{00A1}", "sam20\u{00A1}"), ("\u{3001}sam20", "\u{3001}sam20"), ("sam20\u{2030}", "sam20\u{2030}"),
    ])
    func onlyTheInvisibleCharactersAroundGo(text: String, kept: String) {
        #expect(Self.trimmed(text) == kept)
    }

    @Test func aCutSequenceIsNotTakenForOne() {
        let bytes: [UInt8] = Array("sam20".utf8) + [0xE2, 0x80]
        #expect(bytes.withUnsafeBytes { InvisibleCharacters.trimmed($0) } == 0..<7)
    }
}
