import Testing

@testable import LinkCore

/// `Timestamp.adding(months:to:)`, the calendar behind a rule's `duration_months`: the same UTC wall-clock time
/// that many months later, on the month's last day when the day does not exist. Here beside the commission
/// tests rather than in `Claims/`, since only commissions count months.
@Suite struct TimestampAddingMonthsTests {
    static func time(_ text: String) -> Int64 { Timestamp.parse(text)! }

    @Test(arguments: [
        ("2026-01-31T10:00:00Z", 1, "2026-02-28T10:00:00.000Z"),
        ("2024-01-31T10:00:00Z", 1, "2024-02-29T10:00:00.000Z"),
        ("2000-01-31T10:00:00Z", 1, "2000-02-29T10:00:00.000Z"),
        ("2100-01-31T10:00:00Z", 1, "2100-02-28T10:00:00.000Z"),
        ("2026-01-31T10:00:00Z", 2, "2026-03-31T10:00:00.000Z"),
        ("2026-01-31T10:00:00Z", 3, "2026-04-30T10:00:00.000Z"),
        ("2026-03-31T23:59:59.999Z", 1, "2026-04-30T23:59:59.999Z"),
        ("2026-01-15T00:00:00Z", 1, "2026-02-15T00:00:00.000Z"),
        ("2026-03-02T09:15:00Z", 1, "2026-04-02T09:15:00.000Z"),
        ("2026-11-30T12:00:00Z", 1, "2026-12-30T12:00:00.000Z"),
        ("2026-12-31T12:00:00Z", 1, "2027-01-31T12:00:00.000Z"),
        ("2026-12-15T12:00:00Z", 2, "2027-02-15T12:00:00.000Z"),
    ])
    func addsCalendarMonths(start: String, months: Int, end: String) {
        #expect(Timestamp.format(Timestamp.adding(months: months, to: Self.time(start))) == end)
    }

    @Test(arguments: [
        ("2026-01-31T10:00:00Z", 12, "2027-01-31T10:00:00.000Z"),
        ("2024-02-29T10:00:00Z", 12, "2025-02-28T10:00:00.000Z"),
        ("2024-02-29T10:00:00Z", 48, "2028-02-29T10:00:00.000Z"),
        ("2026-03-02T09:15:00Z", 24, "2028-03-02T09:15:00.000Z"),
        ("2026-03-02T09:15:00Z", 1_200, "2126-03-02T09:15:00.000Z"),
    ])
    func addsYears(start: String, months: Int, end: String) {
        #expect(Timestamp.format(Timestamp.adding(months: months, to: Self.time(start))) == end)
    }

    @Test(arguments: [
        ("2026-03-31T10:00:00Z", -1, "2026-02-28T10:00:00.000Z"),
        ("2024-03-31T10:00:00Z", -1, "2024-02-29T10:00:00.000Z"),
        ("2026-01-15T10:00:00Z", -1, "2025-12-15T10:00:00.000Z"),
        ("2026-01-31T10:00:00Z", -12, "2025-01-31T10:00:00.000Z"),
        ("2025-02-28T10:00:00Z", -12, "2024-02-28T10:00:00.000Z"),
        ("2026-05-31T10:00:00Z", -3, "2026-02-28T10:00:00.000Z"),
        ("1970-01-31T00:00:00Z", -1, "1969-12-31T00:00:00.000Z"),
    ])
    func subtractsMonths(start: String, months: Int, end: String) {
        #expect(Timestamp.format(Timestamp.adding(months: months, to: Self.time(start))) == end)
    }

    @Test func zeroMonthsIsTheSameTime() {
        for text in ["2026-01-31T10:00:00Z", "2024-02-29T23:59:59.999Z", "1969-12-31T23:59:59.999Z"] {
            #expect(Timestamp.adding(months: 0, to: Self.time(text)) == Self.time(text))
        }
    }

    @Test func beforeNineteenSeventy() {
        #expect(Timestamp.adding(months: 1, to: -1) == Self.time("1970-01-31T23:59:59.999Z"))
        #expect(Timestamp.adding(months: 1, to: Self.time("1969-01-31T12:00:00Z")) == Self.time("1969-02-28T12:00:00Z"))
    }

    /// Months do not add up like days: Jan 31 + 1 + 1 is Mar 28, Jan 31 + 2 is Mar 31.
    @Test func monthsDoNotCompose() {
        let start = Self.time("2026-01-31T10:00:00Z")
        let twice = Timestamp.adding(months: 1, to: Timestamp.adding(months: 1, to: start))
        #expect(twice == Self.time("2026-03-28T10:00:00Z"))
        #expect(Timestamp.adding(months: 2, to: start) == Self.time("2026-03-31T10:00:00Z"))
    }

    /// Random times and month counts: the time of day is kept to the millisecond, the calendar month moves by
    /// exactly `months`, and the day of the month is kept or, in a shorter month, becomes its last day.
    @Test func keepsTheTimeOfDayAndTheDay() {
        func fields(_ milliseconds: Int64) -> (month: Int, day: Int, timeOfDay: Int64) {
            let text = Timestamp.format(milliseconds)  // yyyy-mm-ddThh:mm:ss.mmmZ
            let year = Int(text.prefix(4))!
            let month = Int(text.dropFirst(5).prefix(2))!
            let day = Int(text.dropFirst(8).prefix(2))!
            return (
                year * 12 + month - 1, day, milliseconds - milliseconds.dividedRoundingDown(by: 86_400_000) * 86_400_000
            )
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let start = Int64.random(in: 0...4_000_000_000_000, using: &generator)
            let months = Int.random(in: -600...600, using: &generator)
            let (startMonth, startDay, startTime) = fields(start)
            let (endMonth, endDay, endTime) = fields(Timestamp.adding(months: months, to: start))
            #expect(endTime == startTime)
            #expect(endMonth == startMonth + months)
            #expect(endDay == startDay || (endDay < startDay && endDay >= 28), "\(start) + \(months) months")
        }
    }
}
