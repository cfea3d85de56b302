import LinkCore

/// One loop thread's QR codes of the links its desktop visitors opened: each is rendered once, on the first desktop
/// tap of that link on this loop, and served from here afterwards, so a tap never calls libqrencode for a link it
/// already drew.
///
/// Bounded: the SVGs live in a byte ring of ``arenaCapacity`` bytes (1 MiB: about 800 codes of links of 40-60 bytes, 1.2-1.5 KB each), found
/// through ``slotCount`` direct-mapped slots keyed by the code's reference (references are consecutive row ids, so
/// up to 4,096 links do not collide). A new SVG is written after the newest one and wraps to the ring's start;
/// the slots whose bytes it covered are stale from then on (their start has fallen out of the last
/// ``arenaCapacity`` bytes written), with no sweep. A slot also holds the link table's generation it was drawn
/// for: a configuration change may change a link's URL (a code's spelling, an organization's public key) while
/// its reference stays, so a slot of an older table is a miss. `--public-url` is fixed for the process.
///
/// A hit costs a slot read and two comparisons, no lock (one thread only) and no allocation; the bytes it returns
/// stay valid until the next ``svg(for:generation:)`` call, so the caller copies them into the page at once.
/// Memory per loop: 1 MiB of ring (reserved at start, touched as codes are drawn) and 128 KiB of slots.
final class QRCodeCache {
    static let slotCount = 4_096
    static let arenaCapacity = 1 << 20
    /// The largest SVG kept; a link whose code would be larger gets no QR code. 1.2-2.5 KB is typical (URLs of
    /// 40-110 bytes: versions 3-7); 6 KiB holds URLs up to about 340 bytes (version 14), and keeps the page small.
    static let maximumSVGLength = 6 * 1_024
    /// The longest URL encoded; a longer one would not fit ``maximumSVGLength`` anyway (so it costs no drawing).
    static let maximumURLLength = 384

    private struct Slot {
        /// The code's reference plus one; 0 for an empty slot.
        var key: UInt64 = 0
        var generation: UInt64 = 0
        /// Where the SVG starts, counted in bytes written to the ring since it was made; -1: the link has no QR
        /// code (its URL is too long), remembered so that it is not drawn again per tap.
        var start = -1
        var length = 0
    }

    /// `--public-url`'s bytes, which every link's URL starts with.
    private let publicURL: [UInt8]
    private let arenaCapacity: Int
    private let arena: UnsafeMutableRawPointer
    private var slots: [Slot]
    /// Bytes written to the ring since it was made: the next SVG's logical start.
    private var written = 0
    /// How many times this cache called libqrencode: once per link and generation while the link stays cached.
    private(set) var renderCount = 0

    /// `arenaCapacity` and `slotCount` may be made small by tests, to see eviction; `slotCount` is a power of two.
    init(
        publicURL: [UInt8], arenaCapacity: Int = QRCodeCache.arenaCapacity, slotCount: Int = QRCodeCache.slotCount
    ) {
        precondition(arenaCapacity >= Self.maximumSVGLength && slotCount > 0 && slotCount & (slotCount - 1) == 0)
        self.publicURL = publicURL
        self.arenaCapacity = arenaCapacity
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
        slots = [Slot](repeating: Slot(), count: slotCount)
    }

    deinit { arena.deallocate() }

    /// The SVG of `target`'s link (`--public-url` + its path) in the table of `generation`, drawn now if this loop
    /// has not drawn it since that table came; `nil` when the URL is too long for a QR code on the page.
    func svg(for target: LinkTarget, generation: UInt64) -> UnsafeRawBufferPointer? {
        let key = UInt64(target.reference) + 1
        let index = Int(target.reference) & (slots.count - 1)
        let slot = slots[index]
        if slot.key == key && slot.generation == generation && (slot.start < 0 || isIntact(slot)) {
            return bytes(of: slot)
        }
        let drawn = draw(target)
        slots[index] = Slot(key: key, generation: generation, start: drawn?.start ?? -1, length: drawn?.length ?? 0)
        return bytes(of: slots[index])
    }

    /// Whether no SVG written after the slot's covered its bytes: the ring's last `arenaCapacity` bytes include them.
    @inline(__always)
    private func isIntact(_ slot: Slot) -> Bool {
        written - slot.start <= arenaCapacity
    }

    private func bytes(of slot: Slot) -> UnsafeRawBufferPointer? {
        guard slot.start >= 0 else { return nil }
        return UnsafeRawBufferPointer(start: arena + slot.start % arenaCapacity, count: slot.length)
    }

    /// Draws the link's SVG into the ring after the newest one (at its start when fewer than
    /// ``maximumSVGLength`` bytes are left before its end) and returns where it went; `nil` when it does not fit.
    private func draw(_ target: LinkTarget) -> (start: Int, length: Int)? {
        let urlLength = publicURL.count + target.linkPath.count
        guard urlLength <= Self.maximumURLLength else { return nil }
        let offset = written % arenaCapacity
        if arenaCapacity - offset < Self.maximumSVGLength { written += arenaCapacity - offset }
        let start = written
        var writer = ByteWriter(base: arena + start % arenaCapacity, capacity: Self.maximumSVGLength)
        renderCount += 1
        let encoded: Void? = withUnsafeTemporaryAllocation(byteCount: urlLength, alignment: 1) { url in
            var text = ByteWriter(base: url.baseAddress!, capacity: urlLength)
            text.write(publicURL)
            text.write(target.linkPath)
            return QRCodeSymbol.encode(UnsafeRawBufferPointer(url)) { QRCodeSVG.write($0, into: &writer) }
        }
        // Even a failed drawing overwrote what it wrote: count it, so the slots it covered read as stale.
        written += writer.count
        guard encoded != nil, !writer.overflowed else { return nil }
        return (start, writer.count)
    }
}
