import Testing

@testable import LinkCore

/// `QuotedText`: what an error or a warning quotes of its input is bounded and never carries a control character.
@Suite struct QuotedTextTests {
    @Test func shortTextIsQuotedAsItIs() {
        #expect(QuotedText.shown("colour") == "colour")
        #expect(QuotedText.shown("") == "")
        let hundred = String(repeating: "é", count: 100)
        #expect(QuotedText.shown(hundred) == hundred, "exactly the limit: whole, no mark")
    }

    /// Cut after 100 Unicode scalars, not characters: one letter with 5,000 accents is one character.
    @Test func longTextIsCutAfterAHundredScalars() {
        #expect(QuotedText.shown(String(repeating: "k", count: 1_000_000)) == String(repeating: "k", count: 100) + "…")
        let stacked = "e" + String(repeating: "\u{0301}", count: 5_000)
        let shown = QuotedText.shown(stacked)
        #expect(shown.unicodeScalars.count == 101 && shown.hasSuffix("…"))
    }

    @Test func controlCharactersAreEscaped() {
        #expect(QuotedText.shown("\u{1B}[31mred\r\nfake: ok") == #"\u001B[31mred\u000D\u000Afake: ok"#)
        #expect(QuotedText.shown("a\u{0}b\u{7F}c\u{9B}d\u{85}") == #"a\u0000b\u007Fc\u009Bd\u0085"#)
        #expect(QuotedText.shown("caf\u{E9} \u{A0}\u{2028}") == "caf\u{E9} \u{A0}\u{2028}", "no Cc: as it is")
        // Counted before escaping: a hundred ESCs are all shown, each as six characters.
        let escapes = QuotedText.shown(String(repeating: "\u{1B}", count: 101))
        #expect(escapes == String(repeating: #"\u001B"#, count: 100) + "…")
    }

    @Test func aWholeMessageKeepsItsLengthAndLosesItsControls() {
        let long = String(repeating: "x", count: 500)
        #expect(QuotedText.escapingControls(long) == long)
        #expect(QuotedText.escapingControls("a:\tb\u{1B}") == #"a:\u0009b\u001B"#)
        #expect(QuotedText.escapingControls(#"already \u001B"#) == #"already \u001B"#)
    }
}
