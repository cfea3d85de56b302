import EdgeStore
import LinkCore

/// A partner page's codes: each code's app link with a copy button and its QR code while the link works, and what
/// stops it when it does not (an inactive code or partner, a code another active partner holds), so the page never
/// offers a link that answers `404` as one to share.
extension DashboardHandler {
    /// The form of a partner page whose refusal is shown again: the add-code field, one code's deactivate or
    /// reactivate button (by the code as stored), or the partner's.
    enum PartnerFormPlace: Equatable {
        case addCode
        case code(String)
        case partnerStatus
    }

    /// The list of the partner's codes (the first 200: every page stays bounded), with `error` under the button of
    /// the code `beside` names.
    func codeList(
        _ context: Context, partner: PartnerRecord, records: ConfigRecords, error: String?,
        beside place: PartnerFormPlace, actionBase base: String
    ) -> String {
        let programs = Set(records.programs.filter { $0.organizationID == context.organization.id }.map(\.id))
        let holders = CodeHolders(records, programs: programs)
        let codes = Array(records.codes.filter { $0.partnerID == partner.id }.prefix(200))
        var content = "<h2>Codes and app links</h2>"
        if codes.isEmpty { content += "<p>No codes yet.</p>" }
        content += #"<ul class="codes">"#
        for (index, record) in codes.enumerated() {
            let path =
                "/a/\(PercentEncoding.encode(context.organization.publicKey))/\(PercentEncoding.encode(record.code))"
            let link = publicURL.map { $0.text + path } ?? path
            let others = holders.others(of: record, partner: partner)
            content +=
                #"<li class="code" id="code-\#(index)"><h3>\#(HTML.escape(record.code))"#
                + (record.active ? "" : " (inactive)") + (others.isEmpty ? "" : " (shared)") + "</h3>"
            if let problem = Self.linkProblem(record, partner: partner, others: others) {
                // The address, for reference, but nothing to copy or scan: it answers 404 now.
                content +=
                    #"<p class="error" id="link-problem-\#(index)">\#(HTML.escape(problem))</p>"#
                    + #"<p><code class="app-link">\#(HTML.escape(link))</code></p>"#
            } else {
                content +=
                    #"<p><a class="app-link" href="\#(HTML.escape(link))">\#(HTML.escape(link))</a></p>"#
                    + #"<p><button type="button" class="copy" data-copy="\#(HTML.escape(link))" "#
                    + #"aria-controls="copy-status-\#(index)">Copy link</button> "#
                    + #"<span id="copy-status-\#(index)" role="status"></span></p>"#
                if publicURL != nil, let svg = Self.qrSVG(link) {
                    content +=
                        #"<figure class="qr" role="img" aria-label="QR code of \#(HTML.escape(link))">\#(svg)</figure>"#
                }
            }
            let action = record.active ? "deactivate" : "reactivate"
            content +=
                #"<form method="post" action="\#(base)/codes/\#(HTML.urlComponent(record.code))/\#(action)">"#
                + DashboardForm.csrf(context.csrfToken)
            if let error, place == .code(record.code) {
                content += #"<p class="error" role="alert" id="code-error">\#(HTML.escape(error))</p>"#
            }
            content +=
                #"<button type="submit" class="secondary">\#(record.active ? "Deactivate" : "Reactivate") "#
                + #"\#(HTML.escape(record.code))</button></form>"#
            content += "</li>"
        }
        return content + "</ul>"
    }

    /// Why the link of `record` answers `404` now, or `nil` when it works.
    private static func linkProblem(_ record: CodeRecord, partner: PartnerRecord, others: [PartnerRecord]) -> String? {
        if !record.active { return "Inactive: this link answers 404 (not found) until you reactivate the code." }
        if !partner.isActive {
            return "The partner is inactive: this link answers 404 (not found) until you reactivate the partner."
        }
        guard !others.isEmpty else { return nil }
        let names = others.map(\.name).joined(separator: ", ")
        return "Shared: \(names) also \(others.count == 1 ? "holds" : "hold") \(record.code) as an active code, so"
            + " this link answers 404 (not found) and claims of the code 409 until only one partner holds it:"
            + " deactivate it here or there."
    }

    /// The active partners of an organization (its programs' ids in `programs`) that hold each active code, keyed
    /// as the link table compares codes: the same bytes, with ASCII letters folded (``ASCII/sameCode(_:_:)``). Built
    /// once per page from one pass over the store's codes, so a page of partners costs each code it shows one
    /// lookup, not a scan of every code stored.
    struct CodeHolders {
        private var holders: [[UInt8]: [(order: Int, partner: PartnerRecord)]] = [:]

        init(_ records: ConfigRecords, programs: Set<String>) {
            var active: [String: (order: Int, partner: PartnerRecord)] = [:]
            for (order, partner) in records.partners.enumerated()
            where partner.isActive && programs.contains(partner.programID) {
                active[partner.id] = (order, partner)
            }
            for code in records.codes where code.active {
                guard let holder = active[code.partnerID] else { continue }
                let key = Self.key(code.code)
                if holders[key]?.contains(where: { $0.partner.id == code.partnerID }) != true {
                    holders[key, default: []].append(holder)
                }
            }
        }

        /// The other active partners holding `record`'s code, in the store's partner order: while `partner` and the
        /// code are active too, its link answers `404` and claims `409`. Empty when either is inactive.
        func others(of record: CodeRecord, partner: PartnerRecord) -> [PartnerRecord] {
            guard record.active, partner.isActive else { return [] }
            return (holders[Self.key(record.code)] ?? []).filter { $0.partner.id != partner.id }
                .sorted { $0.order < $1.order }.map(\.partner)
        }

        private static func key(_ code: String) -> [UInt8] { code.utf8.map(ASCII.lowercased) }
    }
}
