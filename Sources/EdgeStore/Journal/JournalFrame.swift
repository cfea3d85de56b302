import LinkCore

/// How journal segments delimit their records, whatever the records hold (that is ``JournalRecord``'s part).
///
/// A frame is an 8-byte header (`UInt32` payload length, `UInt32` checksum, little-endian) and the payload,
/// padded with zeros to a multiple of 8 bytes. A segment ends at its end of file, or at a frame whose checksum
/// fails (a write cut short by a crash); ``sealMarker`` says the writer moved on to a new segment.
enum JournalFrame {
    static let headerSize = 8
    static let sealMarker: UInt32 = 0xFFFF_FFFF

    @inline(__always)
    static func padded(_ count: Int) -> Int { (count + 7) & ~7 }

    /// The bytes a frame takes for a payload of `payloadLength` bytes: header, payload and padding.
    @inline(__always)
    static func size(payloadLength: Int) -> Int { headerSize + padded(payloadLength) }

    /// A 32-bit checksum of the payload: it detects a torn or never-finished frame, not deliberate tampering.
    /// Never 0, so a written header is never all zeros.
    @inline(__always)
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: ByteHash.hash(bytes)) | 1
    }

    /// Completes the frame at `frame`, whose payload of `payloadLength` bytes is already in place after the
    /// header: writes the padding and then the header.
    ///
    /// The padding is zeroed so that the file's bytes do not depend on what the buffer held before.
    @inline(__always)
    static func finish(_ frame: UnsafeMutableRawPointer, payloadLength: Int) {
        let payload = frame + headerSize
        (payload + payloadLength).initializeMemory(
            as: UInt8.self, repeating: 0, count: padded(payloadLength) - payloadLength)
        let check = checksum(UnsafeRawBufferPointer(start: payload, count: payloadLength))
        frame.storeBytes(of: UInt64(UInt32(payloadLength)) | UInt64(check) << 32, as: UInt64.self)
    }
}
