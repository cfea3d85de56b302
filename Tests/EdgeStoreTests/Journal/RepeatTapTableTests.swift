import EdgeStore
import LinkCore
import Testing

/// The per-thread table of first taps: a repeat within the window gets the first tap's id, anything else is a first
/// tap, and the table never grows.
@Suite struct RepeatTapTableTests {
    static let hour: Int64 = 3_600_000

    static func id(_ number: Int) -> [UInt8] {
        let digits = String(number)
        return Array(("clk_" + String(repeating: "0", count: 40 - digits.count) + digits).utf8)
    }

    static func key(reference: UInt32 = 7, address: String = "192.0.2.1", userAgent: String = "agent") -> UInt64 {
        Array(address.utf8).withUnsafeBytes { address in
            Array(userAgent.utf8).withUnsafeBytes { agent in
                RepeatTapTable.key(reference: reference, address: address, userAgent: agent)
            }
        }
    }

    static func remember(_ table: RepeatTapTable, key: UInt64, reference: UInt32 = 7, at time: Int64, id: [UInt8]) {
        id.withUnsafeBytes { table.remember(key: key, reference: reference, at: time, clickID: $0.baseAddress!) }
    }

    static func first(
        _ table: RepeatTapTable, key: UInt64, reference: UInt32 = 7, at time: Int64, eitherOrder: Bool = false
    ) -> [UInt8]? {
        table.firstTap(key: key, reference: reference, at: time, eitherOrder: eitherOrder).map {
            Array(UnsafeRawBufferPointer(start: $0, count: ClickID.encodedLength))
        }
    }

    @Test func aTapWithinTheWindowGetsTheFirstTapsIdAndOneAtItsEndDoesNot() {
        let table = RepeatTapTable(slots: 1024, window: Self.hour)
        let key = Self.key()
        #expect(Self.first(table, key: key, at: 1_000) == nil, "nothing remembered yet")
        Self.remember(table, key: key, at: 1_000, id: Self.id(1))
        #expect(Self.first(table, key: key, at: 1_000) == Self.id(1))
        #expect(Self.first(table, key: key, at: 1_000 + Self.hour - 1) == Self.id(1), "the last millisecond in")
        #expect(Self.first(table, key: key, at: 1_000 + Self.hour) == nil, "the window is over")
        // The next first tap starts a new window, with its own id.
        Self.remember(table, key: key, at: 1_000 + Self.hour, id: Self.id(2))
        #expect(Self.first(table, key: key, at: 1_000 + Self.hour + 5) == Self.id(2))
    }

    @Test func anotherCodeAddressOrUserAgentIsAnotherVisitor() {
        let keys = [
            Self.key(), Self.key(reference: 8), Self.key(address: "192.0.2.2"), Self.key(userAgent: "agent 2"),
            Self.key(address: "2001:db8::1"),
        ]
        #expect(Set(keys).count == keys.count)
        #expect(!keys.contains(0), "0 marks an empty slot")
        let table = RepeatTapTable(slots: 1024, window: Self.hour)
        Self.remember(table, key: keys[0], at: 0, id: Self.id(1))
        for key in keys.dropFirst() { #expect(Self.first(table, key: key, at: 1) == nil) }
        // The reference is compared too: a key shared by two codes (a collision) never hands out the other's id.
        #expect(Self.first(table, key: keys[0], reference: 8, at: 1) == nil)
    }

    @Test func aClockSetBackStartsANewWindowOnTheLinkPathButNotInTheIngester() {
        let table = RepeatTapTable(slots: 16, window: Self.hour)
        let key = Self.key()
        Self.remember(table, key: key, at: 10 * Self.hour, id: Self.id(1))
        #expect(Self.first(table, key: key, at: 10 * Self.hour - 1) == nil)
        #expect(Self.first(table, key: key, at: 10 * Self.hour - 1, eitherOrder: true) == Self.id(1))
        #expect(Self.first(table, key: key, at: 9 * Self.hour, eitherOrder: true) == nil, "a window before it")
    }

    @Test func aMillionDistinctTapsKeepTheTableAtItsSizeAndTheRecentOnesFindable() {
        let table = RepeatTapTable(slots: 16_384, window: Self.hour)
        #expect(table.slots == 16_384)
        #expect(table.byteCount == 1 << 20)
        let id = Self.id(1)
        for number in 0..<1_000_000 {
            Self.remember(
                table, key: Self.key(address: "10.\(number >> 16).\((number >> 8) & 255).\(number & 255)"),
                at: Int64(number), id: id)
        }
        #expect(table.byteCount == 1 << 20, "fixed at init")
        // The last few hundred taps, far fewer than the slots, are all still there (two ways per set).
        var found = 0
        for number in (1_000_000 - 256)..<1_000_000 {
            let key = Self.key(address: "10.\(number >> 16).\((number >> 8) & 255).\(number & 255)")
            if Self.first(table, key: key, at: 1_000_000) != nil { found += 1 }
        }
        #expect(found >= 250, "\(found) of the last 256")
    }

    @Test func slotsAreRoundedUpToAPowerOfTwo() {
        #expect(RepeatTapTable(slots: 1000, window: 1).slots == 1024)
        #expect(RepeatTapTable(slots: 0, window: 1).slots == 2)
    }
}
