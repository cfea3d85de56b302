/// Input as an error or a warning quotes it (an import file's unknown member, a template's placeholder): its first
/// ``maximumScalars`` Unicode scalars and "…" past them, as the API names an unknown query parameter, with each
/// control character written as `\u001B`. An unknown member of 1 MB was echoed whole by `tolt-edge import` (1 MB of
/// standard error), and one holding ESC, CR and LF reached the terminal as those bytes: colours, a line written over,
/// a line of output that was never the importer's.
public enum QuotedText {
    /// The most Unicode scalars quoted: scalars, not characters, since one letter with 5,000 combining accents is one
    /// character.
    public static let maximumScalars = 100

    /// `text` as a message quotes it: cut after ``maximumScalars`` scalars (with "…"), control characters escaped.
    public static func shown(_ text: String) -> String {
        var shown = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            guard index < maximumScalars else { return shown + "…" }
            append(scalar, to: &shown)
        }
        return shown
    }

    /// `text` whole, with each control character written as `\u001B`: for a whole message bound for a terminal,
    /// whatever it quotes.
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars { append(scalar, to: &escaped) }
        return escaped
    }

    /// Whether `scalar` is a control character (Unicode's `Cc`): C0, DEL or C1. ESC and the C1 CSI (U+009B) start
    /// terminal sequences; CR and LF move the cursor.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Appends `scalar`, or `\u` and its four hex digits for a control character.
    private static func append(_ scalar: Unicode.Scalar, to text: inout String) {
        guard isControl(scalar) else { return text.unicodeScalars.append(scalar) }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
