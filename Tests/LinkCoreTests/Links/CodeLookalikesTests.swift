import Testing

@testable import LinkCore

/// How two codes read alike: a compatibility pair shares spellings in the link table only when the folds are the
/// same bytes, as the link table compares them.
@Suite struct CodeLookalikesTests {
    @Test(arguments: [
        ("SAM20", "\u{FF33}\u{FF21}\u{FF2D}\u{FF12}\u{FF10}", CodeLookalikes.Kind.compatibility),
        ("FIX", "\u{FB01}x", .compatibility),
        ("CAF\u{C9}", "CAFE\u{301}", .canonical),
        ("KING", "\u{212A}ING", .canonical),
        // Folds equal only canonically (U+00E9 against `e` and U+0301): other bytes to the link table.
        ("\u{FF23}\u{FF21}\u{FF26}\u{E9}", "CAFE\u{301}", .canonical),
    ])
    func pairsReadAlikeByTheirKind(first: String, second: String, kind: CodeLookalikes.Kind) {
        #expect(CodeLookalikes.kind(first, second) == kind)
        #expect(CodeLookalikes.kind(second, first) == kind)
    }

    @Test(arguments: [("SAM20", "sam20"), ("SAM20", "SAM21"), ("CAF\u{C9}", "CAFE")])
    func theSameCodeOrAnotherIsNoLookalike(first: String, second: String) {
        #expect(CodeLookalikes.kind(first, second) == nil)
    }
}
