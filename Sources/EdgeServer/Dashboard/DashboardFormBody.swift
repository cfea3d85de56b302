import LinkCore

/// A dashboard form post, decoded strictly: only `application/x-www-form-urlencoded` (``acceptsContentType(_:)``),
/// every `%` followed by two hexadecimal digits, every name and value UTF-8 without control characters, no name
/// twice, at most ``maximumFields`` fields.
///
/// A browser never sends anything else, so a body that breaks a rule is refused whole (nothing is saved), with a
/// ``Problem`` that says what was wrong instead of the lenient reading's misleading one (`%ZZ` stored as text, or
/// invalid UTF-8 dropped and then reported as a missing field). ``fields`` is always safe to show again in the
/// re-shown form: an invalid byte sequence reads as U+FFFD, and so does every control character (never a raw NUL).
struct DashboardFormBody {
    /// What a refused body gets wrong: `field` is the name it concerns, when one can be named.
    struct Problem: Equatable {
        var field: String?
        var reason: String
    }

    /// The most fields one form may carry (the largest, the tracking form, has 29: 14 fields, the value each was
    /// loaded with, and the CSRF token).
    static let maximumFields = 32

    static let encodingReason =
        "The form was not encoded properly (a % must be followed by two hexadecimal digits, and text must be UTF-8);"
        + " nothing was saved. Reload the page and try again."
    static let notAllowedReason =
        "contains characters that are not allowed (control characters such as NUL or line breaks)"

    /// Every field by name, with what could not be read shown as U+FFFD.
    private(set) var fields: [String: String] = [:]
    /// The first rule the body breaks, or `nil` when it can be used.
    private(set) var problem: Problem?
    /// The names that came more than once (the first value is kept in ``fields``).
    private(set) var repeatedNames: Set<String> = []

    init(_ body: [UInt8]) {
        var count = 0
        for pair in body.split(separator: 0x26) {
            count += 1
            guard count <= Self.maximumFields else {
                note(
                    Problem(
                        field: nil, reason: "The form has more than \(Self.maximumFields) fields; nothing was saved."))
                break
            }
            let parts = pair.split(separator: 0x3D, maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = Self.decode(parts.count > 1 ? parts[1] : [])
            guard let nameText = name.text, !name.hasControl else {
                note(Problem(field: nil, reason: Self.encodingReason))
                continue
            }
            if fields[nameText] != nil {
                repeatedNames.insert(nameText)
                note(Problem(field: nameText, reason: "was sent more than once; nothing was saved"))
                continue
            }
            fields[nameText] = value.shown
            if value.text == nil {
                note(Problem(field: nil, reason: Self.encodingReason))
            } else if value.hasControl {
                note(Problem(field: nameText, reason: Self.notAllowedReason))
            }
        }
    }

    private mutating func note(_ found: Problem) {
        if problem == nil { problem = found }
    }

    /// One name or value: `text` when it decodes to valid UTF-8 (`nil` else), `shown` always, with U+FFFD for
    /// invalid bytes and control characters; `hasControl` when the text holds a control character (C0, DEL, C1).
    private static func decode(_ bytes: ArraySlice<UInt8>) -> (text: String?, shown: String, hasControl: Bool) {
        let (out, valid) = QueryString.percentDecoded(bytes)
        let decoded = String(validating: out, as: UTF8.self)
        let readable = decoded ?? String(decoding: out, as: UTF8.self)
        var hasControl = false
        var shown = String.UnicodeScalarView()
        for scalar in readable.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                hasControl = true
                shown.append("\u{FFFD}")
            } else {
                shown.append(scalar)
            }
        }
        return (valid ? decoded : nil, String(shown), hasControl)
    }

    /// Whether a `Content-Type` names a URL-encoded form: `application/x-www-form-urlencoded` (any case), with no
    /// parameter but an optional `charset=utf-8`: another charset would be read wrongly as UTF-8.
    static func acceptsContentType(_ header: String?) -> Bool {
        guard let header else { return false }
        let parts = header.split(separator: ";", omittingEmptySubsequences: false).map {
            String($0).trimmingSpaces.lowercased()
        }
        guard parts[0] == "application/x-www-form-urlencoded" else { return false }
        for parameter in parts.dropFirst() {
            let charset = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
            guard charset.count == 2, charset[0] == "charset",
                charset[1] == "utf-8" || charset[1] == "\"utf-8\"" || charset[1] == "utf8"
            else { return false }
        }
        return true
    }
}
