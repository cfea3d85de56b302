import LinkCore
import TestSupport
import Testing

/// CRC-32C against published check values and against a bit-at-a-time reference, at every length and alignment
/// the slicing-by-8 loop and its byte tail can meet.
@Suite struct CRC32CTests {
    static func checksum(_ bytes: [UInt8], continuing previous: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { CRC32C.checksum($0, continuing: previous) }
    }

    /// The definition, one bit at a time: reflected polynomial 0x82F63B78, initial value and final XOR all ones.
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    /// The catalogue's check value ("123456789") and the iSCSI test vectors of RFC 3720, appendix B.4.
    @Test func publishedCheckValues() {
        #expect(Self.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(Self.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(Self.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(Self.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(Self.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
        #expect(Self.checksum([]) == 0)
    }

    @Test func everyLengthAndAlignmentMatchesTheReference() {
        var generator = SeededGenerator(seed: 0xC4C3_2C00)
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for start in 0..<8 {
            for length in 0...(bytes.count - start) {
                let slice = Array(bytes[start..<start + length])
                let expected = Self.reference(slice)
                let got = bytes.withUnsafeBytes {
                    CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<start + length]))
                }
                #expect(got == expected, "offset \(start), length \(length)")
                if got != expected { return }
            }
        }
    }

    @Test func aChecksumContinuesFromAnEarlierOne() {
        let bytes = Array("The quick brown fox jumps over the lazy dog, twice over.".utf8)
        for split in 0...bytes.count {
            let first = Self.checksum(Array(bytes[..<split]))
            #expect(Self.checksum(Array(bytes[split...]), continuing: first) == Self.checksum(bytes), "split \(split)")
        }
    }

    @Test func everySingleBitFlipChangesTheChecksum() {
        var bytes = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let original = Self.checksum(bytes)
        for bit in 0..<bytes.count * 8 {
            bytes[bit / 8] ^= 1 << (bit % 8)
            #expect(Self.checksum(bytes) != original, "bit \(bit)")
            bytes[bit / 8] ^= 1 << (bit % 8)
        }
    }
}
