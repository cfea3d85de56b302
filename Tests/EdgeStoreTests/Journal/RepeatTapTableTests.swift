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
        let table = RepeatTapTable(visitors: 512, window: Self.hour)
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
        let table = RepeatTapTable(visitors: 512, window: Self.hour)
        Self.remember(table, key: keys[0], at: 0, id: Self.id(1))
        for key in keys.dropFirst() { #expect(Self.first(table, key: key, at: 1) == nil) }
        // The reference is compared too: a key shared by two codes (a collision) never hands out the other's id.
        #expect(Self.first(table, key: keys[0], reference: 8, at: 1) == nil)
    }

    @Test func aClockSetBackStartsANewWindowOnTheLinkPathButNotInTheIngester() {
        let table = RepeatTapTable(visitors: 8, window: Self.hour)
        let key = Self.key()
        Self.remember(table, key: key, at: 10 * Self.hour, id: Self.id(1))
        #expect(Self.first(table, key: key, at: 10 * Self.hour - 1) == nil)
        #expect(Self.first(table, key: key, at: 10 * Self.hour - 1, eitherOrder: true) == Self.id(1))
        #expect(Self.first(table, key: key, at: 9 * Self.hour, eitherOrder: true) == nil, "a window before it")
    }

    static func visitorKey(_ number: Int) -> UInt64 {
        key(address: "10.\(number >> 16).\((number >> 8) & 255).\(number & 255)")
    }

    @Test func aMillionDistinctTapsKeepTheTableAtItsSizeAndTheRecentOnesFindable() {
        let table = RepeatTapTable(visitors: 16_384, window: Self.hour)
        #expect(table.slots == 32_768)
        #expect(table.byteCount == 2 << 20)
        let id = Self.id(1)
        for number in 0..<1_000_000 { Self.remember(table, key: Self.visitorKey(number), at: Int64(number), id: id) }
        #expect(table.byteCount == 2 << 20, "fixed at init")
        // The last few thousand taps, a quarter of the visitors it is for, are all still there (oldest go first).
        var found = 0
        for number in (1_000_000 - 4_096)..<1_000_000
        where Self.first(table, key: Self.visitorKey(number), at: 1_000_000) != nil {
            found += 1
        }
        #expect(found == 4_096, "\(found) of the last 4,096")
    }

    /// What README promises: a loop's table holds the visitors it is for. At its full 16,384 visitors within one
    /// window, all of whom tap again in the order they came (a forgotten one's repeat then takes a slot of the same
    /// crowded set), fewer than 1 in 100 get a new click id, and at half that none do; the two-way sets of one slot
    /// a visitor this table had first forgot 2,221 of 8,192.
    @Test(arguments: [(16_384, 163), (8_192, 0)])
    func visitorsWithinTheWindowAreRememberedUpToTheTablesSize(visitors: Int, allowedForgotten: Int) {
        let table = RepeatTapTable(visitors: 16_384, window: Self.hour)
        for number in 0..<visitors {
            let key = Self.visitorKey(number)
            #expect(Self.first(table, key: key, at: Int64(number)) == nil)
            Self.remember(table, key: key, at: Int64(number), id: Self.id(number))
        }
        var forgotten = 0
        for number in 0..<visitors {
            // Each repeat that finds no first tap is taken for one and takes a slot, as on the link path.
            let key = Self.visitorKey(number)
            let time = Int64(visitors + number)
            if let id = Self.first(table, key: key, at: time) {
                #expect(id == Self.id(number))
            } else {
                forgotten += 1
                Self.remember(table, key: key, at: time, id: Self.id(number))
            }
        }
        #expect(forgotten <= allowedForgotten, "\(forgotten) of \(visitors) visitors forgotten")
    }

    @Test func aSlotWhoseWindowIsOverIsTakenBeforeAnOlderOneStillWithinIt() {
        // Sixteen slots: one set. Fifteen visitors within the window, one long over: the seventeenth visitor takes
        // the one that is over, and the fifteen are all still found.
        let table = RepeatTapTable(visitors: 8, window: 100)
        #expect(table.slots == 16)
        Self.remember(table, key: Self.visitorKey(0), at: 0, id: Self.id(0))
        for number in 1..<16 {
            Self.remember(table, key: Self.visitorKey(number), at: 1_000 + Int64(number), id: Self.id(number))
        }
        Self.remember(table, key: Self.visitorKey(16), at: 1_050, id: Self.id(16))
        for number in 1...16 { #expect(Self.first(table, key: Self.visitorKey(number), at: 1_060) == Self.id(number)) }
        // With none over, the oldest goes: visitor 1.
        Self.remember(table, key: Self.visitorKey(17), at: 1_070, id: Self.id(17))
        #expect(Self.first(table, key: Self.visitorKey(1), at: 1_070) == nil)
        for number in 2...17 { #expect(Self.first(table, key: Self.visitorKey(number), at: 1_070) == Self.id(number)) }
    }

    @Test func slotsAreTwicePerVisitorRoundedUpToAPowerOfTwo() {
        #expect(RepeatTapTable(visitors: 1000, window: 1).slots == 2048)
        #expect(RepeatTapTable(visitors: 0, window: 1).slots == 16, "one set at least")
    }
}
