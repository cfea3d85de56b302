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

    /// A text made only of spaces and characters drawn blank shows nothing: refused, naming its first code point. A
    /// visible character anywhere in it (a letter, a Braille dot, an emoji, a lone accent) is enough.
    @Test func aTextThatShowsNothingIsRefused() throws {
        for (blank, codePoint) in [
            (" ", "U+0020"), ("   ", "U+0020"), ("\u{3000}", "U+3000"), ("\u{00A0}", "U+00A0"), ("\u{2800}", "U+2800"),
            ("\u{3164}", "U+3164"), ("\u{115F}", "U+115F"), ("\u{1160}", "U+1160"), ("\u{FFA0}", "U+FFA0"),
            ("\u{2002}\u{205F}", "U+2002"), ("\u{1680}", "U+1680"), ("\u{034F} ", "U+034F"), (" \u{FE0F}", "U+0020"),
            ("\u{2800}\u{3164}\u{3000}", "U+2800"),
        ] {
            #expect(DisplayTextRules.isBlank(blank), "\(codePoint)")
            #expect(
                throws: ConfigValidationError.invalid(
                    "must show a visible character, not only spaces or blank characters (found \(codePoint))")
            ) {
                try DisplayTextRules.validate(blank, maximumCharacters: 60)
            }
            try DisplayTextRules.validate(blank, maximumCharacters: 60, allowingBlank: true)
        }
        for shown in ["Sam", "\u{3000}Sam\u{3000}", "\u{2801}", "\u{3164}가", "🎉", " \u{0301}", "·", "\u{3007}"] {
            #expect(!DisplayTextRules.isBlank(shown), "\(shown.unicodeScalars.map(\.value))")
            try DisplayTextRules.validate(shown, maximumCharacters: 60)
        }
        #expect(throws: ConfigValidationError.self) { try BrandingRules.validateAppName("\u{3164}") }
        #expect(throws: ConfigValidationError.self) { try BrandingRules.validateDescription("\u{2800} \u{2800}") }
    }

    /// A blank `app_name` or `og_description` stored before the rule (or by another tool) is dropped from the pages,
    /// which then show the program's name, as without one.
    @Test func aStoredBlankAppNameIsNotShown() {
        var record = ProgramRecord(id: "prg_x", organizationID: "org_x", name: "Acme Pro")
        record.appName = "\u{3000}"
        record.ogDescription = "\u{2800}"
        let program = ProgramSettings(record: record, organizationName: "Acme")
        #expect(program.displayName == "Acme Pro")
        #expect(program.record.ogDescription == nil)
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
