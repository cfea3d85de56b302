import LinkCore

/// The words of the pages in one language, read from its embedded `Words/words-<tag>.txt`, and put into the
/// templates at start-up: each `[[key]]` in a page's markup becomes the language's text for `key`, HTML-escaped,
/// and `[[lang]]` the language's tag. A text may hold `{{field}}` values (`{{partner_name}} shared…`), so each
/// language orders them as its grammar wants; ``PageTemplate`` then compiles the result once per language, and no
/// word is looked up per request.
///
/// The file holds `key = text` lines; blank lines and lines starting with `#` are skipped.
struct PageWords: Sendable {
    let language: PageLanguage
    private let texts: [String: String]

    init(_ language: PageLanguage, source: String) throws {
        self.language = language
        var texts: [String: String] = [:]
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw TemplateError(reason: "words-\(language.tag).txt:\(number + 1): expected key = text")
            }
            let key = String(trimmed[..<equals].filter { $0 != " " })
            let text = String(trimmed[trimmed.index(after: equals)...].drop { $0 == " " })
            guard !key.isEmpty, !text.isEmpty, texts.updateValue(text, forKey: key) == nil else {
                throw TemplateError(reason: "words-\(language.tag).txt:\(number + 1): an empty or repeated key")
            }
        }
        self.texts = texts
    }

    /// Every language's words, checked to hold exactly the keys of English so that no page misses a word.
    static func all() throws -> [PageWords] {
        let words = try PageLanguage.allCases.map { try PageWords($0, source: $0.wordsSource) }
        let keys = Set(words[PageLanguage.english.rawValue].texts.keys)
        for other in words where Set(other.texts.keys) != keys {
            let missing = keys.subtracting(other.texts.keys).sorted()
            let extra = Set(other.texts.keys).subtracting(keys).sorted()
            throw TemplateError(
                reason: "words-\(other.language.tag).txt: missing \(missing), not in English \(extra)")
        }
        return words
    }

    /// The text for `key`, as written in the file.
    func text(_ key: String) -> String? { key == "lang" ? language.tag : texts[key] }

    /// `source` with each `[[key]]` replaced by its text, HTML-escaped; an unknown key is an error.
    ///
    /// `[[key|isolated]]`, for a text in an element's content, also puts each `{{field}}` of the text in a `<bdi>`,
    /// so that a name in another script's direction (Hebrew, Arabic) is laid out on its own and does not pull the
    /// punctuation or words next to it into its direction. Attributes and `<title>` cannot hold markup: there the
    /// plain `[[key]]` is used, whose fields become `{{field|bidi}}`, isolated with Unicode's isolates instead when
    /// the value holds a right-to-left letter (``BidiIsolation``).
    func localize(_ source: String) throws -> String {
        let bytes = Array(source.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x5B, index + 1 < bytes.count, bytes[index + 1] == 0x5B,
                let close = Self.closing(bytes, from: index + 2)
            {
                var key = String(decoding: bytes[(index + 2)..<close.key], as: UTF8.self)
                let isolated = close.isolated
                if isolated { key.removeLast(Self.isolatedSuffix.count) }
                guard let text = text(key) else { throw TemplateError(reason: "no words for [[\(key)]]") }
                let escaped = HTMLEscaping.escape(text)
                out.append(
                    contentsOf: Self.replacingFields(in: escaped) { field in
                        isolated
                            ? Array("<bdi>{{".utf8) + field + Array("}}</bdi>".utf8)
                            : Array("{{".utf8) + field + Array((PageTemplate.isolatedSuffix + "}}").utf8)
                    })
                index = close.key + 2
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let isolatedSuffix = Array("|isolated".utf8)

    /// The index of the `]]` closing a key that starts at `start` (keys are lower-case letters and `_`), and whether
    /// the key ends with `|isolated`.
    private static func closing(_ bytes: [UInt8], from start: Int) -> (key: Int, isolated: Bool)? {
        var index = start
        while index + 1 < bytes.count, bytes[index] == 0x5F || (bytes[index] >= 0x61 && bytes[index] <= 0x7A) {
            index += 1
        }
        guard index > start else { return nil }
        var isolated = false
        if bytes[index...].starts(with: isolatedSuffix) {
            index += isolatedSuffix.count
            isolated = true
        }
        guard index + 1 < bytes.count, bytes[index] == 0x5D, bytes[index + 1] == 0x5D else { return nil }
        return (index, isolated)
    }

    /// `text` with each `{{field}}` as `replacement` makes it from the field's name.
    private static func replacingFields(in text: [UInt8], _ replacement: (ArraySlice<UInt8>) -> [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < text.count {
            if text[index...].starts(with: Array("{{".utf8)),
                let close = text[(index + 2)...].firstRange(of: Array("}}".utf8))
            {
                out.append(contentsOf: replacement(text[(index + 2)..<close.lowerBound]))
                index = close.upperBound
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return out
    }
}
