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
}
