import LinkCore

/// A POSIX TZ rule as a TZif footer holds it (RFC 8536 section 3.3, with its extensions: hours of a transition
/// time from -167 to 167): standard time, and optionally daylight time with the rules that start and end it, e.g.
/// `PST8PDT,M3.2.0,M11.1.0`, `<+0530>-5:30`, `CET-1CEST,M3.5.0,M10.5.0/3`, `IST-1GMT0,M10.5.0,M3.5.0/1`.
///
/// Offsets in the text count west of Greenwich as positive; ``offset(at:)`` answers east-positive seconds, as
/// `TimeZoneRules` does.
struct PosixTimeZoneRule: Sendable, Equatable {
    /// A day of the year a change happens on.
    enum Day: Sendable, Equatable {
        /// `Jn`: day 1–365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0–365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (1–5, 5 the last) of month `m`.
        case weekday(month: Int, week: Int, weekday: Int)
    }

    /// When daylight time starts and ends, each a day and a local time in seconds (of the time then in force).
    struct Change: Sendable, Equatable {
        let day: Day
        let time: Int64
    }

    let standardOffset: Int64
    /// Daylight time's offset and its start and end; `nil` for a zone without it.
    let daylight: (offset: Int64, start: Change, end: Change)?

    static func == (left: Self, right: Self) -> Bool {
        left.standardOffset == right.standardOffset && left.daylight?.offset == right.daylight?.offset
            && left.daylight?.start == right.daylight?.start && left.daylight?.end == right.daylight?.end
    }

    /// Parses a rule; `nil` for anything that is not one (a daylight name without its start and end included: a
    /// TZif footer always gives them).
    init?(_ text: [UInt8]) {
        var scanner = Scanner(bytes: text)
        guard scanner.name(), let standard = scanner.offset(maximumHours: 24) else { return nil }
        standardOffset = -standard
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !scanner.peek(0x2C) {
            guard let offset = scanner.offset(maximumHours: 24) else { return nil }
            daylightOffset = -offset
        }
        guard scanner.take(0x2C), let start = scanner.change(), scanner.take(0x2C), let end = scanner.change(),
            scanner.atEnd
        else { return nil }
        daylight = (daylightOffset, start, end)
    }

    /// The offset east of UTC, in seconds, at `time` (seconds since 1970, UTC).
    func offset(at time: Int64) -> Int64 {
        guard let daylight else { return standardOffset }
        let local = time + standardOffset
        let (year, _, _) = Timestamp.civilFromDays(Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400))
        // Each change happens at a local time of the time in force before it.
        let start = Self.seconds(daylight.start, year: year) - standardOffset
        let end = Self.seconds(daylight.end, year: year) - daylight.offset
        let isDaylight = start < end ? (time >= start && time < end) : (time < end || time >= start)
        return isDaylight ? daylight.offset : standardOffset
    }

    /// Local seconds since 1970 of a change in `year`.
    private static func seconds(_ change: Change, year: Int) -> Int64 {
        let january1 = Timestamp.daysFromCivil(year: year, month: 1, day: 1)
        let leap = Timestamp.daysIn(month: 2, year: year) == 29
        let day: Int
        switch change.day {
        case .julian(let number): day = january1 + number - 1 + (leap && number >= 60 ? 1 : 0)
        case .zeroBased(let number): day = january1 + number
        case .weekday(let month, let week, let weekday):
            let first = Timestamp.daysFromCivil(year: year, month: month, day: 1)
            // 1970-01-01 was a Thursday (4).
            let firstWeekday = (first % 7 + 11) % 7
            var candidate = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            while candidate >= first + Timestamp.daysIn(month: month, year: year) { candidate -= 7 }
            day = candidate
        }
        return Int64(day) * 86_400 + change.time
    }

    /// Reads the parts of a rule's text.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

        func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek(byte) else { return false }
            position += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<…>` of letters, digits, `+` and `-`.
        mutating func name() -> Bool {
            if take(0x3C) {
                let start = position
                while position < bytes.count, bytes[position] != 0x3E {
                    let byte = bytes[position]
                    guard Self.isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D else {
                        return false
                    }
                    position += 1
                }
                guard position - start >= 3, take(0x3E) else { return false }
                return true
            }
            let start = position
            while position < bytes.count, Self.isLetter(bytes[position]) { position += 1 }
            return position - start >= 3
        }

        /// An unsigned number of at most `digits` digits.
        mutating func number(digits: Int) -> Int? {
            let start = position
            var value = 0
            while position < bytes.count, position - start < digits, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                value = value * 10 + Int(bytes[position] - 0x30)
                position += 1
            }
            return position > start ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]`, in seconds, hours at most `maximumHours`.
        mutating func offset(maximumHours: Int) -> Int64? {
            var sign: Int64 = 1
            if take(0x2D) { sign = -1 } else { _ = take(0x2B) }
            guard let hours = number(digits: 3), hours <= maximumHours else { return nil }
            var seconds = hours * 3600
            if take(0x3A) {
                guard let minutes = number(digits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(0x3A) {
                    guard let rest = number(digits: 2), rest < 60 else { return nil }
                    seconds += rest
                }
            }
            return sign * Int64(seconds)
        }

        /// `Jn`, `n` or `Mm.w.d`, then an optional `/time` (default 02:00).
        mutating func change() -> Change? {
            let day: Day
            if take(0x4A) {
                guard let number = number(digits: 3), (1...365).contains(number) else { return nil }
                day = .julian(number)
            } else if take(0x4D) {
                guard let month = number(digits: 2), (1...12).contains(month), take(0x2E),
                    let week = number(digits: 1), (1...5).contains(week), take(0x2E),
                    let weekday = number(digits: 1), weekday <= 6
                else { return nil }
                day = .weekday(month: month, week: week, weekday: weekday)
            } else {
                guard let number = number(digits: 3), number <= 365 else { return nil }
                day = .zeroBased(number)
            }
            var time: Int64 = 7200
            if take(0x2F) {
                guard let given = offset(maximumHours: 167) else { return nil }
                time = given
            }
            return Change(day: day, time: time)
        }
    }
}
