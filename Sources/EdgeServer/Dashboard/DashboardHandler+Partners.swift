import EdgeStore
import LinkCore

/// `GET /dashboard/partners` (every partner with status and codes, and a form to add one), `GET
/// /dashboard/partners/<id>` (each code's app link, a copy button, its QR code; add a code, deactivate or reactivate
/// a code or the partner), and the forms behind them, each saved as an import document (``DashboardForm``).
extension DashboardHandler {
    /// `GET /dashboard/partners`: the list from `starting_after`, its query checked as the other lists' are
    /// (``filtered(_:title:current:path:parameters:_:)``): an unknown parameter, or a cursor that names none of the
    /// organization's partners, is the `400` page that says why, never the first page as if the cursor had applied.
    func partnerList(_ context: Context) throws -> APIResponse {
        try filtered(
            context, title: "Partners", current: "partners", path: "/dashboard/partners", parameters: ["starting_after"]
        ) { query in
            try partners(context, startingAfter: query.query["starting_after"])
        }
    }

    /// The list and the add form; `error` is shown above the form, or beside the name field when `field` is `name`.
    /// The list starts after `startingAfter`, which must be one of the organization's partners (`400
    /// invalid_request` otherwise).
    func partners(
        _ context: Context, error: String? = nil, field: String? = nil, values: [String: String] = [:],
        startingAfter after: String? = nil
    ) throws -> APIResponse {
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        let programs = records.programs.filter { $0.organizationID == context.organization.id }
        let programIDs = Set(programs.map(\.id))
        // By name (without case, then as written), then id: generated ids would look like no order at all. 50 a page
        // after `starting_after`, the last partner of the page before.
        let ordered = records.partners.filter { programIDs.contains($0.programID) }.map { ($0.name.lowercased(), $0) }
            .sorted { ($0.0, $0.1.name, $0.1.id) < ($1.0, $1.1.name, $1.1.id) }.map(\.1)
        var start = 0
        if let after {
            guard let index = ordered.firstIndex(where: { $0.id == after }) else {
                let named = after.utf8.count <= 64 ? " \(after)" : ""
                throw APIError.invalidRequest(
                    "starting_after\(named) is not a partner of this organization: page from a link of this list")
            }
            start = index + 1
        }
        let all = ordered[start...]
        let partners = Array(all.prefix(Self.pageSize))
        var content = ""
        if partners.isEmpty {
            content += "<p>No partners yet.</p>"
        } else {
            content +=
                #"<div class="table-wrap" role="region" tabindex="0" aria-label="Partners"><table id="partners"><thead><tr><th scope="col">Partner</th>"#
                + #"<th scope="col">Program</th><th scope="col">Status</th><th scope="col">Codes</th></tr></thead><tbody>"#
            let holders = CodeHolders(records, programs: programIDs)
            let codesOf = Dictionary(grouping: records.codes, by: \.partnerID)
            for partner in partners {
                // At most the first 200 codes: every page stays bounded.
                let codes = Array((codesOf[partner.id] ?? []).prefix(200)).map {
                    let shared = holders.others(of: $0, partner: partner)
                    return HTML.escape($0.code) + ($0.active ? "" : " (inactive)")
                        + (shared.isEmpty
                            ? "" : #" <strong class="shared">(shared: its link answers 404)</strong>"#)
                }.joined(separator: ", ")
                let program = programs.first { $0.id == partner.programID }?.name ?? partner.programID
                content +=
                    #"<tr><td><a href="/dashboard/partners/\#(HTML.urlComponent(partner.id))">"#
                    + "\(HTML.escape(partner.name))</a></td><td>\(HTML.escape(program))</td>"
                    + "<td>\(HTML.escape(partner.status))</td><td>\(codes)</td></tr>"
            }
            content += "</tbody></table></div>"
        }
        content += Self.pager(
            path: "/dashboard/partners", keep: [:], isFirstPage: start == 0,
            page: Page(items: partners, hasMore: all.count > partners.count), id: \.id,
            labels: ("First page", "Next page"))
        content += #"<h2 id="add-partner">Add a partner</h2>"#
        let nameError = field == "name" ? error : nil
        if let error {
            let summary = nameError == nil ? error : "Nothing was saved: fix the field marked below."
            content += #"<p class="error" role="alert" id="form-error">\#(HTML.escape(summary))</p>"#
        }
        content += #"<form class="stack" method="post" action="/dashboard/partners" aria-labelledby="add-partner">"#
        content += DashboardForm.csrf(context.csrfToken)
        content +=
            #"<div class="field"><label for="field-program_id">Program</label><select id="field-program_id" name="program_id">"#
        for program in programs {
            let selected = values["program_id"] == program.id ? " selected" : ""
            content +=
                #"<option value="\#(HTML.escape(program.id))"\#(selected)>\#(HTML.escape(program.name))</option>"#
        }
        content += "</select></div>"
        content += DashboardForm.input(
            "name", label: "Name", value: values["name"], error: nameError, attributes: " required")
        content += DashboardForm.input(
            "code", label: "First code (optional)", value: values["code"], hint: Self.codeHint)
        content += #"<div><button type="submit">Add partner</button></div></form>"#
        return page(
            context, status: error == nil ? 200 : 400, title: "Partners", current: "partners", content: content)
    }

    /// What a code may be (``CodeRules``, as the importer checks it) and how links match it.
    static let codeHint =
        "Up to \(CodeRules.maximumLength) bytes: no spaces, control characters, invisible characters or / ? # %,"
        + " and not . or .. alone (browsers drop them from a link). Links match it without case for A–Z only"
        + " (SAM20 is sam20; É is not é)."

    func addPartner(_ context: Context) throws -> APIResponse {
        if let problem = context.formProblem {
            return try partners(
                context, error: problem.field == "name" ? problem.reason : DashboardForm.message(problem),
                field: problem.field, values: context.form)
        }
        // As the tracking and integrations forms: a field the form does not have is a script's mistake, never dropped.
        if let unknown = DashboardForm.unknownField(in: context.form, fields: ["program_id", "name", "code"]) {
            return try partners(context, error: unknown, values: context.form)
        }
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        let name = (context.form["name"] ?? "").trimmingSpaces
        let code = (context.form["code"] ?? "").trimmingSpaces
        guard let programID = context.form["program_id"],
            records.programs.contains(where: { $0.id == programID && $0.organizationID == context.organization.id })
        else { return try partners(context, error: "Choose one of your programs.", values: context.form) }
        guard !name.isEmpty else {
            return try partners(context, error: "is required", field: "name", values: context.form)
        }
        let id = EntityID.make(prefix: "part_")
        let codes = code.isEmpty ? "" : #","codes":[{"code":\#(DashboardForm.stringOrNull(code)),"active":true}]"#
        let json =
            #"{"organizations":[{"id":\#(DashboardForm.stringOrNull(context.organization.id)),"programs":[{"id":"#
            + #"\#(DashboardForm.stringOrNull(programID)),"partners":[{"id":"\#(id)","name":"#
            + #"\#(DashboardForm.stringOrNull(name)),"status":"active"\#(codes)}]}]}]}"#
        let shared = PartnerRules.noSharedCodes({ _ in [code] }, organizationID: context.organization.id, except: nil)
        let check: (ConfigRecords) throws -> Void = { records in
            try PartnerRules.notNamedYet(name, in: programID, records)
            try shared(records)
        }
        if let message = try DashboardForm.save(json, into: api.writer, check: check) {
            let (path, reason) = DashboardForm.fieldError(message, below: "organizations[0].programs[0].partners[0].")
            if path == "name" { return try partners(context, error: reason, field: "name", values: context.form) }
            return try partners(context, error: path.isEmpty ? reason : "\(path): \(reason)", values: context.form)
        }
        return Self.redirect(to: "/dashboard/partners/\(PercentEncoding.encode(id))")
    }

    func partner(
        _ context: Context, partnerID: String, error: String? = nil, code: String? = nil,
        errorBeside place: PartnerFormPlace = .addCode
    ) throws -> APIResponse {
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        guard let (partner, program) = PartnerRules.partner(partnerID, of: context.organization, in: records) else {
            return noSuchPartner(context)
        }
        let base = "/dashboard/partners/\(HTML.urlComponent(partner.id))"
        var content =
            "<p>Program: <a href=\"/dashboard/programs/\(HTML.urlComponent(program.id))/tracking\">"
            + "\(HTML.escape(program.name))</a>. Status: <strong id=\"partner-status\">\(HTML.escape(partner.status))"
            + "</strong>.</p>"
        // What a payout script reads from GET /v1/partners, for the person who pays by hand.
        let balance =
            try api.reader.partnerBalances(organizationID: context.organization.id, partnerIDs: [partner.id])[
                partner.id] ?? PartnerBalance()
        content +=
            #"<h2>Balance</h2><dl id="partner-balance">"#
            + "<dt>Unpaid</dt><dd>\(HTML.dollars(balance.unpaidCents))</dd>"
            + "<dt>Owed back</dt><dd>\(HTML.dollars(balance.owedBackCents))</dd>"
            + "<dt>Paid</dt><dd>\(HTML.dollars(balance.paidCents))</dd></dl>"
            + #"<p class="hint">Unpaid: pending commissions no payout paid. Owed back: commissions paid, then refunded,"#
            + #" taken from the next payout. Record a payment with POST /v1/payouts.</p>"#
        content += codeList(
            context, partner: partner, records: records, error: error, beside: place, actionBase: base)
        if publicURL == nil {
            content += #"<p class="hint">Start the server with --public-url to show absolute links and QR codes.</p>"#
        }
        content += #"<h2 id="add-code">Add a code</h2>"#
        content += #"<form class="inline" method="post" action="\#(base)/codes" aria-labelledby="add-code">"#
        content += DashboardForm.csrf(context.csrfToken)
        content += DashboardForm.input(
            "code", label: "Code", value: code, error: place == .addCode ? error : nil, hint: Self.codeHint,
            attributes: " required")
        content += #"<div><button type="submit">Add code</button></div></form>"#
        let statusError =
            place == .partnerStatus ? error.map { #"<p class="error" role="alert">\#(HTML.escape($0))</p>"# } : nil
        if partner.isActive {
            content +=
                #"<h2>Deactivate</h2><form method="post" action="\#(base)/deactivate">"#
                + DashboardForm.csrf(context.csrfToken) + (statusError ?? "")
                + #"<p class="hint">Its links and codes stop working for new taps and claims. The customers it already has stay"#
                + #" its own and still earn it commissions by their program's rule, renewals included.</p>"#
                + #"<button type="submit" class="secondary">Deactivate \#(HTML.escape(partner.name))</button></form>"#
        } else {
            content +=
                #"<h2>Reactivate</h2><form method="post" action="\#(base)/reactivate">"#
                + DashboardForm.csrf(context.csrfToken) + (statusError ?? "")
                + #"<p class="hint">The links of its active codes work again.</p>"#
                + #"<button type="submit" class="secondary">Reactivate \#(HTML.escape(partner.name))</button></form>"#
        }
        return page(
            context, status: error == nil ? 200 : 400, title: partner.name, current: "partners", content: content)
    }

    func addCode(_ context: Context, partnerID: String) throws -> APIResponse {
        if let problem = context.formProblem {
            let reason = problem.field == "code" ? problem.reason : DashboardForm.message(problem)
            return try partner(context, partnerID: partnerID, error: reason, code: context.form["code"])
        }
        if let unknown = DashboardForm.unknownField(in: context.form, fields: ["code"]) {
            return try partner(context, partnerID: partnerID, error: unknown, code: context.form["code"])
        }
        let code = (context.form["code"] ?? "").trimmingSpaces
        let shared = PartnerRules.noSharedCodes(
            { _ in [code] }, organizationID: context.organization.id, except: partnerID)
        return try change(
            context, partnerID: partnerID,
            #""codes":[{"code":\#(DashboardForm.stringOrNull(code)),"active":true}]"#, code: code, place: .addCode,
            check: { records in
                try PartnerRules.notAlreadyHeld(code, by: partnerID, in: records)
                try shared(records)
            })
    }

    func deactivatePartner(_ context: Context, partnerID: String) throws -> APIResponse {
        try change(context, partnerID: partnerID, #""status":"inactive""#, code: nil, place: .partnerStatus)
    }

    /// Makes an inactive partner active again, unless another active partner has taken one of its active codes
    /// meanwhile (the two would share it, and it would stop working for both).
    func reactivatePartner(_ context: Context, partnerID: String) throws -> APIResponse {
        let activeCodes: (ConfigRecords) -> [String] = { records in
            records.codes.filter { $0.partnerID == partnerID && $0.active }.map(\.code)
        }
        return try change(
            context, partnerID: partnerID, #""status":"active""#, code: nil, place: .partnerStatus,
            check: PartnerRules.noSharedCodes(activeCodes, organizationID: context.organization.id, except: partnerID))
    }

    /// Makes one of the partner's codes active or inactive. Only a code the partner has: it never creates one (a new
    /// code goes through the add form). Made active, unless another active partner holds it now.
    func setCode(_ context: Context, partnerID: String, code: String, active: Bool) throws -> APIResponse {
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        // The partner first: another organization's partner is "No such partner" whatever the code, so the answer
        // never tells whether it holds one.
        guard PartnerRules.partner(partnerID, of: context.organization, in: records) != nil else {
            return noSuchPartner(context)
        }
        // By its bytes, as stored: `==` would take `CAFE` and U+0301 for a stored `CAFÉ` (U+00C9), and the import
        // would then write a second code rather than change this one.
        guard
            records.codes.contains(where: { $0.partnerID == partnerID && $0.code.utf8.elementsEqual(code.utf8) })
        else {
            return page(
                context, status: 404, title: "Not found", current: "partners", content: "<p>No such code.</p>")
        }
        let check =
            active
            ? PartnerRules.noSharedCodes({ _ in [code] }, organizationID: context.organization.id, except: partnerID)
            : { _ in }
        return try change(
            context, partnerID: partnerID,
            #""codes":[{"code":\#(DashboardForm.stringOrNull(code)),"active":\#(active)}]"#, code: nil,
            place: .code(code), check: check)
    }

    /// Imports `members` into the partner's import object, if `check` passes on the configuration it changes; back to
    /// its page, or its page with the error beside `place`, the form that was sent.
    private func change(
        _ context: Context, partnerID: String, _ members: String, code: String?, place: PartnerFormPlace,
        check: (ConfigRecords) throws -> Void = { _ in }
    ) throws -> APIResponse {
        if let problem = context.formProblem, code == nil {
            return errorPage(400, "Bad request", DashboardForm.message(problem))
        }
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        guard let (partner, program) = PartnerRules.partner(partnerID, of: context.organization, in: records) else {
            return noSuchPartner(context)
        }
        let json =
            #"{"organizations":[{"id":\#(DashboardForm.stringOrNull(context.organization.id)),"programs":[{"id":"#
            + #"\#(DashboardForm.stringOrNull(program.id)),"partners":[{"id":"#
            + #"\#(DashboardForm.stringOrNull(partner.id)),\#(members)}]}]}]}"#
        if let message = try DashboardForm.save(json, into: api.writer, check: check) {
            var (_, reason) = DashboardForm.fieldError(message, below: "organizations[0].programs[0].partners[0].")
            // Shown beside the code field or the code's button, which name it already.
            if place != .partnerStatus, reason.hasPrefix("code: ") { reason.removeFirst("code: ".count) }
            return try self.partner(context, partnerID: partner.id, error: reason, code: code, errorBeside: place)
        }
        return Self.redirect(to: "/dashboard/partners/\(PercentEncoding.encode(partner.id))")
    }

    /// `404` for a partner id that is not one of the organization's partners.
    private func noSuchPartner(_ context: Context) -> APIResponse {
        page(context, status: 404, title: "Not found", current: "partners", content: "<p>No such partner.</p>")
    }

    /// The QR code of `link` as inline SVG (``QRCodeSVG``), or `nil` when it does not fit a QR code.
    static func qrSVG(_ link: String) -> String? {
        let bytes = Array(link.utf8)
        let capacity = 256 * 1024
        let memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { memory.deallocate() }
        let written: Int? = bytes.withUnsafeBytes { text in
            QRCodeSymbol.encode(text) { symbol -> Int? in
                var writer = ByteWriter(base: memory, capacity: capacity)
                QRCodeSVG.write(symbol, into: &writer)
                return writer.overflowed ? nil : writer.count
            } ?? nil
        }
        guard let written else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: memory, count: written), as: UTF8.self)
    }
}
