/// ISO 8601 timestamps as milliseconds since 1970, without Foundation.
public enum Timestamp {
    /// Parses a date, `2026-06-01`, as its midnight UTC, or a time as ``parse(_:)`` does; `nil` for anything else.
    public static func parseDateOrTime(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        let isDay =
            bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) }
        return parse(isDay ? text + "T00:00:00Z" : text)
    }

    /// Parses `2026-11-29T19:39:21Z`, with optional fractional seconds and a `Z` or `±hh:mm` / `±hhmm`
    /// offset; `nil` for anything else, including impossible dates.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == 0x2D, let month = number(5, 2), bytes[7] == 0x2D,
            let day = number(8, 2), bytes[10] == 0x54 || bytes[10] == 0x74 || bytes[10] == 0x20,
            let hour = number(11, 2), bytes[13] == 0x3A, let minute = number(14, 2), bytes[16] == 0x3A,
            let second = number(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var index = 19
        var millis = 0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 3 { millis = millis * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0, digits <= 9 else { return nil }
            // Scale to milliseconds; more than three digits were truncated above (`4..<3` would trap).
            for _ in min(digits, 3)..<3 { millis *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offsetMinutes = 0
        if bytes[index] == 0x5A || bytes[index] == 0x7A {
            index += 1
        } else if bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign = bytes[index] == 0x2D ? -1 : 1
            guard let offsetHours = number(index + 1, 2) else { return nil }
            var cursor = index + 3
            if cursor < bytes.count, bytes[cursor] == 0x3A { cursor += 1 }
            guard let offsetMins = number(cursor, 2), offsetHours < 24, offsetMins < 60 else { return nil }
            offsetMinutes = sign * (offsetHours * 60 + offsetMins)
            index = cursor + 2
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second - offsetMinutes * 60
        return Int64(seconds) * 1000 + Int64(millis)
    }

    /// Formats milliseconds since 1970 as `2026-11-29T19:39:21.123Z`.
    public static func format(_ milliseconds: Int64) -> String {
        let seconds = Int(milliseconds.dividedRoundingDown(by: 1000))
        let millis = Int(milliseconds - Int64(seconds) * 1000)
        let days = seconds.dividedRoundingDown(by: 86400)
        let rest = seconds - days * 86400
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):"
            + "\(pad(rest % 60, 2)).\(pad(millis, 3))Z"
    }

    /// The same wall-clock time (UTC) `months` calendar months later; a day past the end of the month moves to
    /// the month's last day (Jan 31 + 1 month is Feb 28 or 29).
    ///
    ///     Timestamp.adding(months: 1, to: Timestamp.parse("2026-01-31T10:00:00Z")!)  // 2026-02-28T10:00:00Z
    /// Total: the result is clamped to the years −100000…100000 rather than overflowing.
    public static func adding(months: Int, to milliseconds: Int64) -> Int64 {
        let limit: Int64 = 3_155_760_000_000_000  // 100,000 years of milliseconds
        let months = max(-1_200_000, min(1_200_000, months))
        let milliseconds = max(-limit, min(limit, milliseconds))
        let days = Int(milliseconds.dividedRoundingDown(by: 86_400_000))
        let timeOfDay = milliseconds - Int64(days) * 86_400_000
        let (year, month, day) = civilFromDays(days)
        let monthIndex = year * 12 + (month - 1) + months
        let newYear = monthIndex.dividedRoundingDown(by: 12)
        let newMonth = monthIndex - newYear * 12 + 1
        let newDay = min(day, daysIn(month: newMonth, year: newYear))
        return Int64(daysFromCivil(year: newYear, month: newMonth, day: newDay)) * 86_400_000 + timeOfDay
    }

    /// The days of a month (1–12) of a proleptic Gregorian year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// The year, month (1–12) and day of a count of days since 1970-01-01.
    public static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension BinaryInteger {
    func dividedRoundingDown(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
