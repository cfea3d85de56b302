import LinkCore

/// Drops the line breaks and indentation of a page's source once, at start-up, before its words go in and it is
/// compiled: the files stay readable (one tag, rule or statement a line, indented), while every answer carries
/// only the bytes a browser needs. A page's bytes are what a link answer costs (the desktop fallback page is 2.5-4
/// KB), so the 10% or so that layout took was paid on every tap.
///
/// A line break, with the spaces and tabs around it and any blank lines after it, is
/// - dropped between two tags (a `>` and a `<`; a section's `{{#field}}`, `{{^field}}` or `{{/field}}` counts as a
///   tag): the templates put no inline elements that need a space between them on separate lines;
/// - inside `<style>` and `<script>`, dropped after `>`, `;`, `{`, `}` or `,` and before `}`;
/// - else one space (text, an attribute list that goes on, a `{{field}}`'s value next to a tag).
///
/// So the templates' scripts end every statement with `;` (a break that became a space must not end a statement)
/// and hold no `//` comment (it would run on to the end of the script). A quoted attribute value is copied as it is
/// (its line breaks are content: a `title`'s tooltip shows them). `<pre>` and `<textarea>`, whose whitespace is
/// content, are refused. Tag names are matched without regard to case, as HTML reads them.
enum MarkupWhitespace {
    static func compact(_ source: String) throws -> String {
        let bytes = Array(source.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        /// The `</style` or `</script` that ends the raw text being copied, if inside one.
        var rawTextEnd: [UInt8]?
        /// Inside a start tag (its attributes), outside raw text.
        var inTag = false
        /// The quote that opened the attribute value being copied as it is.
        var quote: UInt8?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
                out.append(byte)
                index += 1
                continue
            }
            if inTag {
                if byte == doubleQuote || byte == singleQuote {
                    quote = byte
                } else if byte == closeAngle {
                    inTag = false
                }
            }
            if byte == newline || (isBlank(byte) && isLineEnd(bytes, from: index)) {
                while let last = out.last, isBlank(last) { out.removeLast() }
                index = skipBlank(bytes, from: index)
                guard let previous = out.last, index < bytes.count else { continue }
                let next = bytes[index]
                let dropped =
                    rawTextEnd == nil
                    ? endsWithTag(out) && startsWithTag(bytes, at: index)
                    : codeJoins.contains(previous) || next == closeBrace
                if !dropped { out.append(space) }
                continue
            }
            if byte == openAngle {
                if let end = rawTextEnd {
                    if isTag(end, in: bytes, at: index) { rawTextEnd = nil }
                } else {
                    if isTag(Array("<style".utf8), in: bytes, at: index) {
                        rawTextEnd = Array("</style".utf8)
                    } else if isTag(Array("<script".utf8), in: bytes, at: index) {
                        rawTextEnd = Array("</script".utf8)
                    } else if isTag(Array("<pre".utf8), in: bytes, at: index)
                        || isTag(Array("<textarea".utf8), in: bytes, at: index)
                    {
                        throw TemplateError(
                            reason: "<pre> and <textarea> keep their whitespace: not in a page template")
                    }
                    inTag = index + 1 < bytes.count && isLetter(bytes[index + 1])
                }
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let newline: UInt8 = 0x0A
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
    private static let carriageReturn: UInt8 = 0x0D
    private static let openAngle: UInt8 = 0x3C
    private static let closeAngle: UInt8 = 0x3E
    private static let slash: UInt8 = 0x2F
    private static let doubleQuote: UInt8 = 0x22
    private static let singleQuote: UInt8 = 0x27
    private static let openBrace: UInt8 = 0x7B
    private static let closeBrace: UInt8 = 0x7D
    /// What follows `{{` in a section's tag: `#`, `^`, `/`.
    private static let sectionMarkers: Set<UInt8> = [0x23, 0x5E, 0x2F]
    /// After these, a line break in a style sheet or a script is dropped: `>` `;` `{` `}` `,`.
    private static let codeJoins: Set<UInt8> = [0x3E, 0x3B, 0x7B, 0x7D, 0x2C]

    /// Whether `out` ends with a tag's `>` or a section's `{{#…}}`, `{{^…}}` or `{{/…}}`.
    private static func endsWithTag(_ out: [UInt8]) -> Bool {
        if out.last == closeAngle { return true }
        guard out.count >= 4, out[out.count - 1] == closeBrace, out[out.count - 2] == closeBrace else { return false }
        var index = out.count - 3
        while index > 0, !(out[index - 1] == openBrace && out[index] == openBrace) { index -= 1 }
        return index > 0 && index + 1 < out.count && sectionMarkers.contains(out[index + 1])
    }

    /// Whether a tag's `<` or a section's `{{#`, `{{^` or `{{/` starts at `index`.
    private static func startsWithTag(_ bytes: [UInt8], at index: Int) -> Bool {
        if bytes[index] == openAngle { return true }
        return index + 2 < bytes.count && bytes[index] == openBrace && bytes[index + 1] == openBrace
            && sectionMarkers.contains(bytes[index + 2])
    }

    /// A space, a tab, or the carriage return of a CRLF line end.
    private static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == carriageReturn }

    /// Whether only blanks stand between `index` and the line's end.
    private static func isLineEnd(_ bytes: [UInt8], from index: Int) -> Bool {
        var index = index
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        return index == bytes.count || bytes[index] == newline
    }

    /// The index of the first byte after `index` that is neither blank nor a line break.
    private static func skipBlank(_ bytes: [UInt8], from index: Int) -> Int {
        var index = index
        while index < bytes.count, bytes[index] == newline || isBlank(bytes[index]) { index += 1 }
        return index
    }

    /// Whether the tag `name` (`<style`, `</script`: lower case) starts at `index`, in any case, and its name ends
    /// there (`<pre>`, `<pre class=…>`, not `<prefix-box>`).
    private static func isTag(_ name: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + name.count <= bytes.count,
            bytes[index..<index + name.count].elementsEqual(name, by: { ASCII.lowercased($0) == $1 })
        else { return false }
        let after = index + name.count
        return after == bytes.count || bytes[after] == closeAngle || bytes[after] == slash || bytes[after] == newline
            || isBlank(bytes[after])
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
}
