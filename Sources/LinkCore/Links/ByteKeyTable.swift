/// An open-addressing hash table from byte strings to integers, probed with bytes the caller already holds,
/// so a lookup on the link path allocates nothing.
public struct ByteKeyTable: Sendable {
    private var slots: [Int32]
    private var keys: [[UInt8]] = []
    private var values: [Int] = []
    private let mask: Int

    /// Builds a table holding `entries` (keys must be distinct).
    public init(_ entries: [(key: [UInt8], value: Int)]) {
        var size = 16
        while size < entries.count * 2 { size <<= 1 }
        mask = size - 1
        slots = [Int32](repeating: -1, count: size)
        for entry in entries {
            var slot = Int(truncatingIfNeeded: Self.hash(entry.key)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(keys.count)
            keys.append(entry.key)
            values.append(entry.value)
        }
    }

    public var count: Int { keys.count }

    /// FNV-1a over the bytes; keys come from the configuration, not from requests, so flooding is no concern.
    @inline(__always)
    static func hash<S: Sequence>(_ bytes: S, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64
    where S.Element == UInt8 {
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The value for the key `first ++ [0] ++ second`, or `nil`.
    @inline(__always)
    public func value(first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer) -> Int? {
        let hash = Self.hash(second, seed: Self.hash(CollectionOfOne(0), seed: Self.hash(first)))
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            if Self.matches(keys[index], first: first, second: second) { return values[index] }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    static func matches(_ key: [UInt8], first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer) -> Bool {
        guard key.count == first.count + 1 + second.count else { return false }
        return key.withUnsafeBytes { stored in
            stored[first.count] == 0
                && memoryEqual(stored.baseAddress!, first)
                && memoryEqual(stored.baseAddress! + first.count + 1, second)
        }
    }

    @inline(__always)
    static func memoryEqual(_ pointer: UnsafeRawPointer, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            if pointer.load(fromByteOffset: index, as: UInt8.self) != bytes[index] { return false }
            index += 1
        }
        return true
    }
}
