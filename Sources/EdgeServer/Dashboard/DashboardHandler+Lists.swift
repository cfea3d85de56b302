import EdgeStore
import LinkCore

/// `GET /dashboard/customers`, `/dashboard/commissions` and `/dashboard/clicks`: the API's lists (the same store
/// queries), newest first, paged by cursor (`starting_after`, the last id of the page before). Their filters are
/// checked as the API checks its lists' (``filtered(_:title:current:path:parameters:_:)``).
extension DashboardHandler {
    func customers(_ context: Context) throws -> APIResponse {
        try filtered(
            context, title: "Customers", current: "customers", path: "/dashboard/customers",
            parameters: ["q", "starting_after"]
        ) { query in
            var customerQuery = CustomerQuery(organizationID: context.organization.id, limit: Self.pageSize)
            let search = query.query["q"]?.trimmingSpaces ?? ""
            if !search.isEmpty { customerQuery.customerID = String(search.prefix(256)) }
            customerQuery.startingAfter = try api.startingAfter(query, prefix: "cust_", noun: "a customer id")
            return try customers(context, query: customerQuery, search: search)
        }
    }

    private func customers(_ context: Context, query customerQuery: CustomerQuery, search: String) throws
        -> APIResponse
    {
        let page = try api.reader.customers(customerQuery)
        let names = try partnerNames(context)
        // Times in the organization's zone, as the Overview counts its days.
        let zone = api.timeZone(of: context.organization)
        var content =
            #"<form class="inline" method="get" action="/dashboard/customers" role="search">"#
            + DashboardForm.input("q", label: "App user id", value: search, type: "search")
            + #"<div><button type="submit">Search</button></div></form>"#
        if page.items.isEmpty {
            content += search.isEmpty ? "<p>No customers yet.</p>" : "<p>No customer with that app user id.</p>"
        } else {
            content +=
                #"<div class="table-wrap" role="region" tabindex="0" aria-label="Customers"><table id="customers"><thead><tr><th scope="col">App user id</th>"#
                + #"<th scope="col">Status</th><th scope="col">Partner</th><th scope="col">Code</th>"#
                + #"<th scope="col">Click</th><th scope="col">Claimed</th><th scope="col" class="number">Revenue</th>"#
                + #"<th scope="col" class="number">Commission</th></tr></thead><tbody>"#
            for customer in page.items {
                content +=
                    "<tr><td>\(HTML.escapeOutsideText(customer.customerID))\(Self.aliasesNote(customer))</td>"
                    + "<td class=\"status\">\(HTML.escape(customer.status))</td>"
                    + "<td>\(HTML.escape(names[customer.partnerID] ?? customer.partnerID))</td>"
                    + "<td>\(HTML.escape(customer.code))</td><td><code>\(HTML.escape(customer.clickID ?? "—"))</code></td>"
                    + "<td>\(HTML.time(customer.claimedAt, in: zone))</td>"
                    + "<td class=\"number\">\(HTML.dollars(customer.revenueCents))</td>"
                    + "<td class=\"number\">\(HTML.dollars(customer.commissionCents))</td></tr>"
            }
            content += "</tbody></table></div>"
        }
        content += Self.pager(
            path: "/dashboard/customers", keep: search.isEmpty ? [:] : ["q": search],
            isFirstPage: customerQuery.startingAfter == nil, page: page, id: \.id)
        return self.page(context, title: "Customers", current: "customers", content: content)
    }

    /// The most ids RevenueCat tied to a customer that its row on the Customers page names.
    static let shownAliases = 3

    /// Under a customer's app user id, the other ids RevenueCat tied to it: the first ``shownAliases`` (in byte
    /// order, as the API lists them) and how many more, so that a row stays short however many ids the customer
    /// has; nothing when it has none. The store reads ``CustomerRecord/maximumAliases`` at most, so past them the
    /// count is "more than".
    static func aliasesNote(_ customer: CustomerRecord) -> String {
        guard !customer.aliases.isEmpty else { return "" }
        let shown = customer.aliases.prefix(shownAliases)
        let rest = customer.aliases.count - shown.count
        var note = #"<div class="hint aliases">Other ids: "#
        note += shown.map(HTML.escapeOutsideText).joined(separator: ", ")
        if customer.aliasesTruncated {
            note += " +more than \(rest)"
        } else if rest > 0 {
            note += " +\(rest) more"
        }
        return note + "</div>"
    }

    func commissions(_ context: Context) throws -> APIResponse {
        let names = try partnerNames(context)
        return try filtered(
            context, title: "Commissions", current: "commissions", path: "/dashboard/commissions",
            parameters: ["partner_id", "status", "starting_after"]
        ) { query in
            var commissionQuery = CommissionQuery(organizationID: context.organization.id, limit: Self.pageSize)
            commissionQuery.partnerID = try api.partnerID(query, of: context.organization)
            commissionQuery.status = try api.status(query, as: CommissionStatus.self)
            commissionQuery.startingAfter = try api.startingAfter(query, prefix: "comm_", noun: "a commission id")
            return try commissions(context, query: commissionQuery, names: names)
        }
    }

    /// A commission's Paid cell: the payout that paid it, and the one that took it back once it was reversed, or
    /// "not yet" (a reversed commission no payout paid is never paid: "—"). One taken back and `pending` again (its
    /// refund reversed) is owed once more, "not yet" as well, with the history that says why.
    static func paid(_ commission: CommissionRecord) -> String {
        guard let payout = commission.payoutID else { return commission.status == .reversed ? "—" : "not yet" }
        guard let reversal = commission.reversalPayoutID else {
            // Paid, then refunded: the partner owes it back until a payout takes it back.
            return "by \(HTML.escape(payout))" + (commission.status == .reversed ? ", owed back" : "")
        }
        let history = "by \(HTML.escape(payout)), taken back by \(HTML.escape(reversal))"
        return commission.status == .pending ? "not yet: owed again (paid \(history))" : history
    }

    private func commissions(_ context: Context, query commissionQuery: CommissionQuery, names: [String: String])
        throws -> APIResponse
    {
        let partnerID = commissionQuery.partnerID
        let status = commissionQuery.status
        let page = try api.reader.commissions(commissionQuery)
        // Times in the organization's zone, as the Overview counts its days.
        let zone = api.timeZone(of: context.organization)
        var content = #"<form class="inline" method="get" action="/dashboard/commissions">"#
        content += Self.partnerSelect(names, selected: partnerID)
        content +=
            #"<div class="field"><label for="field-status">Status</label><select id="field-status" name="status">"#
        content += #"<option value="">Any</option>"#
        for value in CommissionStatus.allCases {
            content +=
                #"<option value="\#(value.rawValue)"\#(status == value ? " selected" : "")>\#(value.rawValue)</option>"#
        }
        content += #"</select></div><div><button type="submit">Filter</button></div></form>"#
        content += "<h2>Totals per partner</h2>" + (try commissionTotalsTable(context, partnerNames: names))
        content += "<h2>Commissions</h2>"
        if page.items.isEmpty {
            content += #"<p id="no-commissions">No commissions match.</p>"#
        } else {
            content +=
                #"<div class="table-wrap" role="region" tabindex="0" aria-label="Commissions"><table id="commissions"><thead><tr><th scope="col">Created</th>"#
                + #"<th scope="col">Partner</th><th scope="col">Customer</th><th scope="col">Product</th>"#
                + #"<th scope="col" class="number">Revenue</th><th scope="col" class="number">Commission</th>"#
                + #"<th scope="col">Status</th><th scope="col">Paid</th></tr></thead><tbody>"#
            for commission in page.items {
                content +=
                    "<tr><td>\(HTML.time(commission.createdAt, in: zone))</td>"
                    + "<td>\(HTML.escape(names[commission.partnerID] ?? commission.partnerID))</td>"
                    + "<td>\(HTML.escapeOutsideText(commission.customerID))</td>"
                    + "<td>\(HTML.escapeOutsideText(commission.productID ?? "—"))</td>"
                    + "<td class=\"number\">\(HTML.dollars(commission.revenueCents))</td>"
                    + "<td class=\"number amount\">\(HTML.dollars(commission.amountCents))</td>"
                    + "<td class=\"status\">\(HTML.escape(commission.status.rawValue))</td>"
                    + "<td class=\"payout\">\(Self.paid(commission))</td></tr>"
            }
            content += "</tbody></table></div>"
        }
        var keep: [String: String] = [:]
        if let partnerID { keep["partner_id"] = partnerID }
        if let status { keep["status"] = status.rawValue }
        content += Self.pager(
            path: "/dashboard/commissions", keep: keep, isFirstPage: commissionQuery.startingAfter == nil, page: page,
            id: \.id)
        return self.page(context, title: "Commissions", current: "commissions", content: content)
    }

    func clicks(_ context: Context) throws -> APIResponse {
        let names = try partnerNames(context)
        return try filtered(
            context, title: "Clicks", current: "clicks", path: "/dashboard/clicks",
            parameters: ["partner_id", "starting_after"]
        ) { query in
            var clickQuery = ClickQuery(organizationID: context.organization.id, limit: Self.pageSize)
            clickQuery.partnerID = try api.partnerID(query, of: context.organization)
            clickQuery.startingAfter = try api.clickCursor(query)
            return try clicks(context, query: clickQuery, names: names)
        }
    }

    private func clicks(_ context: Context, query clickQuery: ClickQuery, names: [String: String]) throws
        -> APIResponse
    {
        let partnerID = clickQuery.partnerID
        let page = try api.reader.clicks(clickQuery)
        // Times in the organization's zone, as the Overview counts its days.
        let zone = api.timeZone(of: context.organization)
        var content = #"<form class="inline" method="get" action="/dashboard/clicks">"#
        content += Self.partnerSelect(names, selected: partnerID)
        content += #"<div><button type="submit">Filter</button></div></form>"#
        if page.items.isEmpty {
            content += "<p>No clicks yet.</p>"
        } else {
            content +=
                #"<div class="table-wrap" role="region" tabindex="0" aria-label="Clicks"><table id="clicks"><thead><tr><th scope="col">Time</th>"#
                + #"<th scope="col">Partner</th><th scope="col">Code</th><th scope="col">Platform</th>"#
                + #"<th scope="col">Country</th><th scope="col">Click id</th></tr></thead><tbody>"#
            for click in page.items {
                content +=
                    "<tr><td>\(HTML.time(click.createdAt, in: zone))</td>"
                    + "<td>\(HTML.escape(names[click.partnerID] ?? click.partnerID))</td>"
                    + "<td>\(HTML.escape(click.code))</td><td>\(HTML.escape(click.platform.rawValue))</td>"
                    + "<td>\(HTML.escape(click.country ?? "—"))</td><td><code>\(HTML.escape(click.id))</code></td></tr>"
            }
            content += "</tbody></table></div>"
        }
        content += Self.pager(
            path: "/dashboard/clicks", keep: partnerID.map { ["partner_id": $0] } ?? [:],
            isFirstPage: clickQuery.startingAfter == nil, page: page, id: \.id)
        return self.page(context, title: "Clicks", current: "clicks", content: content)
    }

    /// `body` with the page's query, checked as the API checks its lists'
    /// (``APIHandler/checkQuery(_:takes:allowingEmpty:)``) and without the empty values the filter forms send for
    /// "any"; or, when the query or `body` refuses it (``APIError`` `400`), the page with the reason and a link to the
    /// whole list, answered `400`: a mistyped filter (`status=bogus`, an unknown parameter, a cursor that is no id of
    /// the list) never shows the whole list as if it had applied.
    func filtered(
        _ context: Context, title: String, current: String, path: String, parameters: Set<String>,
        _ body: (APIRequest) throws -> APIResponse
    ) throws -> APIResponse {
        do {
            try APIHandler.checkQuery(context.request, takes: parameters, allowingEmpty: true)
            var query = context.request
            query.query = query.query.filter { !$0.value.isEmpty }
            return try APIHandler.readingCursor { try body(query) }
        } catch let error as APIError where error.status == 400 {
            let content =
                #"<p class="error" role="alert" id="filter-error">This filter cannot be used: "#
                + #"\#(HTML.escape(error.message)).</p><p><a href="\#(path)">Show the whole list</a></p>"#
            return page(context, status: 400, title: title, current: current, content: content)
        }
    }

    /// Partner names by id, for the organization's partners.
    func partnerNames(_ context: Context) throws -> [String: String] {
        let records = try api.reader.configRecords(organizationID: context.organization.id)
        let programs = Set(records.programs.filter { $0.organizationID == context.organization.id }.map(\.id))
        var names: [String: String] = [:]
        for partner in records.partners where programs.contains(partner.programID) { names[partner.id] = partner.name }
        return names
    }

    static func partnerSelect(_ names: [String: String], selected: String?) -> String {
        var out = #"<div class="field"><label for="field-partner_id">Partner</label>"#
        out += #"<select id="field-partner_id" name="partner_id"><option value="">Every partner</option>"#
        for (id, name) in names.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            out +=
                #"<option value="\#(HTML.escape(id))"\#(selected == id ? " selected" : "")>\#(HTML.escape(name))</option>"#
        }
        return out + "</select></div>"
    }

    /// Links to the first page (from a later one) and to the next one (after the page's last id), keeping the
    /// filters; nothing when the list fits on one page. Lists newest first call them Newest and Older; a list in
    /// another order (partners, by name) names them for what they are.
    static func pager<Item>(
        path: String, keep: [String: String], isFirstPage: Bool, page: Page<Item>, id: KeyPath<Item, String>,
        labels: (first: String, next: String) = ("Newest", "Older")
    ) -> String {
        let filters = keep.sorted { $0.key < $1.key }.map { "\($0.key)=\(PercentEncoding.encode($0.value))" }
        var links: [String] = []
        if !isFirstPage {
            let newest = path + (filters.isEmpty ? "" : "?" + filters.joined(separator: "&"))
            links.append(#"<a href="\#(HTML.escape(newest))">\#(labels.first)</a>"#)
        }
        if page.hasMore, let last = page.items.last {
            let next = filters + ["starting_after=\(PercentEncoding.encode(last[keyPath: id]))"]
            links.append(
                #"<a rel="next" href="\#(HTML.escape(path + "?" + next.joined(separator: "&")))">\#(labels.next)</a>"#)
        }
        guard !links.isEmpty else { return "" }
        return #"<nav class="pager" aria-label="Pages">\#(links.joined(separator: " "))</nav>"#
    }
}
