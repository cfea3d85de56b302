import EdgeStore
import LinkCore

/// `GET /dashboard/programs` and `GET`/`POST /dashboard/programs/<program_id>/tracking`: a program's app links,
/// claim window, commission rule and branding, saved through the importer (``DashboardForm``).
extension DashboardHandler {
    func programs(_ context: Context) throws -> APIResponse {
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        let programs = records.programs.filter { $0.organizationID == context.organization.id }
        var content =
            #"<div class="table-wrap" role="region" tabindex="0" aria-label="Programs"><table id="programs"><thead><tr><th scope="col">Program</th>"#
        content += #"<th scope="col">Deep-link template</th><th scope="col">Partners</th></tr></thead><tbody>"#
        for program in programs {
            let partners = records.partners.filter { $0.programID == program.id }.count
            content +=
                #"<tr><td><a href="/dashboard/programs/\#(HTML.urlComponent(program.id))/tracking">"#
                + "\(HTML.escape(program.name))</a></td><td><code>\(HTML.escape(program.deepLinkTemplate ?? "—"))"
                + "</code></td><td class=\"number\">\(partners)</td></tr>"
        }
        content += "</tbody></table></div>"
        if programs.isEmpty { content = "<p>No programs yet: add one with <code>tolt-edge import</code>.</p>" }
        return page(context, title: "Programs", current: "programs", content: content)
    }

    /// The form's fields, in the order they are shown, with their import paths below the program.
    private static let trackingFields: [(name: String, path: String)] = [
        ("deep_link_template", "app_links.deep_link_template"), ("google_play_url", "app_links.google_play_url"),
        ("app_store_url", "app_links.app_store_url"), ("claim_window_days", "claim_window_days"),
        ("commission_type", "commission"), ("commission_percent", "commission.percent"),
        ("commission_fixed_cents", "commission.fixed_cents"), ("commission_recurring", "commission.recurring"),
        ("commission_duration_months", "commission.duration_months"), ("app_name", "app_name"),
        ("app_icon_url", "app_icon_url"), ("brand_color", "brand_color"), ("og_image_url", "og_image_url"),
        ("og_description", "og_description"),
    ]

    /// The page, or a post of its form. `attempt` counts the times a post was planned again because the program
    /// changed between reading it and saving (``saveTracking(_:program:values:edit:current:)``).
    func tracking(_ context: Context, programID: String, attempt: Int = 0) throws -> APIResponse {
        // A post is checked against every organization's configuration, as the importer checks it (the host's
        // association files hold every organization's apps; keys are unique across organizations), and its save
        // reads it all again anyway; the page alone needs only the organization's.
        let records =
            try context.isPost
            ? api.reader.configRecords() : api.reader.configRecords(organizationID: context.organization.id)
        guard
            let program = records.programs.first(where: {
                $0.id == programID && $0.organizationID == context.organization.id
            })
        else {
            return page(
                context, status: 404, title: "Not found", current: "programs", content: "<p>No such program.</p>")
        }
        guard context.isPost else {
            let saved = context.request.query["saved"] != nil
            let values = Self.values(of: program)
            return trackingPage(context, program: program, values: values, loaded: values, saved: saved)
        }
        // A field the post leaves out keeps its value (a browser sends every field of this form; a script or an
        // older page may not), an empty one clears it; the checkbox is absent when unticked, so it follows the rule
        // the post carries. A rule the form does not offer is refused, and nothing is saved. Only the fields the
        // person changed since the page was loaded are written (``DashboardEdit``).
        let current = Self.values(of: program)
        let loaded = DashboardEdit.loadedValues(in: context.form, stored: current)
        if let problem = context.formProblem {
            var shown = current
            for field in Self.trackingFields { shown[field.name] = context.form[field.name] ?? shown[field.name] }
            // An unticked box is absent from the post: shown unticked, not as stored.
            if context.form["commission_type"] != nil {
                shown["commission_recurring"] = context.form["commission_recurring"] ?? ""
            }
            let field = Self.trackingFields.first { $0.name == problem.field }?.name
            return trackingPage(
                context, program: program, values: shown, loaded: loaded,
                errors: field.map { [$0: problem.reason] } ?? [:],
                formError: field == nil ? DashboardForm.message(problem) : nil, saved: false, status: 400)
        }
        var values: [String: String] = [:]
        for field in Self.trackingFields { values[field.name] = context.form[field.name] ?? current[field.name] ?? "" }
        if context.form["commission_type"] != nil {
            values["commission_recurring"] = context.form["commission_recurring"] ?? ""
        }
        if let unknown = DashboardForm.unknownField(in: context.form, fields: Self.trackingFields.map(\.name)) {
            return trackingPage(
                context, program: program, values: values, loaded: loaded, formError: unknown, saved: false,
                status: 400)
        }
        // A commission's amount or terms without its rule would be dropped silently (the stored rule decides).
        let commissionTerms = ["commission_percent", "commission_fixed_cents", "commission_duration_months"]
        if context.form["commission_type"] == nil, commissionTerms.contains(where: { context.form[$0] != nil }) {
            return trackingPage(
                context, program: program, values: current, loaded: loaded,
                formError: "A commission's amount or months need its rule (commission_type); nothing was saved.",
                saved: false, status: 400)
        }
        guard ["none", "percent", "fixed"].contains(values["commission_type"] ?? "") else {
            return trackingPage(
                context, program: program, values: current, loaded: loaded,
                formError: "That commission rule is not one this form offers; nothing was saved.", saved: false,
                status: 400)
        }
        // Every invalid field at once: the numbers in the form's words, then each other part of the program checked
        // by the importer on its own (it stops at the first invalid field of a document).
        var errors = Self.checkNumbers(&values)
        var formError: String?
        for part in Self.documentParts where !part.fields.contains(where: { errors[$0] != nil }) {
            let json = Self.trackingDocument(
                organizationID: context.organization.id, programID: program.id, values, only: [part.member])
            guard let message = try DashboardForm.check(json, against: records) else { continue }
            let (field, reason) = DashboardForm.fieldError(
                message, below: "organizations[0].programs[0].", fields: Self.trackingFields)
            if let field { errors[field] = reason } else { formError = formError ?? reason }
        }
        if !errors.isEmpty || formError != nil {
            return trackingPage(
                context, program: program, values: values, loaded: loaded, errors: errors, formError: formError,
                saved: false, status: 400)
        }
        let edit = DashboardEdit(
            posted: values, form: context.form, stored: current, names: Self.trackingFields.map(\.name))
        guard edit.conflicts.isEmpty else {
            let errors = edit.conflicts.reduce(into: [String: String]()) { shown, field in
                shown[field.key] = DashboardEdit.conflictReason(Self.shownValue(field.key, field.value))
            }
            return trackingPage(
                context, program: program, values: values, loaded: edit.reloaded(from: context.form, stored: current),
                errors: errors, formError: DashboardEdit.conflictSummary(count: errors.count), saved: false,
                status: 409)
        }
        do {
            return try saveTracking(context, program: program, values: values, edit: edit, current: current)
        } catch let error as StoreError where error.isConflict && attempt < 2 {
            // The program changed while this post was being saved: read it again, and tell the changes apart anew.
            return try tracking(context, programID: programID, attempt: attempt + 1)
        }
    }

    /// Saves the fields `edit` changed, and only those: the program's members they belong to, with the other fields of
    /// such a member (the commission's) as stored in `current`; a member nobody changed is left out of the document,
    /// so it keeps what is stored. Throws ``StoreError/conflict(_:)`` when a written member's stored value moved away
    /// from `current` before the import could write it (checked in the importer's loop, so no save in between is
    /// missed).
    private func saveTracking(
        _ context: Context, program: ProgramRecord, values: [String: String], edit: DashboardEdit,
        current: [String: String]
    ) throws -> APIResponse {
        let saved = Self.redirect(to: "/dashboard/programs/\(PercentEncoding.encode(program.id))/tracking?saved=1")
        let parts = Self.documentParts.filter { $0.fields.contains { edit.changed[$0] != nil } }
        guard !parts.isEmpty else { return saved }
        let merged = current.merging(edit.changed) { _, posted in posted }
        let written = parts.flatMap(\.fields)
        let json = Self.trackingDocument(
            organizationID: context.organization.id, programID: program.id, merged, only: Set(parts.map(\.member)))
        let check: (ConfigRecords) throws -> Void = { records in
            let now = records.programs.first { $0.id == program.id }.map(Self.values(of:)) ?? [:]
            if written.contains(where: { now[$0] != current[$0] }) {
                throw StoreError.conflict("the program changed while the tracking form was being saved")
            }
        }
        if let message = try DashboardForm.save(json, into: api.writer, check: check) {
            let (field, reason) = DashboardForm.fieldError(
                message, below: "organizations[0].programs[0].", fields: Self.trackingFields)
            return trackingPage(
                context, program: program, values: values,
                loaded: DashboardEdit.loadedValues(in: context.form, stored: current),
                errors: field.map { [$0: reason] } ?? [:], formError: field == nil ? reason : nil, saved: false,
                status: 400)
        }
        return saved
    }

    /// A stored value of the form as a reader knows it, for a conflict's message: the rule and the box by their
    /// labels.
    private static func shownValue(_ name: String, _ value: String) -> String {
        switch name {
        case "commission_type": return commissionRules.first { $0.value == value }?.label ?? value
        case "commission_recurring": return value == "on" ? "ticked" : "unticked"
        default: return value
        }
    }

    /// The commission rules the form offers, as its menu shows them.
    private static let commissionRules: [(value: String, label: String)] = [
        ("none", "No commission"), ("percent", "A percentage of revenue"), ("fixed", "A fixed amount"),
    ]

    /// The program's members in the import document, each with the form fields written from it (``trackingFields``
    /// by the first name of their path, an app link by its own): checked one by one so that every invalid field is
    /// found.
    private static let documentParts: [(member: String, fields: [String])] = trackingFields.reduce(into: []) {
        parts, field in
        let path = field.path.split(separator: ".")
        let member = String(path[path.first == "app_links" ? 1 : 0])
        if parts.last?.member == member {
            parts[parts.count - 1].fields.append(field.name)
        } else {
            parts.append((member, [field.name]))
        }
    }

    /// Checks the number fields against the importer's bounds and writes each as the importer reads it (`007` →
    /// `7`, `12.50` → `12.5`); returns every one out of bounds, with the reason in the form's words (the importer's
    /// speak of JSON: "must be an integer, not a string", "or null").
    static func checkNumbers(_ values: inout [String: String]) -> [String: String] {
        /// The field as a whole number in `range`, written back plainly; `false` when it is not one.
        func wholeNumber(_ name: String, in range: ClosedRange<Int>) -> Bool {
            let text = (values[name] ?? "").trimmingSpaces
            guard text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(text),
                range.contains(number)
            else { return false }
            values[name] = String(number)
            return true
        }
        func isEmpty(_ name: String) -> Bool { (values[name] ?? "").trimmingSpaces.isEmpty }
        var errors: [String: String] = [:]
        if !isEmpty("claim_window_days"), !wholeNumber("claim_window_days", in: 1...3650) {
            errors["claim_window_days"] = "must be a whole number of days from 1 to 3650, or empty for no limit"
        }
        // A checkbox sends "on" when ticked and nothing when not: any other value ("true", "1") is a script's guess,
        // refused rather than read as unticked.
        if let recurring = values["commission_recurring"], !recurring.isEmpty, recurring != "on" {
            errors["commission_recurring"] = "must be on (ticked) or left out (unticked)"
        }
        switch values["commission_type"] {
        case "percent":
            let text = (values["commission_percent"] ?? "").trimmingSpaces
            if text.isEmpty {
                errors["commission_percent"] = "is required for a percentage of revenue"
            } else if let basisPoints = Self.basisPoints(percent: text) {
                values["commission_percent"] = Self.percentText(basisPoints: basisPoints)
            } else {
                errors["commission_percent"] = "must be a number from 0.01 to 100, with at most two decimals"
            }
        case "fixed":
            if isEmpty("commission_fixed_cents") {
                errors["commission_fixed_cents"] = "is required for a fixed amount"
            } else if !wholeNumber("commission_fixed_cents", in: 1...CommissionRule.maximumFixedCents) {
                errors["commission_fixed_cents"] =
                    "must be a whole number of cents from 1 to \(CommissionRule.maximumFixedCents)"
            }
        default: return errors
        }
        if !isEmpty("commission_duration_months"),
            !wholeNumber("commission_duration_months", in: 1...CommissionRule.maximumDurationMonths)
        {
            errors["commission_duration_months"] =
                "must be a whole number of months from 1 to \(CommissionRule.maximumDurationMonths), or empty for no limit"
        }
        return errors
    }

    /// `12.5` → 1250: a percentage written with digits and at most two decimals, from 0.01 to 100; else `nil`.
    static func basisPoints(percent text: String) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard (1...3).contains(whole.utf8.count), fraction.utf8.count <= 2, parts.count == 1 || !fraction.isEmpty,
            (whole + fraction).utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let units = Int(whole)
        else { return nil }
        let hundredths = fraction.isEmpty ? 0 : (Int(fraction) ?? 0) * (fraction.utf8.count == 1 ? 10 : 1)
        let basisPoints = units * 100 + hundredths
        return (1...10_000).contains(basisPoints) ? basisPoints : nil
    }

    /// The import document that sets every field of the form on one program, or only its members `only` (names of
    /// ``documentParts``): the others are left out, so they keep their stored values.
    static func trackingDocument(
        organizationID: String, programID: String, _ values: [String: String], only: Set<String>? = nil
    ) -> String {
        func string(_ name: String) -> String { DashboardForm.stringOrNull(values[name]?.trimmingSpaces) }
        var commission = "null"
        let recurring = values["commission_recurring"] == "on" ? "true" : "false"
        let months = DashboardForm.numberOrText(values["commission_duration_months"])
        switch values["commission_type"] {
        case "percent":
            commission =
                #"{"percent":\#(DashboardForm.numberOrText(values["commission_percent"], allowFraction: true)),"#
                + #""recurring":\#(recurring),"duration_months":\#(months)}"#
        case "fixed":
            commission =
                #"{"fixed_cents":\#(DashboardForm.numberOrText(values["commission_fixed_cents"])),"#
                + #""recurring":\#(recurring),"duration_months":\#(months)}"#
        default: break
        }
        let links: [String] = ["deep_link_template", "google_play_url", "app_store_url"].filter {
            only?.contains($0) ?? true
        }
        var members = [
            ("claim_window_days", DashboardForm.numberOrText(values["claim_window_days"])),
            ("commission", commission),
        ]
        for name in ["app_name", "app_icon_url", "brand_color", "og_image_url", "og_description"] {
            members.append((name, string(name)))
        }
        var program = #""id":\#(DashboardForm.stringOrNull(programID))"#
        if !links.isEmpty {
            let fields = links.map { #""\#($0)":\#(string($0))"# }
            program += #","app_links":{"# + fields.joined(separator: ",") + "}"
        }
        for (name, value) in members where only?.contains(name) ?? true { program += #","\#(name)":\#(value)"# }
        return #"{"organizations":[{"id":\#(DashboardForm.stringOrNull(organizationID)),"programs":[{"#
            + program + "}]}]}"
    }

    /// The form's values for a stored program.
    static func values(of program: ProgramRecord) -> [String: String] {
        var values: [String: String] = [
            "deep_link_template": program.deepLinkTemplate ?? "", "google_play_url": program.googlePlayURL ?? "",
            "app_store_url": program.appStoreURL ?? "",
            "claim_window_days": program.claimWindowDays.map(String.init) ?? "", "app_name": program.appName ?? "",
            "app_icon_url": program.appIconURL ?? "", "brand_color": program.brandColor ?? "",
            "og_image_url": program.ogImageURL ?? "", "og_description": program.ogDescription ?? "",
            // Ticked while there is no rule: a rule the form creates is recurring unless unticked, as an import's
            // `recurring` defaults to true.
            "commission_type": "none", "commission_recurring": "on",
        ]
        if let rule = program.commission {
            switch rule.amount {
            case .percent(let basisPoints):
                values["commission_type"] = "percent"
                values["commission_percent"] = Self.percentText(basisPoints: basisPoints)
            case .fixedCents(let cents):
                values["commission_type"] = "fixed"
                values["commission_fixed_cents"] = String(cents)
            }
            values["commission_recurring"] = rule.recurring ? "on" : ""
            values["commission_duration_months"] = rule.durationMonths.map(String.init) ?? ""
        }
        return values
    }

    /// Basis points as the shortest exact decimal: 2000 is `20`, 1250 `12.5`, 1 `0.01` (as `tolt-edge export`).
    static func percentText(basisPoints: Int) -> String {
        let whole = basisPoints / 100
        let hundredths = basisPoints % 100
        if hundredths == 0 { return String(whole) }
        if hundredths % 10 == 0 { return "\(whole).\(hundredths / 10)" }
        return "\(whole).\(hundredths < 10 ? "0" : "")\(hundredths)"
    }

    /// The apps that open the program's links directly (``ProgramRecord/iosAppIDs``, ``ProgramRecord/androidApps``),
    /// shown, not edited: they are set by an import, and the form's save leaves them as they are.
    static func directApps(_ program: ProgramRecord) -> String {
        let setWith =
            "set with <code>tolt-edge import</code> (<code>app_links.ios_app_ids</code>, "
            + "<code>app_links.android_apps</code>); saving this form keeps them."
        guard !program.iosAppIDs.isEmpty || !program.androidApps.isEmpty else {
            return #"<p class="hint" id="direct-apps">No app opens these links directly where it is installed; "#
                + "apps that should are \(setWith)</p>"
        }
        var html =
            #"<div id="direct-apps"><p class="hint">Apps that open these links directly where they are installed "#
            + "(iOS universal links, Android App Links), \(setWith)</p><ul>"
        for id in program.iosAppIDs { html += "<li>iOS: <code>\(HTML.escape(id))</code></li>" }
        for app in program.androidApps {
            let count = app.fingerprints.count
            html +=
                "<li>Android: <code>\(HTML.escape(app.packageName))</code> (\(count) certificate fingerprint"
                + "\(count == 1 ? "" : "s"))</li>"
        }
        return html + "</ul></div>"
    }

    /// The form with `values`, carrying `loaded` as what it was loaded with (``DashboardEdit``); `errors` beside
    /// their fields, `formError` above the form.
    private func trackingPage(
        _ context: Context, program: ProgramRecord, values: [String: String], loaded: [String: String],
        errors: [String: String] = [:],
        formError: String? = nil, saved: Bool, status: Int = 200
    ) -> APIResponse {
        func errorFor(_ name: String) -> String? { errors[name] }
        func input(_ name: String, _ label: String, hint: String? = nil, type: String = "text", _ extra: String = "")
            -> String
        {
            DashboardForm.input(
                name, label: label, value: values[name], error: errorFor(name), hint: hint, type: type,
                attributes: extra)
        }
        var content = ""
        if saved {
            content +=
                #"<p class="notice" role="status" id="saved">Saved. Links use the change within a second or two.</p>"#
        }
        let template = program.deepLinkTemplate.flatMap { try? DeepLinkTemplate($0) }
        // A template stored before placeholders were checked (or by another tool) is served as it is: say so, as
        // `tolt-edge import` warns, since saving the form keeps it.
        if let template {
            do { try template.validateLiteralText() } catch {
                content +=
                    #"<p class="error" role="status" id="template-warning">The stored deep-link template "#
                    + HTML.escape(error.reason) + ", and links send it as it is: set a new one.</p>"
            }
        }
        // What the stored template gets wrong for phones without the app or for the SDK, as `tolt-edge import` warns
        // when it is set: said while it is stored, since the form saves without refusing it.
        if let advice = template?.advice, !advice.isEmpty {
            content += #"<div id="template-advice">"#
            for clause in advice {
                content += #"<p class="error" role="status">The deep-link template \#(HTML.escape(clause)).</p>"#
            }
            content += "</div>"
        }
        if let formError {
            content += #"<p class="error" role="alert" id="form-error">\#(HTML.escape(formError))</p>"#
        } else if !errors.isEmpty {
            let marked = errors.count == 1 ? "the field" : "the \(errors.count) fields"
            content +=
                #"<p class="error" role="alert" id="form-error">Nothing was saved: fix \#(marked) marked below.</p>"#
        }
        let action = "/dashboard/programs/\(HTML.urlComponent(program.id))/tracking"
        content += #"<form class="stack" method="post" action="\#(action)" novalidate>"#
        content += DashboardForm.csrf(context.csrfToken)
        content += "<h2>App links</h2>"
        content += input(
            "deep_link_template", "Deep-link template",
            hint: "Where every phone goes, e.g. https://acme.example/claim?tolt_code={code}&tolt_click={click_id}, a"
                + " universal link or App Link, which a phone without the app opens as that page. A scheme only the"
                + " app opens (myapp://claim?tolt_code={code}&tolt_click={click_id}) leaves a phone without the app on"
                + " an error: use one only for people who have the app. The Tolt SDK's claim(url:) reads tolt_code and"
                + " tolt_click from the query, so the template must name them; {code} and {click_id} are the only"
                + " placeholders (a desktop gets the code page unless it is an http(s):// link). Empty: none.")
        content += input("google_play_url", "Google Play URL", type: "url")
        content += input("app_store_url", "App Store URL", type: "url")
        content += Self.directApps(program)
        content += "<h2>Code claim window</h2>"
        content += input(
            "claim_window_days", "Claim window (days)", hint: "1 to 3650 days after the first open; empty: no limit.",
            type: "text", #" inputmode="numeric""#)
        content += "<h2>Commission</h2>"
        let type = values["commission_type"] ?? "none"
        content += #"<div class="field"><label for="field-commission_type">Commission rule</label>"#
        if let message = errorFor("commission_type") {
            content += #"<p class="error" id="field-commission_type-error">\#(HTML.escape(message))</p>"#
        }
        content += #"<select id="field-commission_type" name="commission_type">"#
        for (value, label) in Self.commissionRules {
            content += #"<option value="\#(value)"\#(type == value ? " selected" : "")>\#(label)</option>"#
        }
        content += "</select></div>"
        content += input(
            "commission_percent", "Percent", hint: "For a percentage: 0.01 to 100.", type: "text",
            #" inputmode="decimal""#)
        content += input("commission_fixed_cents", "Fixed amount (cents, USD)", type: "text", #" inputmode="numeric""#)
        let recurring = values["commission_recurring"] == "on"
        content +=
            #"<div class="field"><label><input type="checkbox" name="commission_recurring" id="field-commission_recurring""#
            + (recurring ? " checked" : "") + #"> Recurring (every renewal pays)</label>"#
            + (errorFor("commission_recurring").map { #"<p class="error">\#(HTML.escape($0))</p>"# } ?? "") + "</div>"
        content += input(
            "commission_duration_months", "Duration (months)", hint: "How long renewals pay; empty: no limit.",
            type: "text", #" inputmode="numeric""#)
        content += "<h2>Branding</h2>"
        content += input("app_name", "App name")
        content += input("app_icon_url", "App icon URL (https)", type: "url")
        content += input("brand_color", "Brand colour", hint: "#rrggbb, e.g. #3b5bdb.")
        content += input("og_image_url", "Link preview image URL (https)", type: "url")
        content += input("og_description", "Link preview text")
        content += DashboardEdit.hiddenFields(loaded, names: Self.trackingFields.map(\.name))
        content += #"<div><button type="submit">Save</button></div></form>"#
        return page(context, status: status, title: "\(program.name) · Tracking", current: "programs", content: content)
    }
}
