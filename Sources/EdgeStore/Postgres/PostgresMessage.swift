/// libpq's messages as one clean log line.
///
/// libpq writes a message over several lines: a hint after a tab on a line of its own (`Connection refused` then
/// `\tIs the server running on that host…?`), a sentence wrapped with a tab (`This probably means the server
/// terminated abnormally` then `\tbefore or while processing the request.`), and two spaces after a severity
/// (`FATAL:  terminating connection…`). A log line, an API error and a CLI error each hold it as one line: the
/// lines trimmed, runs of spaces and tabs made one space, and a line that starts a new sentence (a capital after
/// a line that ended without punctuation) after a full stop.
///
///     PostgresMessage.oneLine("failed: Connection refused\n\tIs the server running?\n")
///     // "failed: Connection refused. Is the server running?"
enum PostgresMessage {
    static func oneLine(_ text: String) -> String {
        var result = ""
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = collapsingSpaces(rawLine)
            guard let first = line.first else { continue }
            if let last = result.last {
                let endsClause = [".", ":", ";", "?", "!", ","].contains(last)
                result += !endsClause && first.isUppercase ? ". " : " "
            }
            result += line
        }
        return result
    }

    /// `line` without spaces or tabs at its ends, and with each run of them inside as one space.
    private static func collapsingSpaces(_ line: Substring) -> String {
        var collapsed = ""
        var pendingSpace = false
        for character in line {
            if character == " " || character == "\t" {
                pendingSpace = !collapsed.isEmpty
                continue
            }
            if pendingSpace { collapsed.append(" ") }
            pendingSpace = false
            collapsed.append(character)
        }
        return collapsed
    }
}
