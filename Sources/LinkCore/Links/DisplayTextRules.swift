/// The characters a text shown on a page may hold: organization, program and partner names, `app_name` and
/// `og_description`, checked by the importer (and so by the API and the dashboard, which save through it).
///
/// A display text reaches the public fallback page, link previews and the dashboard, so it must read as what it is.
/// Refused: control characters (C0, DEL, C1), line and paragraph separators, lone surrogates, and the Unicode
/// format characters (category `Cf`) that are invisible or reorder what follows: bidirectional overrides,
/// embeddings, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), the zero-width space
/// U+200B, the word joiner U+2060, the byte-order mark U+FEFF, the soft hyphen U+00AD and the rest of `Cf`.
///
/// Two uses of `Cf` characters are part of how real text is written, and are kept:
/// - the zero-width joiner and non-joiner (U+200D, U+200C) *inside* an emoji sequence or a word of a script that
///   needs them (👩‍💻, Persian, Devanagari): both neighbours must be visible non-ASCII letters, marks or symbols,
///   so a joiner at either end, next to ASCII (`S\u{200D}am`), next to a space or beside another joiner is
///   refused;
/// - the tag characters U+E0020–U+E007F of an emoji flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿, Scotland), after the black flag U+1F3F4.
///
/// A text must also show something (``refuseBlank(_:)``): one made only of spaces (U+0020, U+00A0, U+3000, …) and
/// characters drawn blank (U+2800 BRAILLE PATTERN BLANK, the Hangul fillers U+3164, U+115F, U+1160 and U+FFA0, the
/// other default-ignorable code points) would make a page's title and sentences read " shared this code with you".
public enum DisplayTextRules {
    /// Throws unless `text` is 1 to `maximum` characters of display text (``validate(_:)``), at most four UTF-8
    /// bytes a character on average, and not blank (``refuseBlank(_:)``, unless `allowingBlank`: a name stored before
    /// that rule, carried over unchanged). A character is what a reader sees as one, a letter with its marks, so
    /// without the byte bound one character could carry any number of combining marks, and a page showing the text
    /// any size.
    public static func validate(_ text: String, maximumCharacters maximum: Int, allowingBlank: Bool = false)
        throws(ConfigValidationError)
    {
        guard (1...maximum).contains(text.count) else { throw .invalid("must be 1–\(maximum) characters") }
        guard text.utf8.count <= 4 * maximum else {
            throw .invalid("must be at most \(4 * maximum) bytes of UTF-8 (too many combining marks)")
        }
        try validate(text)
        if !allowingBlank { try refuseBlank(text) }
    }

    /// Refuses a text without a visible character (``isBlank(_:)``), naming its first code point.
    public static func refuseBlank(_ text: String) throws(ConfigValidationError) {
        guard isBlank(text) else { return }
        let first = text.unicodeScalars.first.map { " (found \(codePoint($0)))" } ?? ""
        throw .invalid("must show a visible character, not only spaces or blank characters\(first)")
    }

    /// Whether `text` shows nothing: every code point is whitespace (`White_Space`), default-ignorable (drawn as
    /// nothing: the Hangul fillers, variation selectors, the combining grapheme joiner, format characters) or
    /// U+2800 BRAILLE PATTERN BLANK, a symbol whose glyph is empty.
    public static func isBlank(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint
                && scalar.value != 0x2800 && scalar.properties.generalCategory != .control
        }
    }

    /// Throws the first character of `text` a display text may not hold, naming its code point.
    public static func validate(_ text: String) throws(ConfigValidationError) {
        let scalars = Array(text.unicodeScalars)
        for index in scalars.indices {
            if let reason = refusal(scalars, at: index) { throw .invalid(reason) }
        }
    }

    /// `text` without the characters ``validate(_:)`` refuses: how a page shows a name stored before the rule (or
    /// written by another tool), so that it reads as the visible text it holds.
    public static func shown(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.indices.contains(where: { refusal(scalars, at: $0) != nil }) else { return text }
        var kept = String.UnicodeScalarView()
        for index in scalars.indices where refusal(scalars, at: index) == nil { kept.append(scalars[index]) }
        return String(kept)
    }

    /// Why the scalar at `index` may not stand there, or `nil` when it may.
    private static func refusal(_ scalars: [Unicode.Scalar], at index: Int) -> String? {
        let scalar = scalars[index]
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate:
            return "must not contain control characters or line separators (found \(codePoint(scalar)))"
        case .format:
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if isKeptJoiner(scalar, between: previous, and: next) || isFlagTag(scalar, after: previous) { return nil }
            return "must not contain invisible formatting characters such as bidirectional controls or zero-width"
                + " spaces (found \(codePoint(scalar)))"
        default: return nil
        }
    }

    /// U+200C or U+200D between two visible non-ASCII characters (``isJoinable(_:)``).
    private static func isKeptJoiner(
        _ scalar: Unicode.Scalar, between previous: Unicode.Scalar?, and next: Unicode.Scalar?
    )
        -> Bool
    {
        guard scalar.value == 0x200C || scalar.value == 0x200D, let previous, let next else { return false }
        return isJoinable(previous) && isJoinable(next)
    }

    /// A visible non-ASCII letter, mark (U+FE0F, the emoji variation selector, among them) or symbol (emoji, the
    /// skin-tone modifiers).
    private static func isJoinable(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value > 0x7F else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark, .otherSymbol, .modifierSymbol:
            return true
        default: return false
        }
    }

    /// A tag character (U+E0020–U+E007F) right after the black flag U+1F3F4 or another tag character.
    private static func isFlagTag(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?) -> Bool {
        guard (0xE0020...0xE007F).contains(scalar.value), let previous else { return false }
        return previous.value == 0x1F3F4 || (0xE0020...0xE007E).contains(previous.value)
    }

    /// `U+202E`: a code point as the error names it.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
