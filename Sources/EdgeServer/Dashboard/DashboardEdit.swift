/// What a post of a dashboard edit form changes, measured against the values the form was loaded with, so that two
/// people editing one object never silently undo each other's changes (a lost update).
///
/// A browser posts every field of a form, the ones its user never touched included. Taken as they come, the fields
/// of a page opened before someone else's save would write that page's old values over the new ones, and both saves
/// would answer "Saved". So an edit form carries, for each field, the value it showed, in a hidden field of its own
/// (``hiddenFields(_:names:)``: `loaded_<name>`), and a post is read field by field against it and the stored value:
/// - posted as loaded: not this person's change; the field keeps whatever is stored now, someone else's change
///   included;
/// - changed, and the stored value is still the loaded one (or already the posted one): the person's change, written;
/// - changed, and the stored value moved since the page was loaded to a third value: both changed it, and neither may
///   win silently. It is a conflict (``conflicts``): the save is refused with `409` and the form shown again with the
///   person's values, the value stored now named beside the field, and that value as the field's new `loaded_`
///   value (``reloaded(from:stored:)``), so that saving again replaces it knowingly.
///
/// A field posted without its `loaded_` value (a script's post, a page of an older build) is taken as a change, as an
/// import takes what it carries. Values are compared with the spaces around them trimmed, as they are saved.
struct DashboardEdit {
    /// The posted value of each field the post changes.
    private(set) var changed: [String: String] = [:]
    /// The value stored now of each field both this post and someone else changed since the page was loaded.
    private(set) var conflicts: [String: String] = [:]

    /// Reads `posted` (every field of `names` a post carries, as it would be saved) against the `loaded_` values in
    /// `form` (the post's fields) and `stored` (the values now, as the form shows them).
    init(posted: [String: String], form: [String: String], stored: [String: String], names: [String]) {
        func same(_ one: String?, _ other: String?) -> Bool {
            (one ?? "").trimmingSpaces == (other ?? "").trimmingSpaces
        }
        for name in names {
            guard let value = posted[name] else { continue }
            guard let loaded = form[Self.loadedName(name)] else {
                changed[name] = value
                continue
            }
            if same(value, loaded) { continue }
            if same(stored[name], loaded) || same(stored[name], value) {
                changed[name] = value
            } else {
                conflicts[name] = stored[name] ?? ""
            }
        }
    }

    /// The hidden field that carries what the form showed for `name`.
    static func loadedName(_ name: String) -> String { "loaded_" + name }

    /// The hidden `loaded_` fields of a form showing `values`, one for each of `names`.
    static func hiddenFields(_ values: [String: String], names: [String]) -> String {
        names.map {
            #"<input type="hidden" name="\#(loadedName($0))" value="\#(HTML.escape(values[$0] ?? ""))">"#
        }.joined()
    }

    /// The values a form shown again after a refused post carries as loaded: those the post carried (the page's
    /// basis does not change because a save was refused), and for a field the post had none for, the stored one.
    static func loadedValues(in form: [String: String], stored: [String: String]) -> [String: String] {
        stored.reduce(into: [:]) { values, field in values[field.key] = form[loadedName(field.key)] ?? field.value }
    }

    /// ``loadedValues(in:stored:)``, with the value stored now for each conflicting field: the form shown again
    /// names it, and saving that form again replaces it.
    func reloaded(from form: [String: String], stored: [String: String]) -> [String: String] {
        Self.loadedValues(in: form, stored: stored).merging(conflicts) { _, now in now }
    }

    /// What the form says beside a conflicting field: `shown` is the value stored now, as the reader knows it.
    static func conflictReason(_ shown: String) -> String {
        let now = shown.isEmpty ? "cleared it" : "changed it to “\(shown)”"
        return "someone else \(now) since you opened this page. Save again to replace it with your value, or reload"
            + " the page to keep theirs."
    }

    /// What the form says above the fields of a post refused for its conflicts.
    static func conflictSummary(count: Int) -> String {
        let fields = count == 1 ? "a field" : "\(count) fields"
        return "Someone else saved this form after you opened it, and changed \(fields) you changed too: nothing was"
            + " saved. Each is marked below with its value now."
    }
}
