import EdgeStore
import LinkCore

// The Overview's and the Commissions page's store aggregates, read from covering indexes (never from clicks).
extension DashboardHandler {
    /// Claims, paying customers, commissions pending and reversed.
    func aggregateCards(_ context: Context) throws -> String {
        let summary = try api.reader.organizationSummary(organizationID: context.organization.id)
        let pending = summary.commissions(withStatus: .pending)
        let reversed = summary.commissions(withStatus: .reversed)
        return Self.card("Claims, all time", String(summary.claims), id: "claims")
            + Self.card("Paying customers now", String(summary.customers(withStatus: .paying)), id: "paying")
            + Self.card("Commissions pending", HTML.dollars(pending.amountCents), id: "commissions-pending")
            + Self.card(
                "Commissions reversed, all time", HTML.dollars(reversed.amountCents), id: "commissions-reversed")
    }

    /// The Commissions page's totals per partner and status.
    func commissionTotalsTable(_ context: Context, partnerNames: [String: String]) throws -> String {
        let totals = try api.reader.commissionTotals(organizationID: context.organization.id)
        guard !totals.isEmpty else { return #"<p id="commission-totals">No commissions yet.</p>"# }
        var out =
            #"<div class="table-wrap" role="region" tabindex="0" aria-label="Commission totals per partner"><table id="commission-totals"><thead><tr><th scope="col">Partner</th>"#
            + #"<th scope="col">Status</th><th scope="col" class="number">Commissions</th>"#
            + #"<th scope="col" class="number">Amount</th></tr></thead><tbody>"#
        for total in totals {
            out +=
                "<tr><td>\(HTML.escape(partnerNames[total.partnerID] ?? total.partnerID))</td>"
                + "<td>\(HTML.escape(total.status.rawValue))</td><td class=\"number\">\(total.count)</td>"
                + "<td class=\"number\">\(HTML.dollars(total.amountCents))</td></tr>"
        }
        return out + "</tbody></table></div>"
    }
}
