/// CRC-32C (Castagnoli: polynomial `0x1EDC6F41`, reflected `0x82F63B78`, initial value and final XOR
/// `0xFFFFFFFF`), the checksum of iSCSI, ext4 and SCTP, computed eight bytes at a time (slicing-by-8).
///
/// It detects every error of up to 32 consecutive bits and, for the records the journal frames (at most 4 KiB),
/// every error of up to three bits anywhere in them; it does not stop anyone who can write the bytes on purpose.
///
/// ```swift
/// CRC32C.checksum(UnsafeRawBufferPointer(...))              // one buffer
/// CRC32C.checksum(second, continuing: CRC32C.checksum(first)) // the same as one buffer holding both
/// ```
///
/// In Swift rather than through SSE 4.2's `crc32` instruction, which Swift reaches only through C: see
/// `bench/RESULTS.md` for what it costs the link path, which checksums each click it journals.
public enum CRC32C {
    /// The checksum of `bytes`, or of the bytes checksummed before and then `bytes`: `continuing` is the checksum
    /// returned for those earlier bytes (0, the default, for none).
    @inline(__always)
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        ~update(~previous, bytes)
    }

    /// The register before its final XOR, after `bytes`.
    private static func update(_ start: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return start }
        let table = tables
        var crc = start
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            let word = UInt64(littleEndian: (base + index).loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
            let low = UInt32(truncatingIfNeeded: word)
            let high = UInt32(truncatingIfNeeded: word >> 32)
            crc =
                table[7 &* 256 &+ Int(low & 0xFF)] ^ table[6 &* 256 &+ Int((low >> 8) & 0xFF)]
                ^ table[5 &* 256 &+ Int((low >> 16) & 0xFF)] ^ table[4 &* 256 &+ Int(low >> 24)]
                ^ table[3 &* 256 &+ Int(high & 0xFF)] ^ table[2 &* 256 &+ Int((high >> 8) & 0xFF)]
                ^ table[256 &+ Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
            index &+= 8
        }
        while index < count {
            crc = table[Int((crc ^ UInt32(base.load(fromByteOffset: index, as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
            index &+= 1
        }
        return crc
    }

    /// Eight tables of 256 entries: table 0 is the byte-at-a-time table, table `k` advances an entry of table
    /// `k - 1` by one more zero byte. Built once, on first use, and never written again.
    nonisolated(unsafe) private static let tables: UnsafePointer<UInt32> = {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            table[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(slice - 1) * 256 + byte]
                table[slice * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return UnsafePointer(table)
    }()
}
