/// The Overview's chart: clicks and unique clicks per day as an inline SVG of paired bars, with a title and a
/// description for screen readers, and a table of the same numbers beside it (``table(_:)``).
///
/// Only digits, fixed markup and escaped dates go into it, and no `style` attribute (the page's Content-Security-
/// Policy allows none): colours come from the page's stylesheet through classes, so the chart follows light and
/// dark.
enum ClickChart {
    /// One day's numbers.
    struct Day {
        /// `YYYY-MM-DD`.
        var date: String
        var clicks: Int64
        var uniqueClicks: Int64
    }

    static let width = 720
    static let height = 260
    private static let left = 44
    private static let right = 8
    private static let top = 12
    private static let bottom = 36

    static func svg(_ days: [Day], title: String) -> String {
        let maximum = max(1, days.map(\.clicks).max() ?? 0)
        let scale = niceCeiling(maximum)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let slot = days.isEmpty ? plotWidth : plotWidth / days.count
        let bar = max(1, (slot - 2) / 2)
        var out =
            #"<svg class="chart" id="click-chart" role="img" aria-labelledby="chart-title chart-description" "#
            + #"viewBox="0 0 \#(width) \#(height)" xmlns="http://www.w3.org/2000/svg">"#
        out += #"<title id="chart-title">\#(HTML.escape(title))</title>"#
        let total = days.reduce(0) { $0 + $1.clicks }
        let unique = days.reduce(0) { $0 + $1.uniqueClicks }
        out +=
            #"<desc id="chart-description">\#(total) clicks and \#(unique) unique clicks over \#(days.count) days; "#
            + "the table below lists each day.</desc>"
        // The value axis: 0, half and the top, with grid ticks.
        for fraction in [0, 1, 2] {
            let value = scale * Int64(fraction) / 2
            let y = top + plotHeight - plotHeight * fraction / 2
            out +=
                #"<line class="axis" x1="\#(left)" x2="\#(width - right)" y1="\#(y)" y2="\#(y)" stroke-width="0.5"/>"#
            out += #"<text x="\#(left - 6)" y="\#(y + 4)" text-anchor="end">\#(value)</text>"#
        }
        for (index, day) in days.enumerated() {
            let x = left + index * slot + 1
            let clicksHeight = Int(Int64(plotHeight) * day.clicks / scale)
            let uniqueHeight = Int(Int64(plotHeight) * day.uniqueClicks / scale)
            out +=
                #"<rect class="clicks" x="\#(x)" y="\#(top + plotHeight - clicksHeight)" width="\#(bar)" "#
                + #"height="\#(clicksHeight)"><title>\#(HTML.escape(day.date)): \#(day.clicks) clicks</title></rect>"#
            out +=
                #"<rect class="unique" x="\#(x + bar)" y="\#(top + plotHeight - uniqueHeight)" width="\#(bar)" "#
                + #"height="\#(uniqueHeight)"><title>\#(HTML.escape(day.date)): \#(day.uniqueClicks) unique clicks"#
                + "</title></rect>"
            // A date label every 7 days, counted back from the last day.
            if (days.count - 1 - index) % 7 == 0 {
                let label = HTML.escape(String(day.date.dropFirst(5)))  // MM-DD
                out += #"<text x="\#(x + bar)" y="\#(height - bottom + 16)" text-anchor="middle">\#(label)</text>"#
            }
        }
        out += #"<line class="axis" x1="\#(left)" x2="\#(left)" y1="\#(top)" y2="\#(top + plotHeight)"/>"#
        out += "</svg>"
        return out
    }

    /// The same numbers as a table, for screen readers and for reading exact values.
    static func table(_ days: [Day]) -> String {
        var out =
            #"<div class="table-wrap"><table id="chart-table"><caption class="sr-only">Clicks per day</caption>"#
            + #"<thead><tr><th scope="col">Day</th><th scope="col" class="number">Clicks</th>"#
            + #"<th scope="col" class="number">Unique clicks</th></tr></thead><tbody>"#
        for day in days.reversed() {
            out +=
                #"<tr><th scope="row">\#(HTML.escape(day.date))</th><td class="number">\#(day.clicks)</td>"#
                + #"<td class="number">\#(day.uniqueClicks)</td></tr>"#
        }
        return out + "</tbody></table></div>"
    }

    /// The smallest of 2, 4 or 10 times a power of ten (so half of it is whole) that is at least `value`: the top of the value axis.
    static func niceCeiling(_ value: Int64) -> Int64 {
        var power: Int64 = 1
        while true {
            for step in [2, 4, 10] as [Int64] where step * power >= value { return step * power }
            power *= 10
        }
    }
}
