/// A configuration value that breaks a rule; the importer prefixes the field's path.
public struct ConfigValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `must be 1–64 bytes`.
    public var reason: String

    public static func invalid(_ reason: String) -> ConfigValidationError { ConfigValidationError(reason: reason) }

    public var description: String { reason }
}

/// The rules for public and secret keys.
public enum KeyRules {
    /// The longest key accepted, in bytes.
    public static let maximumLength = 128
}

/// The rules for partner codes.
public enum CodeRules {
    /// The longest code accepted, in bytes.
    public static let maximumLength = 64

    /// Validates a code: 1–64 bytes of UTF-8 without ASCII whitespace (a new code without any:
    /// ``refuseWhitespace(_:)``), control characters or `/ ? # %`, which could not travel in a link's path segment as they are, and without the invisible characters a display text
    /// may not hold (``DisplayTextRules``): a code is read, typed and shown, so `SAM\u{200B}20` or a code reversed
    /// by a bidirectional override would look like another code than it is.
    public static func validate(_ code: String) throws(ConfigValidationError) {
        let bytes = Array(code.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else {
            throw .invalid("must be 1–\(maximumLength) bytes")
        }
        guard
            !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == 0x2F || $0 == 0x3F || $0 == 0x23 || $0 == 0x25 })
        else { throw .invalid("must not contain spaces, control characters or / ? # %") }
        try DisplayTextRules.validate(code)
    }

    /// Refuses the codes `.` and `..`, which a link can never carry: browsers and messengers remove dot segments from
    /// a URL's path (RFC 3986 §5.2.4, and the WHATWG URL standard, which counts `%2e` as a dot too), so
    /// `https://<host>/a/<key>/..` opens `https://<host>/a/`, and a web template with `{code}` in its path opens
    /// another path of the app's site. The error names the code.
    ///
    /// Checked when a code is created (an import, the dashboard), not by ``validate(_:)``: a code stored before this
    /// rule (or by another tool) still loads, is still served to a client that sends it as it is, and imports again
    /// unchanged (an export, the dashboard's deactivate and reactivate).
    public static func refuseDotSegment(_ code: String) throws(ConfigValidationError) {
        guard isDotSegment(code) else { return }
        throw .invalid(
            "\(code) is a dot segment, which browsers and messengers remove from a link's path (/a/<public_key>/\(code)"
                + " opens another page): its link could never be opened; choose another code")
    }

    /// Refuses a code holding whitespace of any kind (Unicode's `White_Space`): a no-break, ideographic or other space
    /// that ``validate(_:)``'s byte check lets through (`JP21` and U+3000 from a spreadsheet cell). Claims and links
    /// drop whitespace pasted around a code, so a claim could never reach a code ending in one, and nobody can see or
    /// type one inside a code. The error names the code points.
    ///
    /// Checked when a code is created, as ``refuseDotSegment(_:)`` is: a code stored before this rule still loads, is
    /// still served as it is written, and imports again unchanged.
    public static func refuseWhitespace(_ code: String) throws(ConfigValidationError) {
        let spaces = code.unicodeScalars.filter(\.properties.isWhitespace)
        guard let first = spaces.first else { return }
        throw .invalid(
            "must not contain spaces: it holds \(DisplayTextRules.codePoint(first)), a space claims and links drop"
                + " around a code and nobody sees in one")
    }

    /// Whether `code` holds whitespace of any kind (``refuseWhitespace(_:)``).
    public static func containsWhitespace(_ code: String) -> Bool {
        code.unicodeScalars.contains(where: \.properties.isWhitespace)
    }

    /// Refuses a code holding a character drawn as nothing: any default-ignorable code point (Unicode's
    /// `Default_Ignorable_Code_Point`: the variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF, U+034F COMBINING
    /// GRAPHEME JOINER, the zero-width joiner and non-joiner, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0,
    /// the soft hyphen, the tag characters, …) or U+2800 BRAILLE PATTERN BLANK, a symbol whose glyph is empty.
    /// ``validate(_:)`` refuses only the format characters (`Cf`) among them, so `SAM20` and U+FE0F, `SAM` and U+034F
    /// and `20`, or `É`, U+200D and `É` passed: each is a separate code, with its own link and claims, that looks
    /// exactly like `SAM20` or `ÉÉ`, so a partner could hold what reads as another partner's code. The error names
    /// the code point.
    ///
    /// Kept, where they change what is drawn and a keyboard types them:
    /// - U+200C and U+200D between two letters or marks of one Arabic-script or Indic block
    ///   (``isSpellingJoiner(_:between:and:)``), part of how words are written (the Persian `می‌خواهم`, the Devanagari
    ///   `क्‍ष`), typed by Persian and InScript keyboards;
    /// - U+FE0F right after an emoji drawn as text without it (`❤️`, `☀️`: a phone's emoji keyboard types it), and
    ///   U+200D between the emoji of a sequence (`👩‍💻`, `❤️‍🔥`) (``isEmojiPart(_:between:and:)``). A code with and one
    ///   without them are named lookalikes (``CodeLookalikes``), so another partner cannot take the other spelling.
    /// Refused still: U+FE0F after an ASCII character (`SAM2`, U+FE0F, `0`; so keycaps such as `1️⃣`) or after an emoji
    /// drawn as emoji anyway (`🚀`, U+FE0F), and the tag characters of a subdivision flag.
    ///
    /// Checked when a code is created, as ``refuseWhitespace(_:)`` is: a code stored before this rule still loads, is
    /// still served as it is written, and imports again unchanged.
    public static func refuseInvisible(_ code: String) throws(ConfigValidationError) {
        guard let found = invisibleCharacter(in: code) else { return }
        throw .invalid(
            "must not contain invisible characters: it holds \(DisplayTextRules.codePoint(found)), which is drawn as"
                + " nothing, so the code would look like another code without it")
    }

    /// Whether `code` holds a character ``refuseInvisible(_:)`` refuses.
    public static func containsInvisible(_ code: String) -> Bool { invisibleCharacter(in: code) != nil }

    /// The first character of `code` that ``refuseInvisible(_:)`` refuses, or `nil`.
    static func invisibleCharacter(in code: String) -> Unicode.Scalar? {
        let scalars = Array(code.unicodeScalars)
        for index in scalars.indices where isInvisible(scalars[index]) {
            guard index > 0 else { return scalars[index] }
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if isEmojiPart(scalars[index], between: scalars[index - 1], and: next) { continue }
            guard let next, isSpellingJoiner(scalars[index], between: scalars[index - 1], and: next) else {
                return scalars[index]
            }
        }
        return nil
    }

    /// U+FE0F right after a non-ASCII emoji drawn as text without it (not `Emoji_Presentation`: `❤`, `☀`), or U+200D
    /// after an emoji (or such a U+FE0F) and before another emoji: what ``refuseInvisible(_:)`` keeps in emoji.
    static func isEmojiPart(_ scalar: Unicode.Scalar, between previous: Unicode.Scalar, and next: Unicode.Scalar?)
        -> Bool
    {
        func isEmoji(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x7F && scalar.properties.isEmoji }
        switch scalar.value {
        case 0xFE0F: return isEmoji(previous) && !previous.properties.isEmojiPresentation
        case 0x200D:
            guard let next, isEmoji(next) else { return false }
            return isEmoji(previous) || previous.value == 0xFE0F
        default: return false
        }
    }

    /// A default-ignorable code point or U+2800 BRAILLE PATTERN BLANK: what ``refuseInvisible(_:)`` refuses, and what
    /// ``CodeLookalikes`` reads past (a kept joiner too).
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || scalar.value == 0x2800
    }

    /// U+200C or U+200D between two letters or marks of one block of a script that spells with them: Arabic
    /// (U+0600–U+06FF, U+0750–U+077F, U+0870–U+08FF: Arabic, Persian, Urdu), where the non-joiner keeps a letter from
    /// joining the next (`می‌خواهم`), and each Indic block from Devanagari to Sinhala (U+0900–U+0DFF), where the
    /// joiners choose a half form or a conjunct after a virama.
    static func isSpellingJoiner(_ scalar: Unicode.Scalar, between previous: Unicode.Scalar, and next: Unicode.Scalar)
        -> Bool
    {
        guard scalar.value == 0x200C || scalar.value == 0x200D, let script = spellingScript(previous) else {
            return false
        }
        return spellingScript(next) == script && isLetterOrMark(previous) && isLetterOrMark(next)
    }

    /// The block ``isSpellingJoiner(_:between:and:)`` keeps joiners in, by its first code point, or `nil`.
    private static func spellingScript(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x08FF: return 0x0600
        case 0x0900...0x0DFF: return scalar.value & ~0x7F
        default: return nil
        }
    }

    private static func isLetterOrMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark:
            return true
        default: return false
        }
    }

    /// `code` without the characters ``isInvisible(_:)`` names: what a person reads, for ``CodeLookalikes``.
    static func visible(_ code: String) -> String {
        guard code.unicodeScalars.contains(where: isInvisible) else { return code }
        var kept = String.UnicodeScalarView()
        for scalar in code.unicodeScalars where !isInvisible(scalar) { kept.append(scalar) }
        return String(kept)
    }

    /// Whether `code` is `.` or `..`, by its bytes.
    public static func isDotSegment(_ code: String) -> Bool {
        code.utf8.elementsEqual(".".utf8) || code.utf8.elementsEqual("..".utf8)
    }
}
