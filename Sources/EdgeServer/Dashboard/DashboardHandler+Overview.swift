import EdgeStore
import LinkCore

/// `GET /dashboard`: clicks and unique clicks per day for 30 days, from the hourly counts (never the clicks), and
/// the organization's claims, paying customers and commissions.
extension DashboardHandler {
    /// The days the Overview's chart covers, ending today.
    static let overviewDays: Int64 = 30

    func overview(_ context: Context) throws -> APIResponse {
        let named = api.timeZone(of: context.organization)
        let zone = named ?? .utc
        let zoneName =
            named != nil
            ? context.organization.timezone
            : TimeZoneName.isValid(context.organization.timezone)
                ? "UTC: \(context.organization.timezone) is not in this server's tzdata"
                // Stored by an earlier build, which took any file of the zone directory.
                : "UTC: \(context.organization.timezone) is no tz database name; set a time zone under Integrations"
        let now = Clock.epochMilliseconds() / 1000
        let today = APIHandler.day(containing: now + zone.offset(at: now))
        let days = today - Self.overviewDays + 1...today
        // One row per day for the whole organization, from its own hourly counts: 30 days read 720 rows at most,
        // however many partners it has.
        let counts = try api.dailyCounts(
            organizationID: context.organization.id, partnerID: nil, days: days, zone: zone, byPartner: false)
        var perDay: [Int64: (clicks: Int64, unique: Int64)] = [:]
        for count in counts {
            perDay[count.day, default: (0, 0)].clicks += count.clicks
            perDay[count.day, default: (0, 0)].unique += count.uniqueClicks
        }
        let chartDays = days.map { day in
            ClickChart.Day(
                date: APIHandler.format(day: day), clicks: perDay[day]?.clicks ?? 0,
                uniqueClicks: perDay[day]?.unique ?? 0)
        }
        let clicks = chartDays.reduce(0) { $0 + $1.clicks }
        let unique = chartDays.reduce(0) { $0 + $1.uniqueClicks }
        var content =
            #"<h2 id="totals">Last \#(Self.overviewDays) days</h2><ul class="cards" aria-labelledby="totals">"#
        content += Self.card("Clicks", String(clicks), id: "total-clicks")
        content += Self.card("Unique clicks", String(unique), id: "total-unique-clicks")
        content += "</ul>"
        // Claims, customers and commissions are the organization's as they stand, not the chart's 30 days.
        content +=
            #"<h2 id="customers-commissions">Customers and commissions</h2>"#
            + #"<ul class="cards" aria-labelledby="customers-commissions">"#
        content += try aggregateCards(context)
        content += "</ul>"
        content += #"<h2>Clicks per day <span class="hint">(\#(HTML.escape(zoneName)))</span></h2>"#
        content +=
            #"<ul class="legend"><li><span class="swatch clicks"></span>Clicks</li>"#
            + #"<li><span class="swatch unique"></span>Unique clicks</li></ul>"#
        content += ClickChart.svg(chartDays, title: "Clicks and unique clicks per day, last \(Self.overviewDays) days")
        content += "<details><summary>The numbers as a table</summary>" + ClickChart.table(chartDays) + "</details>"
        return page(context, title: "Overview", current: "overview", content: content)
    }

    /// One number of the Overview's cards.
    static func card(_ label: String, _ value: String, id: String) -> String {
        #"<li><span class="label">\#(HTML.escape(label))</span> <span class="value" id="\#(id)">"#
            + HTML.escape(value) + "</span></li>"
    }
}
