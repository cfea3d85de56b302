import Testing

@testable import LinkCore

/// The codes a link can never carry: browsers and messengers remove the dot segments `.` and `..` from a URL's path.
@Suite struct CodeRulesTests {
    @Test(arguments: [".", ".."])
    func dotSegmentsAreRefusedOnWriteByName(_ code: String) throws {
        // Valid as a stored code is: a code stored before the rule still loads.
        try CodeRules.validate(code)
        #expect(CodeRules.isDotSegment(code))
        let error = try #require(throws: ConfigValidationError.self) { try CodeRules.refuseDotSegment(code) }
        #expect(error.reason.hasPrefix("\(code) is a dot segment, which browsers and messengers remove"), "\(error)")
        #expect(error.reason.contains("/a/<public_key>/\(code) opens another page"), "\(error)")
    }

    /// Dots beside other characters are no dot segment (`...` neither: RFC 3986 and WHATWG name only `.` and `..`);
    /// a full-width full stop is percent-encoded in a link, never taken for a dot.
    @Test(arguments: ["...", ".a", "a.", "SAM.20", "..x", "\u{FF0E}", "\u{FF0E}\u{FF0E}", "\u{2024}\u{2024}"])
    func otherCodesWithDotsAreKept(_ code: String) throws {
        try CodeRules.validate(code)
        #expect(!CodeRules.isDotSegment(code))
        try CodeRules.refuseDotSegment(code)
    }

    /// A space of any kind in a code (Unicode's `White_Space`, past the ASCII ones `validate` refuses) is refused on
    /// write, naming it: claims and links drop whitespace around a code, so a claim could never reach `JP21` and an
    /// ideographic space. A code stored before the rule still validates, so it still loads.
    @Test(arguments: [
        ("JP21\u{3000}", "U+3000"), ("\u{00A0}SAM", "U+00A0"), ("A\u{2009}B", "U+2009"), ("X\u{202F}", "U+202F"),
        ("\u{1680}Y", "U+1680"), ("Z\u{205F}", "U+205F"),
    ])
    func unicodeSpacesAreRefusedOnWrite(_ code: String, _ shown: String) throws {
        try CodeRules.validate(code)
        #expect(CodeRules.containsWhitespace(code))
        let error = try #require(throws: ConfigValidationError.self) { try CodeRules.refuseWhitespace(code) }
        #expect(error.reason.hasPrefix("must not contain spaces: it holds \(shown)"), "\(error)")
    }

    /// Codes with invisible joiners, other scripts or compatibility forms hold no whitespace.
    @Test(arguments: [
        "SAM20", "\u{FF33}\u{FF21}\u{FF2D}", "CAF\u{C9}", "\u{1F468}\u{200D}\u{1F469}", "\u{5B89}\u{5168}",
    ])
    func codesWithoutSpacesAreKept(_ code: String) throws {
        #expect(!CodeRules.containsWhitespace(code))
        try CodeRules.refuseWhitespace(code)
    }

    /// A character drawn as nothing in a code (a default-ignorable code point, U+2800) is refused on write, naming it:
    /// each of these was accepted, claimed and tapped as another partner's code while looking like `SAM20` or `ÉÉ`.
    /// A code stored before the rule still validates, so it still loads. In emoji, U+FE0F after an ASCII digit (a
    /// keycap) or after an emoji drawn as emoji anyway, and a joiner not between two emoji, are refused too.
    @Test(arguments: [
        ("SAM20\u{FE0F}", "U+FE0F"), ("SAM2\u{FE0F}0", "U+FE0F"), ("SAM\u{34F}20", "U+034F"),
        ("\u{C9}\u{200D}\u{C9}", "U+200D"), ("SAM\u{3164}20", "U+3164"), ("SAM\u{2800}20", "U+2800"),
        ("SAM\u{115F}20", "U+115F"), ("SAM\u{1160}20", "U+1160"), ("\u{FFA0}SAM20", "U+FFA0"),
        ("SAM20\u{E0101}", "U+E0101"), ("\u{5B89}\u{FE00}\u{5168}", "U+FE00"), ("\u{C9}\u{200C}\u{C9}", "U+200C"),
        ("1\u{FE0F}\u{20E3}", "U+FE0F"), ("\u{1F680}\u{FE0F}", "U+FE0F"), ("\u{2764}\u{FE0F}\u{FE0F}", "U+FE0F"),
        ("\u{1F3F4}\u{E0067}\u{E007F}", "U+E0067"),
    ])
    func invisibleCharactersAreRefusedOnWrite(_ code: String, _ shown: String) throws {
        try CodeRules.validate(code)
        #expect(CodeRules.containsInvisible(code))
        let error = try #require(throws: ConfigValidationError.self) { try CodeRules.refuseInvisible(code) }
        #expect(error.reason.hasPrefix("must not contain invisible characters: it holds \(shown),"), "\(error)")
    }

    /// The zero-width joiner and non-joiner are kept only between two letters or marks of one Arabic-script or Indic
    /// block, where words are spelt with them, and the joiner between two emoji; anywhere else they are invisible
    /// characters like the others (the
    /// format characters among them also fail `validate`, as before).
    @Test(arguments: [
        ("\u{645}\u{6CC}\u{200C}", "U+200C"), ("\u{200D}\u{915}", "U+200D"),
        ("\u{915}\u{94D}\u{200D}\u{627}", "U+200D"), ("\u{661}\u{200C}\u{628}", "U+200C"),
        ("\u{915}\u{200C}\u{200C}\u{937}", "U+200C"), ("\u{915}\u{94D}\u{200D}\u{995}", "U+200D"),
        ("SAM\u{00AD}20", "U+00AD"), ("\u{1F469}\u{200D}", "U+200D"), ("\u{1F469}\u{200D}SAM", "U+200D"),
        ("SAM\u{200D}\u{1F4BB}", "U+200D"), ("\u{1F469}\u{200D}\u{200D}\u{1F4BB}", "U+200D"),
    ])
    func joinersOutsideTheWordsThatNeedThemAreRefused(_ code: String, _ shown: String) throws {
        let error = try #require(throws: ConfigValidationError.self) { try CodeRules.refuseInvisible(code) }
        #expect(error.reason.hasPrefix("must not contain invisible characters: it holds \(shown),"), "\(error)")
    }

    /// Codes in other scripts stay accepted: accented letters, CJK, Cyrillic, Arabic, a Persian word with its
    /// non-joiner (`می‌خواهم`), Devanagari with the joiner that makes the half form (`क्‍ष`) and the non-joiner that keeps
    /// the virama shown (`क्‌ष`), Bengali, a Hangul syllable (not its filler), an emoji drawn as one on its own, and
    /// compatibility forms; an emoji with the U+FE0F a phone's emoji keyboard types after one drawn as text without it
    /// (`❤️`), and joiner sequences (`👩‍💻`, `❤️‍🔥`, `🏳️‍🌈`).
    @Test(arguments: [
        "SAM20", "CAF\u{C9}", "\u{5B89}\u{5168}", "\u{416}20", "\u{645}\u{631}\u{62D}\u{628}\u{627}",
        "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}", "\u{915}\u{94D}\u{200D}\u{937}",
        "\u{915}\u{94D}\u{200C}\u{937}", "\u{939}\u{93F}\u{928}\u{94D}\u{926}\u{940}",
        "\u{9B0}\u{9CD}\u{200D}\u{9AF}", "\u{D55C}\u{AE00}", "\u{1F680}", "\u{FF33}\u{FF21}\u{FF2D}",
        "LOVE\u{2764}\u{FE0F}", "\u{1F469}\u{200D}\u{1F4BB}20", "\u{2764}\u{FE0F}\u{200D}\u{1F525}",
        "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", "\u{1F44B}\u{1F3FD}",
    ])
    func visibleCodesInOtherScriptsAreKept(_ code: String) throws {
        try CodeRules.validate(code)
        #expect(!CodeRules.containsInvisible(code))
        try CodeRules.refuseInvisible(code)
        try CodeRules.refuseWhitespace(code)
        try DisplayTextRules.refuseBlank(code)
    }
}
