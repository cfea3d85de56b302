import LinkCore
import Testing

/// Which characters a display text may hold (``DisplayTextRules``): every format character is refused but the
/// joiners inside an emoji sequence or a word, and the tags of an emoji flag.
@Suite struct DisplayTextRulesTests {
    @Test(arguments: [
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200B}", "\u{200E}", "\u{200F}", "\u{061C}", "\u{2060}", "\u{FEFF}", "\u{00AD}", "\u{E0041}",
    ])
    func formatCharactersAreRefusedWhereverTheyStand(_ character: String) {
        for text in [character + "Acme", "Ac" + character + "me", "Acme" + character, "Ωμέγα" + character + "Ωμέγα"] {
            #expect(throws: ConfigValidationError.self, "\(text.unicodeScalars.map(\.value))") {
                try DisplayTextRules.validate(text)
            }
        }
    }

    @Test func joinersAreKeptOnlyBetweenTwoVisibleNonASCIICharacters() throws {
        for kept in [
            "👩\u{200D}💻", "👨🏽\u{200D}💻", "❤\u{FE0F}\u{200D}🔥", "🏳\u{FE0F}\u{200D}🌈", "می\u{200C}خواهم",
            "क्\u{200D}ष", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "Café 🎉", "Ünïcödé",
        ] {
            try DisplayTextRules.validate(kept)
        }
        for refused in [
            "\u{200D}👩", "👩\u{200D}", "S\u{200D}am", "Sa\u{200C}m", "👩\u{200D}\u{200D}💻", "👩\u{200D} 💻",
            "A\u{E0067}", "\u{E007F}",
        ] {
            #expect(throws: ConfigValidationError.self, "\(refused.unicodeScalars.map(\.value))") {
                try DisplayTextRules.validate(refused)
            }
        }
    }

    /// A name stored before the rule reaches a page without what the rule refuses; one that keeps it is unchanged.
    @Test func pagesShowAStoredNameWithoutWhatTheRuleRefuses() {
        #expect(DisplayTextRules.shown("\u{202E}evil\u{200B}") == "evil")
        #expect(DisplayTextRules.shown("S\u{200D}am 👩\u{200D}💻") == "Sam 👩\u{200D}💻")
        let program = ProgramSettings(
            record: ProgramRecord(id: "prg_x", organizationID: "org_x", name: "Acme\u{2066} Pro"),
            organizationName: "\u{202E}Org")
        #expect(program.displayName == "Acme Pro")
        #expect(program.organizationName == "Org")
    }

    @Test func controlsAndSeparatorsAreRefusedWithTheirCodePoint() {
        for (text, codePoint) in [("a\u{0}b", "U+0000"), ("a\u{85}b", "U+0085"), ("a\u{2028}b", "U+2028")] {
            #expect(
                throws: ConfigValidationError.invalid(
                    "must not contain control characters or line separators (found \(codePoint))")
            ) {
                try DisplayTextRules.validate(text)
            }
        }
    }
}
