/// Codes that read as one code to a person but are other bytes: what the importer refuses for one partner and warns
/// about between partners, and the dashboard refuses.
///
/// Links and claims match a code by its bytes, ASCII letters folded (``ASCII/sameCode(_:_:)``), and, when nothing
/// matched so, by its fold (``CompatibilityCharacters``). Two kinds of lookalike follow:
/// - **canonical**: equal by Unicode canonical equivalence (Swift's `==`) with ASCII letters in either case, once the
///   characters drawn as nothing are read past (``CodeRules/refuseInvisible(_:)``), `CAFÉ` as U+00C9 and as `E` with
///   U+0301, `KING` with the Kelvin sign, `SAM20` and `SAM20` with U+FE0F (a code stored before that rule), the
///   Persian `می‌خواهم` with and without its non-joiner (a joiner the rule keeps, which changes a letter's shape or
///   nothing a reader notices). Links and claims tell them apart: each spelling reaches its own
///   code, and a person reaches whichever spelling the keyboard makes.
/// - **compatibility**: equal once folded, `ＳＡＭ２０` (full-width) and `SAM20`, `ﬁx` and `FIX`. Each spelling
///   reaches its own code when typed exactly so; any other spelling that folds the same (`ｓａｍ２０`) matches both,
///   which is one code held twice: a conflict when two partners hold them.
public enum CodeLookalikes {
    public enum Kind: Sendable, Equatable {
        case canonical, compatibility
    }

    /// The keys under which `code` reads as others: two codes that share a key (of the same kind) are lookalikes,
    /// unless they are the same code. Canonical keys are compared with `==` (canonical equivalence), so group them
    /// in a `Dictionary`, whose hashing agrees. The canonical keys, and the last, are read past the characters drawn
    /// as nothing (``CodeRules/refuseInvisible(_:)``); the compatibility key is the fold the link table matches, so
    /// a pair sharing only the last (`SAM20` and `ＳＡＭ２０` with U+FE0F, whose folds differ by it) is canonical:
    /// links and claims tell its codes apart.
    public static func keys(_ code: String) -> [(key: String, kind: Kind)] {
        let visible = CodeRules.visible(code)
        return [
            (ASCII.lowercased(visible), .canonical), (ASCII.uppercased(visible), .canonical),
            (String(decoding: CompatibilityCharacters.folded(code), as: UTF8.self), .compatibility),
            (String(decoding: CompatibilityCharacters.folded(visible), as: UTF8.self), .canonical),
        ]
    }

    /// How many keys ``keys(_:)`` gives each code.
    public static let keyCount = 4

    /// How two codes that are not the same code (``ASCII/sameCode(_:_:)``) read alike, or `nil` when they do not:
    /// canonical first, since a canonical lookalike is also told apart by links. Folds that are equal only
    /// canonically (`ＣＡＦé` with U+00E9 and `CAFE` with U+0301) are other bytes, which the link table tells apart as
    /// it does canonical lookalikes: such a pair is canonical, never a compatibility one that would share spellings.
    public static func kind(_ first: String, _ second: String) -> Kind? {
        guard !ASCII.sameCode(first, second) else { return nil }
        for ((key, kind), (other, _)) in zip(keys(first), keys(second)) where key == other {
            return kind == .compatibility && !key.utf8.elementsEqual(other.utf8) ? .canonical : kind
        }
        return nil
    }
}
