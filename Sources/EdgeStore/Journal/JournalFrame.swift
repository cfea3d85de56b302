import LinkCore

/// How journal segments delimit their records, whatever the records hold (that is ``JournalRecord``'s part).
///
/// Format version 2, which this build writes (integers little-endian). A segment starts with a 16-byte header:
///
/// | bytes | field |
/// | --- | --- |
/// | 0–3 | `TJNL` |
/// | 4 | format version (2) |
/// | 5–7 | zero (flags a later build may set: this one keeps such a segment, as one of a later version) |
/// | 8–11 | the writer's marker: a random `UInt32`, never 0 |
/// | 12–15 | CRC-32C of bytes 0–11 |
///
/// then frames, each a 16-byte header and its payload, zero-padded to a multiple of 8 bytes:
///
/// | bytes | field |
/// | --- | --- |
/// | 0–3 | the marker, as in the segment header |
/// | 4–5 | payload length (at most ``JournalRecord/maximumSize``) |
/// | 6 | kind: 1 a click (``JournalRecord``), 2 the seal (no payload: nothing follows), 3 a repeat tap (a |
/// |   | ``JournalRecord`` whose click id is the first tap's) |
/// | 7 | zero |
/// | 8–11 | the frame's number: a writer numbers its frames 0, 1, 2, … without gaps |
/// | 12–15 | CRC-32C of bytes 0–11 and the payload |
///
/// The checksum covers everything a reader relies on, so a damaged byte costs the one frame that holds it: a
/// reader that meets a frame that fails its checks looks for the next one (its marker, a plausible header and a
/// matching checksum) and goes on from there, and the frame numbers on either side say how many records it lost.
/// The marker is random per writer because a payload holds bytes a client chose (its User-Agent, its referer): a
/// client that cannot know the marker cannot plant a frame inside its record that this search would take.
///
/// Version 1 (earlier builds, still read; see ``Version1``) had no segment header and an 8-byte frame header.
enum JournalFrame {
    static let headerSize = 16
    static let segmentHeaderSize = 16
    static let formatVersion: UInt8 = 2
    /// `TJNL`, the segment header's first four bytes. As a version 1 segment's first `UInt32` it would be a
    /// payload length far beyond any record's, so the two formats are never confused.
    static let magic: UInt32 = 0x4C4E_4A54

    /// What a frame holds.
    enum Kind: UInt8 {
        case click = 1
        case seal = 2
        /// A repeat tap (``RepeatTapTable``): the same record as a click, carrying the first tap's click id and the
        /// repeat's own time. Builds before it skip such a frame as an unknown kind (and log it); none is lost to
        /// the checks, which do not depend on the kind.
        case repeatTap = 3
    }

    @inline(__always)
    static func padded(_ count: Int) -> Int { (count + 7) & ~7 }

    /// The bytes a frame takes for a payload of `payloadLength` bytes: header, payload and padding.
    @inline(__always)
    static func size(payloadLength: Int) -> Int { headerSize + padded(payloadLength) }

    /// Completes the frame at `frame`, whose payload of `payloadLength` bytes is already in place after the
    /// header: writes the padding, then the header and its checksum.
    ///
    /// The padding is zeroed so that the file's bytes do not depend on what the buffer held before.
    @inline(__always)
    static func finish(
        _ frame: UnsafeMutableRawPointer, payloadLength: Int, kind: Kind, marker: UInt32, number: UInt32
    ) {
        let payload = frame + headerSize
        (payload + payloadLength).initializeMemory(
            as: UInt8.self, repeating: 0, count: padded(payloadLength) - payloadLength)
        let word = UInt64(marker) | UInt64(payloadLength) << 32 | UInt64(kind.rawValue) << 48
        frame.storeBytes(of: word.littleEndian, as: UInt64.self)
        frame.storeBytes(of: number.littleEndian, toByteOffset: 8, as: UInt32.self)
        let check = CRC32C.checksum(
            UnsafeRawBufferPointer(start: payload, count: payloadLength),
            continuing: CRC32C.checksum(UnsafeRawBufferPointer(start: frame, count: 12)))
        frame.storeBytes(of: check.littleEndian, toByteOffset: 12, as: UInt32.self)
    }

    /// The 16 bytes a segment starts with.
    static func segmentHeader(marker: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: segmentHeaderSize)
        bytes.withUnsafeMutableBytes { header in
            header.storeBytes(of: magic.littleEndian, as: UInt32.self)
            header[4] = formatVersion
            header.storeBytes(of: marker.littleEndian, toByteOffset: 8, as: UInt32.self)
            let check = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: header[0..<12]))
            header.storeBytes(of: check.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        return bytes
    }

    /// The format of a segment header that is whole and checks out but is of a later format than this build's (a
    /// newer build wrote it, then an older one was started on its data), as the log names it: `journal format 3`, or
    /// `journal format 2 with header flags 0x000100` for this version with bytes 5–7 set, which this build writes
    /// zero and a later one may use to mark what it adds. `nil` for any other header: this format's, or damage.
    ///
    /// The checksum decides: a header whose bytes were damaged fails it (but for one in 2³²), so a header that
    /// passes it was written so by a build that knows what those bytes mean.
    static func laterFormat(inSegmentHeader header: UnsafeRawBufferPointer) -> String? {
        guard header.count >= segmentHeaderSize,
            UInt32(littleEndian: header.loadUnaligned(as: UInt32.self)) == magic, header[4] >= formatVersion,
            UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: header[0..<12]))
        else { return nil }
        if header[4] > formatVersion { return "journal format \(header[4])" }
        guard header[5] != 0 || header[6] != 0 || header[7] != 0 else { return nil }
        let flags = header[5..<8].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "journal format \(formatVersion) with header flags 0x\(flags)"
    }

    /// The marker of a version 2 segment header, or `nil` when `header` is not one (another format, or damaged).
    static func marker(inSegmentHeader header: UnsafeRawBufferPointer) -> UInt32? {
        guard header.count >= segmentHeaderSize,
            UInt32(littleEndian: header.loadUnaligned(as: UInt32.self)) == magic, header[4] == formatVersion,
            header[5] == 0, header[6] == 0, header[7] == 0,
            UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: header[0..<12]))
        else { return nil }
        let marker = UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        return marker == 0 ? nil : marker
    }

    /// The framing of format version 1, which earlier builds wrote and this one still reads: no segment header;
    /// frames of an 8-byte header (`UInt32` payload length, `UInt32` checksum) and the payload padded to 8 bytes;
    /// a seal is a header whose length is `0xFFFF_FFFF`.
    enum Version1 {
        static let headerSize = 8
        static let sealMarker: UInt32 = 0xFFFF_FFFF

        /// The version 1 checksum: a 64-bit byte hash of the payload, truncated, low bit set (never 0).
        static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
            UInt32(truncatingIfNeeded: ByteHash.hash(bytes)) | 1
        }
    }
}
