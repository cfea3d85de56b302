import EdgeStore
import LinkCore

/// `/dashboard/settings/integrations`: what the app and RevenueCat need: the public key, the webhook URL and a form
/// that sets its authorization (and the organization's time zone) through the importer, the claim endpoint with a
/// ready `curl`.
extension DashboardHandler {
    /// The form's fields and where the importer reports their errors.
    static let integrationFields: [(name: String, path: String)] = [
        ("webhook_authorization", "revenuecat.authorization"), ("timezone", "timezone"),
    ]

    func integrations(_ context: Context) throws -> APIResponse {
        // The stored organization, not the link table's copy: right after a save the table may be a second behind.
        // Its configuration alone: the sample code is one of its partners', and a post saves through the importer,
        // which checks it against every organization's.
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        let organization = records.organizations.first { $0.id == context.organization.id } ?? context.organization
        let stored = ["timezone": organization.timezone]
        let sample = Self.sampleCode(of: organization.id, in: records)
        guard context.isPost else {
            return integrationsPage(
                context, organization: organization, sample: sample, values: stored, loaded: stored, error: nil,
                saved: context.request.query["saved"] != nil, kept: context.request.query["kept"] != nil)
        }
        let loaded = DashboardEdit.loadedValues(in: context.form, stored: stored)
        if let problem = context.formProblem {
            // The authorization is never shown again, whatever was posted.
            let field = Self.integrationFields.first { $0.name == problem.field }?.name
            return integrationsPage(
                context, organization: organization, sample: sample,
                values: ["timezone": context.form["timezone"] ?? ""],
                loaded: loaded, error: (field, field == nil ? DashboardForm.message(problem) : problem.reason),
                saved: false, status: 400)
        }
        if let unknown = DashboardForm.unknownField(in: context.form, fields: Self.integrationFields.map(\.name)) {
            return integrationsPage(
                context, organization: organization, sample: sample, values: stored, loaded: loaded,
                error: (nil, unknown), saved: false, status: 400)
        }
        // Two forms post here, each with its own field, and a post saves the fields it carries: a time zone saved
        // never touches the authorization (a browser may autofill a password field, so the two never share a form).
        var authorization = context.form["webhook_authorization"]?.trimmingSpaces
        var timezone = context.form["timezone"]?.trimmingSpaces
        let values = ["timezone": timezone ?? organization.timezone]
        // An empty authorization keeps the stored one (the field is never filled in, so a save of the page's form
        // must not clear it), whatever else the post carries; with none stored there is nothing to keep, and it is
        // required.
        let kept = authorization == "" && organization.revenueCatAuthorizationDigest != nil
        if kept { authorization = nil }
        if kept, timezone == nil { return Self.redirect(to: "/dashboard/settings/integrations?kept=1") }
        for (field, value) in [("webhook_authorization", authorization), ("timezone", timezone)] where value == "" {
            return integrationsPage(
                context, organization: organization, sample: sample, values: values, loaded: loaded,
                error: (field, "is required"),
                saved: false, status: 400)
        }
        guard authorization != nil || timezone != nil else {
            return integrationsPage(
                context, organization: organization, sample: sample, values: values, loaded: loaded,
                error: (nil, "The form is incomplete: reload the page and try again."), saved: false, status: 400)
        }
        // A time zone posted as the page showed it is no change: someone else's since stays (``DashboardEdit``).
        let edit = DashboardEdit(
            posted: timezone.map { ["timezone": $0] } ?? [:], form: context.form, stored: stored, names: ["timezone"])
        if let now = edit.conflicts["timezone"] {
            return integrationsPage(
                context, organization: organization, sample: sample, values: values,
                loaded: edit.reloaded(from: context.form, stored: stored),
                error: ("timezone", DashboardEdit.conflictReason(now)),
                summary: DashboardEdit.conflictSummary(count: 1),
                saved: false, status: 409)
        }
        timezone = edit.changed["timezone"]
        let saved = "/dashboard/settings/integrations?saved=1" + (kept ? "&kept=1" : "")
        guard authorization != nil || timezone != nil else { return Self.redirect(to: saved) }
        var json = #"{"organizations":[{"id":\#(DashboardForm.stringOrNull(organization.id))"#
        if let authorization {
            json += #","revenuecat":{"authorization":\#(DashboardForm.stringOrNull(authorization))}"#
        }
        if let timezone { json += #","timezone":\#(DashboardForm.stringOrNull(timezone))"# }
        json += "}]}"
        if let message = try DashboardForm.save(json, into: api.writer) {
            let error = DashboardForm.fieldError(message, below: "organizations[0].", fields: Self.integrationFields)
            return integrationsPage(
                context, organization: organization, sample: sample, values: values, loaded: loaded, error: error,
                saved: false,
                status: 400)
        }
        return Self.redirect(to: saved)
    }

    /// The page, its time zone form showing `values` and carrying `loaded` as what it was loaded with
    /// (``DashboardEdit``); `error` beside its field (or above the forms), `summary` above them in place of the
    /// usual one.
    private func integrationsPage(
        _ context: Context, organization: OrganizationRecord, sample: SampleCode?,
        values: [String: String], loaded: [String: String],
        error: (field: String?, reason: String)?, summary: String? = nil, saved: Bool, kept: Bool = false,
        status: Int = 200
    ) -> APIResponse {
        func errorFor(_ name: String) -> String? { error?.field == name ? error?.reason : nil }
        let base = publicURL?.text ?? "https://<your edge host>"
        let key = PercentEncoding.encode(organization.publicKey)
        let webhook = "\(base)\(APIHandler.revenueCatWebhookPrefix)\(key)"
        let authorization =
            organization.revenueCatAuthorizationDigest == nil
            ? "Not set: the webhook refuses every event until you set it."
            : "Set (stored as a digest; it is never shown)."
        var content = ""
        if saved { content += #"<p class="notice" role="status" id="saved">Saved.</p>"# }
        if kept {
            content +=
                #"<p class="notice" role="status" id="kept">The field was empty: the stored authorization is kept.</p>"#
        }
        if let error, error.field == nil {
            content += #"<p class="error" role="alert" id="form-error">\#(HTML.escape(error.reason))</p>"#
        } else if error != nil {
            let shown = summary ?? "Nothing was saved: fix the field marked below."
            content += #"<p class="error" role="alert" id="form-error">\#(HTML.escape(shown))</p>"#
        }
        content += "<h2>Public key</h2>"
        content +=
            #"<p>The app configures the SDK with it: <code id="public-key">\#(HTML.escape(organization.publicKey))</code></p>"#
        content += #"<h2 id="webhook">RevenueCat webhook</h2>"#
        content += #"<p>In RevenueCat, under Integrations → Webhooks, set the URL to:</p>"#
        content += #"<pre id="webhook-url">\#(HTML.escape(webhook))</pre>"#
        content +=
            "<p>and an authorization header value of your choosing (for example <code>Bearer</code> and a long random "
            + "secret). Save the same value here: events without it are refused.</p>"
        content += #"<p>Authorization: <span id="webhook-authorization">\#(HTML.escape(authorization))</span></p>"#
        content +=
            #"<form class="stack" method="post" action="/dashboard/settings/integrations" aria-labelledby="webhook">"#
        content += DashboardForm.csrf(context.csrfToken)
        // `new-password`: browsers offer no saved password (the sign-in's secret key) for it. Required only while
        // none is stored: then an empty one keeps it.
        let isStored = organization.revenueCatAuthorizationDigest != nil
        content += DashboardForm.input(
            "webhook_authorization", label: "Authorization header value", value: nil,
            error: errorFor("webhook_authorization"),
            hint: isStored
                ? "The exact value RevenueCat sends. It replaces the one stored. Left empty, the stored one is kept."
                : "The exact value RevenueCat sends. Required: none is stored yet.",
            type: "password", attributes: #" autocomplete="new-password""# + (isStored ? "" : " required"))
        content += #"<div><button type="submit">Save the authorization</button></div></form>"#
        content += #"<h2 id="time-zone">Time zone</h2>"#
        content +=
            #"<form class="stack" method="post" action="/dashboard/settings/integrations" aria-labelledby="time-zone">"#
        content += DashboardForm.csrf(context.csrfToken)
        content += DashboardForm.input(
            "timezone", label: "Time zone", value: values["timezone"], error: errorFor("timezone"),
            hint: "An IANA name, such as America/Los_Angeles: the Overview counts its days in it.",
            attributes: " required")
        content += DashboardEdit.hiddenFields(loaded, names: ["timezone"])
        content += #"<div><button type="submit">Save the time zone</button></div></form>"#
        content += "<h2>Claims</h2>"
        content += "<p>The app claims a code (or a click) for its user with the public key:</p>"
        content += #"<pre id="claim-curl">\#(HTML.escape(Self.claimCurl(base: base, organization, sample)))</pre>"#
        content +=
            #"<p class="hint" id="claim-curl-note">"#
            + (sample == nil
                ? "Your organization has no active code yet: put one in place of YOUR_CODE. "
                : "It uses \(HTML.escape(sample?.code ?? "")), one of your active codes. ")
            + "Running it makes a real claim: user_123 becomes that partner's customer for good (a claim cannot be"
            + " undone) and counts in the Overview's claims, so use an app user id you keep for tests.</p>"
        if publicURL == nil {
            content += #"<p class="hint">Start the server with --public-url to show your edge's own address here.</p>"#
        }
        return page(
            context, status: status, title: "Settings · Integrations", current: "settings", content: content)
    }

    /// A code the claim `curl` can use: an active code of an active partner that no other active partner holds (its
    /// claim would answer `409`), and its program's claim window.
    struct SampleCode {
        let code: String
        let claimWindowDays: Int?
    }

    /// The organization's first usable code (``SampleCode``), by program and partner order; `nil` when it has none.
    static func sampleCode(of organizationID: String, in records: ConfigRecords) -> SampleCode? {
        let programs = records.programs.filter { $0.organizationID == organizationID }
        let holders = CodeHolders(records, programs: Set(programs.map(\.id)))
        for program in programs {
            for partner in records.partners where partner.programID == program.id && partner.isActive {
                for code in records.codes where code.partnerID == partner.id && code.active {
                    guard holders.others(of: code, partner: partner).isEmpty
                    else { continue }
                    return SampleCode(code: code.code, claimWindowDays: program.claimWindowDays)
                }
            }
        }
        return nil
    }

    /// The `curl` that claims `sample` (else `YOUR_CODE`) for `user_123`, with `first_seen_at` (now) when its program
    /// has a claim window, which then requires it.
    static func claimCurl(base: String, _ organization: OrganizationRecord, _ sample: SampleCode?) -> String {
        var body = JSONWriter()
        body.object {
            $0.string("public_id", organization.publicKey)
            $0.string("app_user_id", "user_123")
            $0.string("code", sample?.code ?? "YOUR_CODE")
            if sample?.claimWindowDays != nil {
                $0.string("first_seen_at", Timestamp.format(Clock.epochMilliseconds()))
            }
        }
        // In single quotes for the shell: a quote in the body (a code may hold one) ends and reopens them.
        let quoted = String(String(decoding: body.bytes, as: UTF8.self).flatMap { $0 == "'" ? Array(#"'\''"#) : [$0] })
        return "curl -X POST \(base)/client/claims \\\n  -H 'Content-Type: application/json' \\\n  -d '\(quoted)'"
    }
}
