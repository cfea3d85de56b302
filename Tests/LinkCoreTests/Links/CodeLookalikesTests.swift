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
        // Characters drawn as nothing (codes stored before CodeRules.refuseInvisible) are read past: each of these is
        // another code to links and claims, and looks like the first.
        ("SAM20", "SAM20\u{FE0F}", .canonical), ("sam20", "SAM2\u{FE0F}0", .canonical),
        ("SAM20", "SAM\u{34F}20", .canonical), ("\u{C9}\u{C9}", "\u{C9}\u{200D}\u{C9}", .canonical),
        ("SAM20", "SAM\u{3164}20", .canonical), ("SAM20", "SAM\u{2800}20", .canonical),
        ("SAM20\u{FE0F}", "SAM\u{34F}20", .canonical),
        // A joiner the rule keeps in a Persian word: the same word to a reader.
        (
            "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}",
            "\u{645}\u{6CC}\u{62E}\u{648}\u{627}\u{647}\u{645}", .canonical
        ),
        // An emoji with and without the U+FE0F or joiner the rule keeps.
        ("LOVE\u{2764}", "LOVE\u{2764}\u{FE0F}", .canonical),
        ("\u{1F469}\u{1F4BB}", "\u{1F469}\u{200D}\u{1F4BB}", .canonical),
        // A full-width code with a variation selector: its fold keeps U+FE0F, so links tell it from `SAM20`.
        ("SAM20", "\u{FF33}\u{FF21}\u{FF2D}\u{FF12}\u{FF10}\u{FE0F}", .canonical),
    ])
    func pairsReadAlikeByTheirKind(first: String, second: String, kind: CodeLookalikes.Kind) {
        #expect(CodeLookalikes.kind(first, second) == kind)
        #expect(CodeLookalikes.kind(second, first) == kind)
    }

    @Test(arguments: [
        ("SAM20", "sam20"), ("SAM20", "SAM21"), ("CAF\u{C9}", "CAFE"), ("SAM20", "SAM21\u{FE0F}"),
        ("SAM20\u{FE0F}", "sam20\u{FE0F}"),
    ])
    func theSameCodeOrAnotherIsNoLookalike(first: String, second: String) {
        #expect(CodeLookalikes.kind(first, second) == nil)
    }
}
