import LinkCore

/// The on-disk form of one journal record.
///
/// A frame is an 8-byte header (`UInt32` payload length, `UInt32` checksum, little-endian) and the payload,
/// padded to a multiple of 8 bytes. A segment ends at its end of file, or at a frame whose checksum fails (a
/// write cut short by a crash); ``sealMarker`` says the writer moved on to a new segment.
///
/// The payload of a click:
///
/// | offset | field |
/// | --- | --- |
/// | 0 | version (1) |
/// | 1 | platform (0 ios, 1 android, 2 desktop, 3 other) |
/// | 2–3, 4–5, 6–7 | lengths of the code fields, the User-Agent, the referer |
/// | 8 | length of the client address |
/// | 16–23 | creation time, milliseconds since 1970 |
/// | 24–67 | the click id |
/// | 68… | `organization \0 program \0 partner \0 code`, User-Agent, referer, client address |
enum JournalFrame {
    static let headerSize = 8
    static let fixedPayloadSize = 68
    static let sealMarker: UInt32 = 0xFFFF_FFFF
    /// No payload is larger: the variable fields are bounded by ``ClickRecord`` limits.
    static let maximumPayloadSize = 4096

    static let platforms: [Platform] = [.ios, .android, .desktop, .other]

    @inline(__always)
    static func platformByte(_ platform: Platform) -> UInt8 {
        switch platform {
        case .ios: return 0
        case .android: return 1
        case .desktop: return 2
        case .other: return 3
        }
    }

    @inline(__always)
    static func padded(_ count: Int) -> Int { (count + 7) & ~7 }

    /// A 32-bit checksum of the payload: it detects a torn or never-finished frame, not deliberate tampering.
    /// Never 0, so a written header is never all zeros.
    @inline(__always)
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: ByteHash.hash(bytes)) | 1
    }

    /// Decodes a click payload, or `nil` when it is malformed.
    static func decode(_ payload: UnsafeRawBufferPointer) -> ClickRecord? {
        guard payload.count >= fixedPayloadSize, payload[0] == 1, payload[1] < 4 else { return nil }
        let fieldsLength = Int(payload.loadUnaligned(fromByteOffset: 2, as: UInt16.self).littleEndian)
        let agentLength = Int(payload.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian)
        let refererLength = Int(payload.loadUnaligned(fromByteOffset: 6, as: UInt16.self).littleEndian)
        let ipLength = Int(payload[8])
        guard fixedPayloadSize + fieldsLength + agentLength + refererLength + ipLength == payload.count else {
            return nil
        }
        func text(_ start: Int, _ count: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: payload[start..<start + count]), as: UTF8.self)
        }
        var cursor = fixedPayloadSize
        let fields = payload[cursor..<cursor + fieldsLength].split(separator: 0, omittingEmptySubsequences: false)
        guard fields.count == 4 else { return nil }
        let strings = fields.map { String(decoding: $0, as: UTF8.self) }
        cursor += fieldsLength
        let agent = text(cursor, agentLength)
        cursor += agentLength
        let referer = text(cursor, refererLength)
        cursor += refererLength
        return ClickRecord(
            id: text(24, ClickID.encodedLength),
            createdAt: Int64(littleEndian: payload.loadUnaligned(fromByteOffset: 16, as: Int64.self)),
            organizationID: strings[0], programID: strings[1], partnerID: strings[2], code: strings[3],
            platform: platforms[Int(payload[1])], userAgent: agent, referer: referer, ip: text(cursor, ipLength))
    }
}
