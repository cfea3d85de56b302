import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// The first taps of recent visitors, to tell a repeat tap from a new click: a fixed table that never grows.
///
/// A tap is keyed by a 64-bit hash of what makes it the same visitor on the same link (``key(reference:address:
/// userAgent:)``: the code reference, the client address, the User-Agent). The table holds, per key, the code
/// reference, the time of the first tap and its click id; a tap of the same key and reference less than `window`
/// milliseconds after that first tap is a repeat and gets the first tap's id. The window runs from the first tap:
/// a tap after it starts a new window.
///
/// Memory is fixed at ``init(visitors:window:)``: two slots per visitor, rounded up to a power of two, 64 bytes a
/// slot, mapped anonymously (pages cost memory once a tap touches them, and go back to the system with the table: a
/// loop's megabytes from `malloc` would stay in its thread's arena after the loop is gone). Slots come in sets of
/// sixteen; a set's keys lie together (two cache lines), and so do their first taps' times, in a region of their
/// own; each slot's reference and click id lie in a third region, read only on a match. A key can only live in its
/// own set, so a table starts forgetting before it is full, and a forgotten visitor's repeat, taken for a first
/// tap, takes a slot of the same crowded set and can push out the next visitor there. With twice the slots of its
/// `visitors` and sixteen ways, a table that holds that many visitors, each tapping twice in the order they came,
/// forgets about 1 in 200 of them, and none at half as many (the two-way sets of one slot a visitor this replaced
/// forgot 1 in 4 at half full).
///
/// A new first tap takes, in its set, the slot of the same key, else an empty one, else one whose window is over,
/// else the one whose first tap is oldest; so a flood of distinct visitors only evicts older entries (whose repeats
/// then count as new clicks on this table): it never allocates after `init`, takes no lock, and is used by one
/// thread (a loop on the link path, or the ingester). Not `Sendable`.
///
/// The reference is stored and compared, so a hash collision can never give a tap the click id of another code; two
/// visitors of one code whose keys collide (1 in 2^64 by chance; a crafted User-Agent could aim for it, the hash is
/// not keyed against that) would share a click id, which still credits the same partner.
public final class RepeatTapTable {
    /// Bytes per slot: key (8), first tap's time (8), reference (4), click id (44).
    static let slotSize = 64
    /// The rest of a slot, beside its key and time: reference and click id.
    private static let entrySize = slotSize - 16
    private static let referenceOffset = 0
    private static let clickIDOffset = 4
    /// Slots per set: sixteen 8-byte keys, two cache lines.
    static let ways = 16

    /// How long after a first tap a tap of the same key is a repeat, in milliseconds; more than 0.
    public let window: Int64
    /// The number of slots (a power of two, at least ``ways``): twice the visitors asked for, rounded up.
    public let slots: Int
    private let setMask: Int
    private let memory: UnsafeMutableRawPointer
    /// The keys, ``ways`` to a set; then the first taps' times, and ``entries``, in the same order.
    private let keys: UnsafeMutablePointer<UInt64>
    private let times: UnsafeMutablePointer<Int64>
    private let entries: UnsafeMutableRawPointer

    /// A table for `visitors` visitors within the window: twice as many slots, rounded up to a power of two (at
    /// least ``ways``), 64 bytes each (2 MiB for 16,384 visitors).
    public init(visitors: Int, window: Int64) {
        precondition(window > 0, "a repeat-tap window is positive")
        var count = Self.ways
        while count < 2 * visitors { count <<= 1 }
        slots = count
        self.window = window
        setMask = count / Self.ways - 1
        // Zero-filled by the kernel: key 0 marks an empty slot (``key(reference:address:userAgent:)`` never returns 0).
        let mapped = mmap(nil, count * Self.slotSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { fatalError("cannot map \(count * Self.slotSize) bytes") }
        memory = mapped
        keys = mapped.bindMemory(to: UInt64.self, capacity: count)
        times = (mapped + count * 8).bindMemory(to: Int64.self, capacity: count)
        entries = mapped + count * 16
    }

    deinit { munmap(memory, byteCount) }

    /// The bytes the table holds.
    public var byteCount: Int { slots * Self.slotSize }

    /// The key of a tap: a hash of the code reference, the client address and the User-Agent, never 0.
    @inlinable @inline(__always)
    public static func key(reference: UInt32, address: UnsafeRawBufferPointer, userAgent: UnsafeRawBufferPointer)
        -> UInt64
    {
        var hash = ByteHash.hash(address) &* 0x9E37_79B9_7F4A_7C15
        hash = (hash ^ (hash >> 31) ^ ByteHash.hash(userAgent)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 29) ^ UInt64(reference)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 32
        return hash == 0 ? 1 : hash
    }

    /// The click id of the first tap this tap repeats (44 bytes inside the table, valid until the next
    /// ``remember(key:reference:at:clickID:)``: copy it), or `nil` when it is a first tap.
    ///
    /// On the link path taps come in time order, and a tap before the remembered one means the clock was set back:
    /// it starts a new window. The ingester, which reads the loops' segments one after another, passes
    /// `eitherOrder`: a tap less than the window before the remembered one is its repeat too.
    @inline(__always)
    public func firstTap(key: UInt64, reference: UInt32, at time: Int64, eitherOrder: Bool = false)
        -> UnsafeRawPointer?
    {
        let base = (Int(truncatingIfNeeded: key) & setMask) * Self.ways
        // A key is in its set at most once (``remember`` reuses its slot), so the first match is the only one.
        for slot in base..<(base + Self.ways) where keys[slot] == key {
            let entry = entries + slot * Self.entrySize
            guard entry.load(fromByteOffset: Self.referenceOffset, as: UInt32.self) == reference else { return nil }
            let first = times[slot]
            guard time - first < window, time >= first || (eitherOrder && first - time < window) else { return nil }
            return UnsafeRawPointer(entry + Self.clickIDOffset)
        }
        return nil
    }

    /// Records a first tap: its key, reference, time and click id (``ClickID/encodedLength`` bytes). It takes the
    /// slot of its set that holds the same key, else an empty one, else one whose window is over at `time`, else
    /// the one whose first tap is oldest.
    @inline(__always)
    public func remember(key: UInt64, reference: UInt32, at time: Int64, clickID: UnsafeRawPointer) {
        let base = (Int(truncatingIfNeeded: key) & setMask) * Self.ways
        var chosen = base
        var chosenTime = Int64.max
        for slot in base..<(base + Self.ways) {
            let held = keys[slot]
            if held == key || held == 0 {
                chosen = slot
                break
            }
            let first = times[slot]
            if time - first >= window {
                // Over at this tap (or set back past the window on a clock change): as good as empty, but an
                // empty slot or the key's own further on wins, so a key never sits in its set twice.
                if chosenTime != Int64.min {
                    chosen = slot
                    chosenTime = Int64.min
                }
            } else if first < chosenTime {
                chosen = slot
                chosenTime = first
            }
        }
        keys[chosen] = key
        times[chosen] = time
        let entry = entries + chosen * Self.entrySize
        entry.storeBytes(of: reference, toByteOffset: Self.referenceOffset, as: UInt32.self)
        (entry + Self.clickIDOffset).copyMemory(from: clickID, byteCount: ClickID.encodedLength)
    }
}
