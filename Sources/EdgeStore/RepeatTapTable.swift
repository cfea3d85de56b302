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
/// Memory is fixed at ``init(slots:window:)``: `slots` rounded up to a power of two, 64 bytes each, in sets of two,
/// mapped anonymously (pages cost memory once a tap touches them, and go back to the system with the table: a loop's
/// megabyte from `malloc` would stay in its thread's arena after the loop is gone).
/// A new first tap takes the empty, expired or older slot of its set, so a flood of distinct visitors only evicts
/// older entries (whose repeats then count as new clicks on this table): it never allocates after `init`, takes no
/// lock, and is used by one thread (a loop on the link path, or the ingester). Not `Sendable`.
///
/// The reference is stored and compared, so a hash collision can never give a tap the click id of another code; two
/// visitors of one code whose keys collide (1 in 2^64 by chance; a crafted User-Agent could aim for it, the hash is
/// not keyed against that) would share a click id, which still credits the same partner.
public final class RepeatTapTable {
    /// Bytes per slot: key (8), first tap's time (8), reference (4), click id (44).
    static let slotSize = 64
    private static let timeOffset = 8
    private static let referenceOffset = 16
    private static let clickIDOffset = 20

    /// How long after a first tap a tap of the same key is a repeat, in milliseconds; more than 0.
    public let window: Int64
    /// The number of slots (a power of two, at least 2).
    public let slots: Int
    private let mask: Int
    private let memory: UnsafeMutableRawPointer

    /// A table of `slots` slots (rounded up to a power of two, at least 2), `slots * 64` bytes in all.
    public init(slots: Int, window: Int64) {
        precondition(window > 0, "a repeat-tap window is positive")
        var count = 2
        while count < slots { count <<= 1 }
        self.slots = count
        self.window = window
        mask = count / 2 - 1
        // Zero-filled by the kernel: key 0 marks an empty slot (``key(reference:address:userAgent:)`` never returns 0).
        let mapped = mmap(nil, count * Self.slotSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { fatalError("cannot map \(count * Self.slotSize) bytes") }
        memory = mapped
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
        let set = memory + (Int(truncatingIfNeeded: key) & mask) * 2 * Self.slotSize
        for way in 0..<2 {
            let slot = set + way * Self.slotSize
            guard slot.load(as: UInt64.self) == key,
                slot.load(fromByteOffset: Self.referenceOffset, as: UInt32.self) == reference
            else { continue }
            let first = slot.load(fromByteOffset: Self.timeOffset, as: Int64.self)
            guard time - first < window, time >= first || (eitherOrder && first - time < window) else { return nil }
            return UnsafeRawPointer(slot + Self.clickIDOffset)
        }
        return nil
    }

    /// Records a first tap: its key, reference, time and click id (``ClickID/encodedLength`` bytes). It takes the
    /// slot of its set that holds the same key, else an empty one, else the one whose first tap is older.
    @inline(__always)
    public func remember(key: UInt64, reference: UInt32, at time: Int64, clickID: UnsafeRawPointer) {
        let set = memory + (Int(truncatingIfNeeded: key) & mask) * 2 * Self.slotSize
        let other = set + Self.slotSize
        let slot: UnsafeMutableRawPointer
        if set.load(as: UInt64.self) == key || set.load(as: UInt64.self) == 0 {
            slot = set
        } else if other.load(as: UInt64.self) == key || other.load(as: UInt64.self) == 0 {
            slot = other
        } else {
            let setTime = set.load(fromByteOffset: Self.timeOffset, as: Int64.self)
            let otherTime = other.load(fromByteOffset: Self.timeOffset, as: Int64.self)
            slot = otherTime < setTime ? other : set
        }
        slot.storeBytes(of: key, as: UInt64.self)
        slot.storeBytes(of: time, toByteOffset: Self.timeOffset, as: Int64.self)
        slot.storeBytes(of: reference, toByteOffset: Self.referenceOffset, as: UInt32.self)
        (slot + Self.clickIDOffset).copyMemory(from: clickID, byteCount: ClickID.encodedLength)
    }
}
