import LinkCore

/// A timezone's UTC offset at any time, read from a TZif file (RFC 8536, version 2 or later), for summing hourly
/// click counts into local days without Foundation and without `localtime_r` (whose `TZ` is process-global).
///
/// The file's 64-bit transitions give the offset up to the last one; after it, the footer's POSIX TZ rule (e.g.
/// `PST8PDT,M3.2.0,M11.1.0`), which "slim" tzdata files rely on for every year after the rule took effect.
/// Before the first transition the first local time type applies. Leap-second records are stepped over (the
/// click times are POSIX times, which have none).
public struct TimeZoneRules: Sendable, Equatable {
    /// Why a file is not a timezone this parser reads.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The largest file read (tzdata's largest are under 4 KiB).
    public static let maximumFileSize = 64 * 1024

    /// Transition times (seconds since 1970, UTC), ascending, and the offset (seconds) from each on.
    let transitions: [Int64]
    let offsets: [Int32]
    /// The offset before the first transition.
    let initialOffset: Int32
    /// What applies after the last transition, when the file has a footer with a rule.
    let rule: PosixTimeZoneRule?

    /// UTC, with no file.
    public static let utc = TimeZoneRules(transitions: [], offsets: [], initialOffset: 0, rule: nil)

    init(transitions: [Int64], offsets: [Int32], initialOffset: Int32, rule: PosixTimeZoneRule?) {
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// Parses a TZif file of version 2 or later.
    public init(tzif bytes: [UInt8]) throws(FormatError) {
        guard bytes.count <= Self.maximumFileSize else { throw FormatError(description: "larger than 64 KiB") }
        var reader = BigEndianReader(bytes: bytes)
        let first = try Self.header(&reader)
        guard first.version >= 2 else { throw FormatError(description: "TZif version 1 only (no 64-bit data)") }
        // Step over the version 1 data block.
        try reader.skip(
            first.timeCount * 5 + first.typeCount * 6 + first.charCount + first.leapCount * 8 + first.standardCount
                + first.utcCount)
        let second = try Self.header(&reader)
        var times: [Int64] = []
        times.reserveCapacity(second.timeCount)
        for _ in 0..<second.timeCount {
            let time = Int64(bitPattern: try reader.uint64())
            if let last = times.last, time <= last { throw FormatError(description: "transitions out of order") }
            times.append(time)
        }
        var typeIndices: [Int] = []
        for _ in 0..<second.timeCount { typeIndices.append(Int(try reader.byte())) }
        var typeOffsets: [Int32] = []
        for _ in 0..<second.typeCount {
            let offset = Int32(bitPattern: try reader.uint32())
            guard offset > -26 * 3600, offset < 26 * 3600 else { throw FormatError(description: "offset out of range") }
            typeOffsets.append(offset)
            try reader.skip(2)
        }
        guard typeIndices.allSatisfy({ $0 < typeOffsets.count }) else {
            throw FormatError(description: "a transition names a missing local time type")
        }
        try reader.skip(second.charCount + second.leapCount * 12 + second.standardCount + second.utcCount)
        // The footer: "\n" rule "\n" (the rule may be empty).
        var rule: PosixTimeZoneRule?
        if reader.remaining > 0 {
            guard try reader.byte() == 0x0A, let end = reader.rest.firstIndex(of: 0x0A) else {
                throw FormatError(description: "a damaged footer")
            }
            let text = reader.rest[..<end]
            if !text.isEmpty {
                guard let parsed = PosixTimeZoneRule(Array(text)) else {
                    throw FormatError(description: "a footer rule this parser does not read")
                }
                rule = parsed
            }
        }
        self.init(
            transitions: times, offsets: typeIndices.map { typeOffsets[$0] }, initialOffset: typeOffsets[0],
            rule: rule)
    }

    /// The offset from UTC, in seconds, at `time` (seconds since 1970, UTC).
    public func offset(at time: Int64) -> Int64 {
        if let last = transitions.last, time >= last, let rule { return rule.offset(at: time) }
        if transitions.isEmpty, let rule { return rule.offset(at: time) }
        // The last transition at or before `time`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return Int64(low == 0 ? initialOffset : offsets[low - 1])
    }

    private struct Header {
        let version: Int
        let utcCount, standardCount, leapCount, timeCount, typeCount, charCount: Int
    }

    private static func header(_ reader: inout BigEndianReader) throws(FormatError) -> Header {
        guard try reader.uint32() == 0x545A_6966 else { throw FormatError(description: "not a TZif file") }
        let versionByte = try reader.byte()
        let version: Int
        switch versionByte {
        case 0: version = 1
        case 0x32...0x39: version = Int(versionByte - 0x30)
        default: throw FormatError(description: "an unknown TZif version")
        }
        try reader.skip(15)
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try reader.uint32())) }
        // Every count is bounded by the file's size; typecnt must be at least 1.
        guard counts.allSatisfy({ $0 <= maximumFileSize }), counts[4] >= 1 else {
            throw FormatError(description: "counts out of range")
        }
        return Header(
            version: version, utcCount: counts[0], standardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }
}

/// Reads big-endian integers from bytes, failing at their end.
private struct BigEndianReader {
    let bytes: [UInt8]
    var position = 0

    var remaining: Int { bytes.count - position }
    var rest: ArraySlice<UInt8> { bytes[position...] }

    mutating func skip(_ count: Int) throws(TimeZoneRules.FormatError) {
        guard count >= 0, count <= remaining else { throw .init(description: "cut short") }
        position += count
    }

    mutating func byte() throws(TimeZoneRules.FormatError) -> UInt8 {
        try skip(1)
        return bytes[position - 1]
    }

    mutating func uint32() throws(TimeZoneRules.FormatError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
        return value
    }

    mutating func uint64() throws(TimeZoneRules.FormatError) -> UInt64 {
        UInt64(try uint32()) << 32 | UInt64(try uint32())
    }
}
