import LinkCore

/// A dashboard page's HTML template, compiled once at start-up: `{{name}}` shows a value HTML-escaped (as
/// ``PageTemplate`` escapes, with ``HTMLEscaping``), `{{{name}}}` writes markup the dashboard built itself, whose
/// text was escaped when it was built (``HTML``).
///
/// The link pages' ``PageTemplate`` renders into a request's fixed memory with a closed set of fields, for the link
/// path; dashboard pages are answered on workers, carry lists and forms, and take their values by name.
struct DashboardTemplate: Sendable {
    private enum Step: Sendable {
        case literal(String)
        case escaped(String)
        case markup(String)
    }

    private let steps: [Step]

    init(_ source: String) throws {
        var steps: [Step] = []
        var rest = Substring(source)
        while let open = rest.firstRange(of: "{{") {
            steps.append(.literal(String(rest[..<open.lowerBound])))
            let raw = rest[open.upperBound...].hasPrefix("{")
            let nameStart = raw ? rest.index(after: open.upperBound) : open.upperBound
            let closing = raw ? "}}}" : "}}"
            guard let close = rest[nameStart...].firstRange(of: closing) else {
                throw TemplateError(reason: "unclosed field")
            }
            let name = String(rest[nameStart..<close.lowerBound])
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 == 0x5F || ($0 >= 0x61 && $0 <= 0x7A) }) else {
                throw TemplateError(reason: "bad field name \(name)")
            }
            steps.append(raw ? .markup(name) : .escaped(name))
            rest = rest[close.upperBound...]
        }
        steps.append(.literal(String(rest)))
        self.steps = steps
    }

    /// The page with `values` filled in; a field without a value is left empty.
    func render(_ values: [String: String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16_384)
        for step in steps {
            switch step {
            case .literal(let text): out += text.utf8
            case .escaped(let name): out += HTMLEscaping.escape(values[name] ?? "")
            case .markup(let name): out += (values[name] ?? "").utf8
            }
        }
        return out
    }
}

/// Markup built in Swift for the dashboard's lists and forms: every piece of text goes through ``escape(_:)``.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` as entities (``HTMLEscaping``): safe in text and in quoted attributes.
    static func escape(_ text: String) -> String {
        String(decoding: HTMLEscaping.escape(text), as: UTF8.self)
    }

    /// Text that comes from outside the organization's own configuration (an app user id from the public claim, a
    /// product id from RevenueCat), escaped and shown without the characters a display text may not hold
    /// (``DisplayTextRules/shown(_:)``): a bidirectional override in it would otherwise reorder what it is shown in.
    static func escapeOutsideText(_ text: String) -> String {
        escape(DisplayTextRules.shown(text))
    }

    /// A path segment or query value percent-encoded, then escaped for an attribute.
    static func urlComponent(_ text: String) -> String {
        escape(PercentEncoding.encode(text))
    }

    /// Cents as dollars: `1234` → `$12.34`, `-50` → `-$0.50`.
    static func dollars(_ cents: Int64) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)$\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Milliseconds since 1970 as the organization's wall-clock time and its offset from UTC then,
    /// `2026-11-30 15:05 +01:00`, as the Overview counts days in the organization's zone; `2026-11-30 14:05 UTC` when
    /// its zone is not known here (`nil`: the Overview says so too).
    static func time(_ milliseconds: Int64, in zone: TimeZoneRules?) -> String {
        let offset = zone?.offset(at: milliseconds / 1000) ?? 0
        let (local, overflow) = milliseconds.addingReportingOverflow(offset * 1000)
        let text = Timestamp.format(overflow ? milliseconds : local)  // 2026-11-30T15:05:06.123Z
        let parts = text.split(separator: "T")
        guard parts.count == 2 else { return text }
        guard zone != nil, !overflow else { return "\(parts[0]) \(parts[1].prefix(5)) UTC" }
        let minutes = abs(offset) / 60
        func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let sign = offset < 0 ? "-" : "+"
        return "\(parts[0]) \(parts[1].prefix(5)) \(sign)\(twoDigits(minutes / 60)):\(twoDigits(minutes % 60))"
    }
}
