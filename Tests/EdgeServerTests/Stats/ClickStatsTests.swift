import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// `GET /v1/stats/clicks`: clicks and unique clicks per partner per local day, from the hourly counts.
@Suite struct ClickStatsTests {
    static let hour: Int64 = 3_600_000
    /// 2026-11-30T00:00:00Z.
    static let november30: Int64 = 1_795_996_800_000
    /// 2026-03-08T00:00:00Z: Los Angeles moves to daylight time at 10:00Z.
    static let march8: Int64 = 1_772_928_000_000

    static func server(store: StoreKind = .sqlite) throws -> TestServer {
        let zones = String(try TestFiles.fixture("zoneinfo/America/Los_Angeles").dropLast("/America/Los_Angeles".count))
        return try TestServer(store: store) { $0.timeZoneDirectory = zones }
    }

    static func click(_ name: String, at time: Int64, partner: String = "part_sam") -> ClickRecord {
        ClickRecord(
            id: "clk_" + name, createdAt: time, organizationID: "org_acme", programID: "prg_acme", partnerID: partner,
            code: partner == "part_sam" ? "SAM20" : "LEE", platform: .ios, userAgent: Agents.iPhone, referer: "",
            ip: "192.0.2.1")
    }

    static func seed(_ server: TestServer, _ clicks: [ClickRecord], repeats: [ClickRecord] = []) throws {
        try server.store.ingest(
            clicks, repeats: repeats, checkpoint: JournalCheckpoint(segment: "test/seed", offset: 1))
    }

    static func stats(_ server: TestServer, _ query: String, key: String = "sk_acme_secret") throws -> HTTPResponse {
        try server.client().request("GET", "/v1/stats/clicks" + query, headers: [("Authorization", "Bearer \(key)")])
    }

    /// The rows as `date partner clicks/unique`.
    static func rows(_ response: HTTPResponse) throws -> [String] {
        #expect(response.status == 200, "\(response.text)")
        #expect(try response.json["success"]?.boolValue == true)
        return try #require(try response.json["data"]?.arrayValue).map { row in
            "\(row["date"]?.stringValue ?? "?") \(row["partner_id"]?.stringValue ?? "?") "
                + "\(row["clicks"]?.intValue ?? -1)/\(row["unique_clicks"]?.intValue ?? -1)"
        }
    }

    @Test func clicksAt0730ZAnd0830ZAreOneUTCDayAndTwoDaysInLosAngeles() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let first = Self.click("a", at: Self.november30 + 7 * Self.hour + Self.hour / 2)
        var repeated = first
        repeated.createdAt = Self.november30 + 8 * Self.hour + Self.hour / 2
        try Self.seed(server, [first], repeats: [repeated])
        #expect(try Self.rows(Self.stats(server, "?from=2026-11-29&to=2026-11-30")) == ["2026-11-30 part_sam 2/1"])
        #expect(
            try Self.rows(Self.stats(server, "?from=2026-11-29&to=2026-11-30&timezone=America/Los_Angeles"))
                == ["2026-11-29 part_sam 1/1", "2026-11-30 part_sam 1/0"])
        #expect(
            try Self.rows(Self.stats(server, "?from=2026-11-30&to=2026-11-30&timezone=America/Los_Angeles"))
                == ["2026-11-30 part_sam 1/0"], "from and to are local days, inclusive")
    }

    /// Without `timezone`, the days are the organization's `timezone`, as its dashboard's Overview counts them (the
    /// stats were counted in UTC, so the dashboard and the API disagreed on a day's clicks); `timezone=UTC` still
    /// asks for UTC, and the answer says which zone its days are in. An organization's zone this server lacks is UTC,
    /// as on the dashboard.
    @Test func withoutATimezoneTheOrganizationsZoneCountsTheDays() throws {
        let zones = String(try TestFiles.fixture("zoneinfo/America/Los_Angeles").dropLast("/America/Los_Angeles".count))
        for (zone, expected) in [("America/Los_Angeles", "America/Los_Angeles"), ("Europe/Paris", "UTC")] {
            let config = ConfigFixtures.standard.replacingOccurrences(
                of: #""secret_key":"sk_acme_secret","#, with: #""secret_key":"sk_acme_secret","timezone":"\#(zone)","#)
            let server = try TestServer(config: config) { $0.timeZoneDirectory = zones }
            defer { server.shutdown() }
            let first = Self.click("a", at: Self.november30 + 7 * Self.hour + Self.hour / 2)
            var repeated = first
            repeated.createdAt = Self.november30 + 8 * Self.hour + Self.hour / 2
            try Self.seed(server, [first], repeats: [repeated])
            let byDefault = try Self.stats(server, "?from=2026-11-29&to=2026-11-30")
            #expect(try byDefault.json["timezone"]?.stringValue == expected, "\(zone): \(byDefault.text)")
            #expect(
                try Self.rows(byDefault)
                    == (expected == "UTC"
                        ? ["2026-11-30 part_sam 2/1"] : ["2026-11-29 part_sam 1/1", "2026-11-30 part_sam 1/0"]),
                "\(zone)")
            let utc = try Self.stats(server, "?from=2026-11-29&to=2026-11-30&timezone=UTC")
            #expect(try Self.rows(utc) == ["2026-11-30 part_sam 2/1"], "\(zone)")
            #expect(try utc.json["timezone"]?.stringValue == "UTC")
        }
    }

    @Test func aDaylightTimeChangeMovesWhereLocalMidnightFalls() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        // 07:30Z and 08:30Z on March 8 are 23:30 on the 7th and 00:30 on the 8th (PST, -8); 06:30Z and 07:30Z on
        // March 9 are 23:30 on the 8th and 00:30 on the 9th (PDT, -7). A fixed -8 would put both in the 8th.
        try Self.seed(
            server,
            [
                Self.click("a", at: Self.march8 + 7 * Self.hour + Self.hour / 2),
                Self.click("b", at: Self.march8 + 8 * Self.hour + Self.hour / 2),
                Self.click("c", at: Self.march8 + 30 * Self.hour + Self.hour / 2),
                Self.click("d", at: Self.march8 + 31 * Self.hour + Self.hour / 2),
            ])
        #expect(
            try Self.rows(Self.stats(server, "?from=2026-03-01&to=2026-03-31&timezone=America/Los_Angeles"))
                == ["2026-03-07 part_sam 1/1", "2026-03-08 part_sam 2/2", "2026-03-09 part_sam 1/1"])
    }

    @Test func partnersAreSortedAndFilteredAndDaysWithoutClicksAreLeftOut() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        try Self.seed(
            server,
            [
                Self.click("a", at: Self.november30), Self.click("b", at: Self.november30, partner: "part_lee"),
                Self.click("c", at: Self.november30 + 3 * 24 * Self.hour, partner: "part_lee"),
            ])
        #expect(
            try Self.rows(Self.stats(server, "?from=2026-11-01&to=2026-12-31"))
                == ["2026-11-30 part_lee 1/1", "2026-11-30 part_sam 1/1", "2026-12-03 part_lee 1/1"])
        #expect(
            try Self.rows(Self.stats(server, "?from=2026-11-01&to=2026-12-31&partner_id=part_lee"))
                == ["2026-11-30 part_lee 1/1", "2026-12-03 part_lee 1/1"])
        // A partner the organization does not have (none, or another organization's) is refused, never an empty
        // answer that would read as "no clicks".
        for stranger in ["part_nobody", "part_zed"] {
            let refused = try Self.stats(server, "?from=2026-11-01&to=2026-12-31&partner_id=\(stranger)")
            #expect(refused.status == 400, "\(refused.text)")
            #expect(
                try refused.json["message"]?.stringValue
                    == "partner_id \(stranger) is not a partner of this organization", "\(refused.text)")
        }
        #expect(
            try Self.rows(Self.stats(server, "?from=2026-11-01&to=2026-12-31&partner_id=part_idle")) == [],
            "an inactive partner of the organization is one")
        #expect(try Self.rows(Self.stats(server, "?from=2026-11-01&to=2026-12-31", key: "sk_other_secret")) == [])
    }

    @Test func inKolkataAnHourCountsInTheLocalDayItStartsIn() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        // 18:15Z is 23:45 IST on the 30th; 18:45Z is 00:15 on December 1st, but its hour (18:00Z) starts at 23:30.
        try Self.seed(
            server,
            [
                Self.click("a", at: Self.november30 + 18 * Self.hour + Self.hour / 4),
                Self.click("b", at: Self.november30 + 18 * Self.hour + 3 * Self.hour / 4),
                Self.click("c", at: Self.november30 + 19 * Self.hour),
            ])
        #expect(
            try Self.rows(Self.stats(server, "?from=2026-11-30&to=2026-12-01&timezone=Asia/Kolkata"))
                == ["2026-11-30 part_sam 2/2", "2026-12-01 part_sam 1/1"])
    }

    @Test func withoutDatesTheLast30DaysToTodayAreCounted() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let now = Clock.epochMilliseconds()
        try Self.seed(server, [Self.click("a", at: now), Self.click("b", at: now - 40 * 24 * Self.hour)])
        let rows = try Self.rows(Self.stats(server, ""))
        #expect(rows.count == 1 && rows[0].hasSuffix(" part_sam 1/1"), "\(rows)")
    }

    /// The cap is on the answer's rows: 400 partners with a click every day are 9,600 rows over 24 days (answered)
    /// and 10,000 over 25 (refused), however many clicks the days around the range hold. The store was once asked
    /// for 26 h on either side and its rows counted before the days outside the range were dropped, so the 24 days
    /// were refused for the 10,400 rows of 26.
    @Test(arguments: StoreKind.allCases) func theRowCapCountsTheAnswerNotTheDaysAroundIt(_ kind: StoreKind) throws {
        let server = try Self.server(store: kind)
        defer { server.shutdown() }
        let partners = (0..<400).map { "part_p\($0)" }
        // The organization's partners: `partner_id` must name one of them.
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":["#
                + partners.map { #"{"id":"\#($0)","name":"\#($0)","status":"active"}"# }.joined(separator: ",")
                + "]}]}]}")
        // 2026-10-30 to 2026-11-27 at 12:00Z: two days before 2026-11-01 and two after 2026-11-25.
        let firstNoon = Self.november30 - 31 * 24 * Self.hour + 12 * Self.hour
        var clicks: [ClickRecord] = []
        for day in 0..<29 {
            for partner in partners {
                clicks.append(
                    Self.click("\(day)_\(partner)", at: firstNoon + Int64(day) * 24 * Self.hour, partner: partner))
            }
        }
        try Self.seed(server, clicks)
        let answered = try Self.rows(Self.stats(server, "?from=2026-11-01&to=2026-11-24"))
        #expect(answered.count == 24 * 400)
        #expect(answered.first == "2026-11-01 part_p0 1/1" && answered.last == "2026-11-24 part_p99 1/1")
        let refused = try Self.stats(server, "?from=2026-11-01&to=2026-11-25")
        #expect(refused.status == 400, "\(refused.text)")
        #expect(try refused.json["error"]?.stringValue == "invalid_request")
        #expect(try refused.json["message"]?.stringValue?.contains("10000 rows or more") == true, "\(refused.text)")
        #expect(try refused.json["message"]?.stringValue?.contains("partner_id") == true, "\(refused.text)")
        // Asked at once after the import, before a reload may have brought the partners to the table: the store
        // answers for them.
        let onePartner = try Self.rows(Self.stats(server, "?from=2026-11-01&to=2026-11-25&partner_id=part_p7"))
        #expect(onePartner.count == 25 && onePartner.allSatisfy { $0.hasSuffix(" part_p7 1/1") })
    }

    /// Over the system's tzdata: only names of the tz database are zones. The other files a zone directory holds
    /// (`localtime`, the host's own zone; `posixrules`; the `posix/` and `right/` copies; the tables) and `Factory`
    /// (local time unknown) are refused like an unknown name, and so are paths out of the directory, however they
    /// are spelled. `localtime`, `posixrules`, `Factory` and the copies were read as zones.
    @Test func onlyTimeZoneDatabaseNamesAreZones() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        for name in [
            "localtime", "posixrules", "Factory", "posix/Europe/Paris", "right/Europe/Paris", "posix/UTC",
            "zone.tab", "zone1970.tab", "tzdata.zi", "leapseconds", "iso3166.tab", "utc", "europe/paris",
            "..%2Fzoneinfo%2FEurope%2FParis", "%2Fusr%2Fshare%2Fzoneinfo%2FEurope%2FParis", "Europe%2FParis%00",
            "Europe/Paris%00.tab", "./Europe/Paris",
        ] {
            let response = try Self.stats(server, "?timezone=" + name)
            #expect(response.status == 400, "\(name): \(response.text)")
            #expect(try response.json["error"]?.stringValue == "invalid_request", "\(name)")
            #expect(try response.json["message"]?.stringValue?.hasPrefix("timezone must be") == true, "\(name)")
        }
        for name in ["UTC", "Etc/UTC", "Europe/Paris", "US/Pacific", "Etc/GMT%2B5", "America/Port-au-Prince"] {
            #expect(try Self.rows(Self.stats(server, "?timezone=" + name)) == [], "\(name)")
        }
    }

    @Test func badParametersGet400NamingTheParameter() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let cases: [(String, String)] = [
            ("?from=2026-13-01", "from"), ("?to=2026-02-30", "to"), ("?from=26-11-30", "from"),
            ("?from=2026-11-30T00:00:00Z", "from"), ("?to=yesterday", "to"),
            // A date before 1970 is out of range, and the message says the range; of two bad dates, `from` first.
            ("?from=1969-12-31", "from must be a date such as 2026-11-30 (YYYY-MM-DD), from 1970-01-01 to 9999-12-31"),
            ("?from=0001-01-01&to=0001-12-31", "from must be"),
            ("?from=2026-12-01&to=2026-11-30", "from must not be after to"),
            ("?from=2025-01-01&to=2026-01-02", "366 days"),
            ("?timezone=Mars/Olympus_Mons", "timezone"), ("?timezone=../../../../etc/passwd", "timezone"),
            ("?timezone=America", "timezone"), ("?timezone=", "timezone"), ("?partner_id=", "partner_id"),
            ("?partner_id=" + String(repeating: "p", count: 65), "partner_id"),
        ]
        for (query, named) in cases {
            let response = try Self.stats(server, query)
            #expect(response.status == 400, "\(query): \(response.text)")
            #expect(response.header("content-type")?.hasPrefix("application/json") == true)
            #expect(try response.json["success"]?.boolValue == false, "\(query)")
            #expect(try response.json["error"]?.stringValue == "invalid_request", "\(query)")
            #expect(try response.json["message"]?.stringValue?.contains(named) == true, "\(query): \(response.text)")
        }
        // `Etc/GMT+5` with its `+` unencoded arrives as `Etc/GMT 5`: the message says how to write it.
        let plus = try Self.stats(server, "?timezone=Etc/GMT+5")
        #expect(plus.status == 400)
        #expect(try plus.json["message"]?.stringValue?.contains("write it %2B") == true, "\(plus.text)")
        #expect(try Self.rows(Self.stats(server, "?from=2025-01-01&to=2026-01-01")) == [], "366 days are allowed")
        for key in ["sk_wrong", "pk_acme"] {
            #expect(try Self.stats(server, "", key: key).status == 401)
        }
    }
}
