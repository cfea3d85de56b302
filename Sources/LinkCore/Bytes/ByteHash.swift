/// A fast 64-bit hash of a byte buffer, eight bytes at a time (multiply and fold).
///
/// Not for anything an attacker must not steer: it spreads cache slots, and checks the frames of version 1 journal
/// segments (version 2 frames carry a ``CRC32C``).
public enum ByteHash {
    /// The hash of `bytes`; the length is mixed in, so zero bytes of different lengths differ.
    @inlinable @inline(__always)
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0xC4CE_B9FE_1A85_EC53
            index += 1
        }
        return hash ^ (hash >> 29)
    }
}
