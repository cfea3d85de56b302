import EdgeStore
import LinkCore

/// Form controls and the import documents the dashboard's forms become.
///
/// Every form saves by building a `tolt-edge import` document for the one object it changes and passing it through
/// ``ConfigImporter``: the same parsing, merge and validation as an import, and the same way to the link path
/// (the revision moves; ``ConfigWatcher`` rebuilds the link table).
enum DashboardForm {
    /// A labelled text input; `error` is shown beside it and tied to it with `aria-describedby`.
    static func input(
        _ name: String, label: String, value: String?, error: String? = nil, hint: String? = nil,
        type: String = "text", attributes: String = ""
    ) -> String {
        let id = "field-" + name
        var describedBy: [String] = []
        var out = #"<div class="field"><label for="\#(id)">\#(HTML.escape(label))</label>"#
        if let hint {
            describedBy.append(id + "-hint")
            out += #"<p class="hint" id="\#(id)-hint">\#(HTML.escape(hint))</p>"#
        }
        if let error {
            describedBy.append(id + "-error")
            out += #"<p class="error" id="\#(id)-error">\#(HTML.escape(error))</p>"#
        }
        out +=
            #"<input id="\#(id)" name="\#(name)" type="\#(type)" value="\#(HTML.escape(value ?? ""))""#
            + (error == nil ? "" : #" aria-invalid="true""#)
            + (describedBy.isEmpty ? "" : #" aria-describedby="\#(describedBy.joined(separator: " "))""#)
            + attributes + "></div>"
        return out
    }

    /// A form problem (``DashboardFormBody/Problem``) as one sentence: `name: contains characters …`.
    static func message(_ problem: DashboardFormBody.Problem) -> String {
        problem.field.map { "\($0): \(problem.reason)" } ?? problem.reason
    }

    /// The message for the first field of a posted `form` that is none of the form's `fields`, their `loaded_`
    /// values (``DashboardEdit``) or the CSRF token; `nil` when there is none. The import refuses a field it does not
    /// know, and so do the forms: a misspelt field a script posts (`brand_colour`) would otherwise be dropped and the
    /// save reported done.
    static func unknownField(in form: [String: String], fields: [String]) -> String? {
        let known = Set(fields + fields.map(DashboardEdit.loadedName) + ["csrf_token"])
        guard let unknown = form.keys.filter({ !known.contains($0) }).min() else { return nil }
        let shown = unknown.isEmpty ? "a field without a name" : String(unknown.prefix(64))
        return "This form has no field \(shown); nothing was saved. It takes " + fields.joined(separator: ", ") + "."
    }

    /// The hidden CSRF field every form carries.
    static func csrf(_ token: String) -> String {
        #"<input type="hidden" name="csrf_token" value="\#(HTML.escape(token))">"#
    }

    /// A JSON string, or `null` for an empty field.
    static func stringOrNull(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "null" }
        var json = JSONWriter()
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// A JSON number when `text` is a plain decimal (digits, at most one `.`), else a JSON string, so that the
    /// importer refuses it with its own message; `null` when empty.
    static func numberOrText(_ text: String?, allowFraction: Bool = false) -> String {
        guard let text = text?.trimmingSpaces, !text.isEmpty else { return "null" }
        let bytes = Array(text.utf8)
        let dots = bytes.filter { $0 == 0x2E }.count
        let plain =
            bytes.count <= 12 && bytes.first != 0x2E && bytes.last != 0x2E
            && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E } && dots <= (allowFraction ? 1 : 0)
            && !(bytes.count > 1 && bytes[0] == 0x30 && bytes[1] != 0x2E)
        return plain ? text : stringOrNull(text)
    }

    /// Imports `json` (an import document) into the store; returns the importer's error message (its control
    /// characters written as `\u001B`, as the command line prints it: ``QuotedText``), or `nil` when it was saved.
    static func save(_ json: String, into store: any Store, check: (ConfigRecords) throws -> Void = { _ in }) throws
        -> String?
    {
        do {
            try ConfigImporter.importDocument(try ConfigDocument(json: Array(json.utf8)), into: store, check: check)
            return nil
        } catch let error as StoreError where error.isInvalidConfig {
            return QuotedText.escapingControls(error.message)
        }
    }

    /// Checks `json` (an import document) against `records` as an import would, writing nothing; returns the
    /// importer's error message, or `nil` when it would be saved.
    static func check(_ json: String, against records: ConfigRecords) throws -> String? {
        do {
            try ConfigImporter.validate(try ConfigDocument(json: Array(json.utf8)), against: records)
            return nil
        } catch let error as StoreError where error.isInvalidConfig {
            return QuotedText.escapingControls(error.message)
        }
    }

    /// The form field an importer's message is about, among `fields` (name and path below `prefix`), and what to
    /// show: the reason beside that field, or the whole message above the form when it names none of them.
    static func fieldError(
        _ message: String, below prefix: String, fields: [(name: String, path: String)]
    ) -> (field: String?, reason: String) {
        let (path, reason) = fieldError(message, below: prefix)
        guard let field = fields.first(where: { $0.path == path })?.name else { return (nil, message) }
        return (field, reason)
    }

    /// Splits an importer's message (`organizations[0].programs[0].app_links.deep_link_template: must …`) into the
    /// field path below `prefix` and the reason.
    static func fieldError(_ message: String, below prefix: String) -> (path: String, reason: String) {
        guard message.hasPrefix(prefix), let colon = message.firstRange(of: ": ") else { return ("", message) }
        let path = message[message.index(message.startIndex, offsetBy: prefix.count)..<colon.lowerBound]
        return (String(path), String(message[colon.upperBound...]))
    }
}
