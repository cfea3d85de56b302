import EdgeStore
import LinkCore

/// `GET /v1/stats/clicks`: clicks and unique clicks per partner per local day, summed from the ingester's hourly
/// counts (``Store/clickCounts(_:)``), never from the clicks themselves.
extension APIHandler {
    /// The most days one request covers.
    static let maximumStatsDays: Int64 = 366
    /// The days a request without `from` covers, ending on `to`.
    static let defaultStatsDays: Int64 = 30

    func clickStats(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        // Without `timezone`, the days are the organization's, as its dashboard counts them.
        let zoneName: String
        let zone: TimeZoneRules
        if let given = request.query["timezone"] {
            guard let named = TimeZoneRules.named(given, in: timeZoneDirectory) else {
                throw APIError.invalidRequest(
                    "timezone must be an IANA timezone name this server knows, such as UTC, America/Los_Angeles or"
                        + " Etc/GMT+5 (\(Self.plusHint))")
            }
            (zoneName, zone) = (given, named)
        } else if let named = timeZone(of: organization) {
            (zoneName, zone) = (organization.timezone, named)
        } else {
            (zoneName, zone) = ("UTC", .utc)
        }
        let partner = try partnerID(request, of: organization)
        let now = Clock.epochMilliseconds() / 1000
        let today = Self.day(containing: now + zone.offset(at: now))
        // `from` first, as the query reads: of two bad dates, the first is named.
        let given = try Self.date(request, "from")
        let to = try Self.date(request, "to") ?? today
        let from = given ?? to - Self.defaultStatsDays + 1
        guard from <= to else { throw APIError.invalidRequest("from must not be after to") }
        guard to - from < Self.maximumStatsDays else {
            throw APIError.invalidRequest("from and to may cover at most \(Self.maximumStatsDays) days")
        }
        let counts = try dailyCounts(
            organizationID: organization.id, partnerID: partner, days: from...to, zone: zone)
        return APIResponse.success { object in
            object.string("timezone", zoneName)
            object.member("data") {
                $0.array(counts) { count, json in
                    json.object {
                        $0.string("date", Self.format(day: count.day))
                        $0.string("partner_id", count.partnerID)
                        $0.raw("clicks", String(count.clicks))
                        $0.raw("unique_clicks", String(count.uniqueClicks))
                    }
                }
            }
        }
    }

    /// The organization's time zone (its `timezone`, checked at import), which the dashboard and the click stats
    /// count days in; nil should this server lack its file, or an earlier build have stored a name that is no zone
    /// (both then count in UTC).
    func timeZone(of organization: OrganizationRecord) -> TimeZoneRules? {
        TimeZoneRules.named(organization.timezone, in: timeZoneDirectory)
    }

    /// The counts of local `days` in `zone`, by day then partner. An hour counts in the local day its start falls
    /// on: exact for zones whose offsets are whole hours; in a zone at a half or quarter hour (Asia/Kolkata,
    /// Asia/Kathmandu) the hour that straddles local midnight counts whole in the day it starts in.
    /// `byPartner: false` (and no `partnerID`): one row per day for the whole organization, partner id empty, read
    /// from its own hourly counts (24 rows a day however many partners it has).
    func dailyCounts(
        organizationID: String, partnerID: String?, days: ClosedRange<Int64>, zone: TimeZoneRules,
        byPartner: Bool = true
    ) throws -> [DailyClickCount] {
        // Every hour that could start on one of the days: offsets stay within ±26 h. The margin only finds the
        // offsets; each query below reads the hours of its run that start on one of the days, no more.
        let margin: Int64 = 26 * 3600
        let first = days.lowerBound * 86_400
        let past = (days.upperBound + 1) * 86_400
        var hour = first - margin
        let end = past + margin
        // Runs of hours with one offset: one store query each (two or three for a zone with daylight time).
        var spans: [(start: Int64, end: Int64, offset: Int64)] = []
        while hour < end {
            let offset = zone.offset(at: hour)
            if let last = spans.last, last.offset == offset, last.end == hour {
                spans[spans.count - 1].end = hour + 3600
            } else {
                spans.append((hour, hour + 3600, offset))
            }
            hour += 3600
        }
        let store = reader
        var merged: [DayAndPartner: (clicks: Int64, unique: Int64)] = [:]
        for span in spans {
            // The run's hours whose local start (hour + offset) falls on one of the days: every row the query
            // returns is a row of the answer (a day split by an offset change comes in two runs and merges into
            // one row), so a run that fills its limit means an answer of that many rows or more, and the margin's
            // days, never in the answer, never count towards it.
            let start = max(span.start, first - span.offset)
            let stop = min(span.end, past - span.offset)
            guard start < stop else { continue }
            let rows = try store.clickCounts(
                ClickCountQuery(
                    organizationID: organizationID, partnerID: partnerID, from: start * 1000, to: stop * 1000,
                    offsetMilliseconds: span.offset * 1000, byPartner: byPartner))
            guard rows.count < ClickCountQuery.maximumLimit else { throw Self.tooManyRows }
            for row in rows where days.contains(row.day) {
                merged[DayAndPartner(day: row.day, partnerID: row.partnerID), default: (0, 0)].clicks += row.clicks
                merged[DayAndPartner(day: row.day, partnerID: row.partnerID), default: (0, 0)].unique +=
                    row.uniqueClicks
            }
            // Checked after each run: no further run is read once the answer is too big.
            guard merged.count < ClickCountQuery.maximumLimit else { throw Self.tooManyRows }
        }
        return merged.map {
            DailyClickCount(
                day: $0.key.day, partnerID: $0.key.partnerID, clicks: $0.value.clicks, uniqueClicks: $0.value.unique)
        }.sorted { ($0.day, $0.partnerID) < ($1.day, $1.partnerID) }
    }

    private struct DayAndPartner: Hashable {
        let day: Int64
        let partnerID: String
    }

    private static var tooManyRows: APIError {
        APIError.invalidRequest(
            "the answer would hold \(ClickCountQuery.maximumLimit) rows or more: narrow from and to, or pass partner_id"
        )
    }

    /// A `YYYY-MM-DD` parameter as days since 1970-01-01, years 1970 to 9999.
    private static func date(_ request: APIRequest, _ name: String) throws -> Int64? {
        guard let text = request.query[name] else { return nil }
        guard let day = parse(date: text) else {
            throw APIError.invalidRequest(
                "\(name) must be a date such as 2026-11-30 (YYYY-MM-DD), from 1970-01-01 to 9999-12-31")
        }
        return day
    }

    static func parse(date text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1970,
            (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year)
        else { return nil }
        return Int64(Timestamp.daysFromCivil(year: year, month: month, day: day))
    }

    static func format(day: Int64) -> String {
        let (year, month, dayOfMonth) = Timestamp.civilFromDays(Int(day))
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(dayOfMonth, 2)
    }

    /// The day (since 1970-01-01) of a local time in seconds.
    static func day(containing seconds: Int64) -> Int64 {
        seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }
}
