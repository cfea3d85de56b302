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
}
