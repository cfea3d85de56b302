import Testing

@testable import LinkCore

/// `first_seen_at` and every time the API prints go through `Timestamp`; expected values come from
/// `date -u -d … +%s`.
@Suite struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("1969-12-31T23:59:59Z", -1_000),
        ("2026-11-29T19:39:21Z", 1_795_981_161_000),
        ("2026-11-29t19:39:21z", 1_795_981_161_000),
        ("2026-11-29 19:39:21Z", 1_795_981_161_000),
        ("9999-12-31T23:59:59Z", 253_402_300_799_000),
    ])
    func parsesWholeSeconds(text: String, milliseconds: Int64) {
        #expect(Timestamp.parse(text) == milliseconds)
    }

    @Test(arguments: [
        ("2026-01-31T12:00:00+05:30", Int64(1_769_841_000_000)),
        ("2026-01-31T12:00:00+0530", 1_769_841_000_000),
        ("2026-01-31T12:00:00-08:00", 1_769_889_600_000),
        ("2026-01-31T12:00:00-0800", 1_769_889_600_000),
        ("2026-01-31T12:00:00+00:00", 1_769_860_800_000),
        ("2026-01-31T12:00:00-00:00", 1_769_860_800_000),
        ("2026-01-31T06:30:00Z", 1_769_841_000_000),
    ])
    func appliesOffsets(text: String, milliseconds: Int64) {
        #expect(Timestamp.parse(text) == milliseconds)
    }

    @Test(arguments: [
        (".5", Int64(500)), (".05", 50), (".123", 123), (".1234", 123), (".123456", 123), (".999999999", 999),
    ])
    func keepsMillisecondsOfAnyFraction(fraction: String, millis: Int64) {
        #expect(Timestamp.parse("1970-01-01T00:00:00\(fraction)Z") == millis)
        #expect(Timestamp.parse("2026-01-31T12:00:00\(fraction)+05:30") == 1_769_841_000_000 + millis)
    }

    @Test func leapYears() {
        #expect(Timestamp.parse("2024-02-29T12:00:00Z") == 1_709_208_000_000)
        #expect(Timestamp.parse("2000-02-29T00:00:00Z") == 951_782_400_000)
        #expect(Timestamp.parse("2023-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("1900-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("2100-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("2100-03-01T00:00:00Z") == 4_107_542_400_000)
    }

    /// What `since` on `/v1/clicks` and `prune --before` take: a date is its midnight UTC, a time is read as
    /// ``Timestamp/parse(_:)`` reads it, and nothing else passes.
    @Test func aDateOrATime() {
        #expect(Timestamp.parseDateOrTime("2026-01-01") == 1_767_225_600_000)
        #expect(Timestamp.parseDateOrTime("2024-02-29") == Timestamp.parse("2024-02-29T00:00:00Z"))
        #expect(Timestamp.parseDateOrTime("2026-01-01T01:00:00+01:00") == 1_767_225_600_000)
        for text in ["2026-02-30", "2026-1-01", "2026-01-0x", "20260101", "2026-01-01T", "2026-01-01Z", ""] {
            #expect(Timestamp.parseDateOrTime(text) == nil, "\(text)")
        }
    }

    @Test func aLeapSecondReadsAsTheNextMinute() {
        #expect(Timestamp.parse("2016-12-31T23:59:60Z") == Timestamp.parse("2017-01-01T00:00:00Z"))
    }

    @Test(arguments: [
        "", "2026-01-31", "2026-01-31T12:00:00", "2026-01-31T12:00:00.5",
        "2026-02-30T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
        "2026-01-00T00:00:00Z", "2026-01-31T25:00:00Z", "2026-01-31T24:00:00Z", "2026-01-31T12:60:00Z",
        "2026-01-31T12:00:61Z", "2026-1-31T12:00:00Z", "2026/01/31T12:00:00Z", "2026-01-31X12:00:00Z",
        "2026-01-31T12:00:00.Z", "2026-01-31T12:00:00.1234567890Z", "2026-01-31T12:00:00+5:30",
        "2026-01-31T12:00:00+05", "2026-01-31T12:00:00+24:00", "2026-01-31T12:00:00+05:60",
        "2026-01-31T12:00:00ZZ", "2026-01-31T12:00:00Z ", " 2026-01-31T12:00:00Z", "+2026-01-31T12:00:00Z",
        "2026-01-31T12:00:00 Z", "abcd-01-31T12:00:00Z", "2026-01-31T12:00:00\u{0}Z",
        "2026-01-31T12:00:00.123456789012345678901234567890Z",
    ])
    func refusesWhatIsNotATime(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func formatsWithMillisecondsInUTC() {
        #expect(Timestamp.format(0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.format(-1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.format(1_709_208_000_007) == "2024-02-29T12:00:00.007Z")
        #expect(Timestamp.format(1_795_981_161_123) == "2026-11-29T19:39:21.123Z")
        #expect(Timestamp.format(253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    }

    @Test func formatAndParseRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let millis = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator)
            #expect(Timestamp.parse(Timestamp.format(millis)) == millis, "\(millis)")
        }
        // Every day of a leap and a common year, around midnight.
        let start = Timestamp.parse("2023-01-01T00:00:00Z")!
        for day in Int64(0)..<731 {
            let midnight = start + day * 86_400_000
            #expect(Timestamp.parse(Timestamp.format(midnight)) == midnight)
            #expect(Timestamp.parse(Timestamp.format(midnight - 1)) == midnight - 1)
        }
    }
}
