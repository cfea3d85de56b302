import LinkCore

/// The payload of one click in the journal. The writer on the link path encodes it and the ingester decodes
/// it, both here, so that the two can never disagree about the layout.
///
/// Version 1, integers little-endian:
///
/// | offset | field |
/// | --- | --- |
/// | 0 | version (1) |
/// | 1 | platform (0 ios, 1 android, 2 desktop, 3 other) |
/// | 2–3 | length of the code fields |
/// | 4–5 | length of the User-Agent |
/// | 6–7 | length of the referer |
/// | 8 | length of the client address |
/// | 9–15 | zero |
/// | 16–23 | creation time, milliseconds since 1970 |
/// | 24–67 | the click id |
/// | 68… | the code fields `organization \0 program \0 partner \0 code`, User-Agent, referer, client address |
///
/// Segments outlive the build that wrote them (a crash, then an upgrade), so a change to these bytes needs a new
/// version and a decoder that still reads version 1; `JournalRecordTests` pins them.
///
/// A record borrows the buffers it is made from, so it is encoded at once and never kept: making and encoding
/// one allocates nothing, since the link path does it per click on a loop thread.
struct JournalRecord {
    static let version: UInt8 = 1
    /// The bytes before the variable fields: no payload is shorter.
    static let fixedSize = 68
    /// No payload is longer: the variable fields are bounded by the ``ClickRecord`` limits, and ids and codes
    /// by the importer (64 bytes each). A reader takes a longer length for a torn header.
    static let maximumSize = 4096

    private static let clickIDOffset = 24
    private static let platforms: [Platform] = [.ios, .android, .desktop, .other]

    let clickID: UnsafeRawPointer
    let createdAt: Int64
    let platform: Platform
    let target: LinkTarget
    let userAgent: UnsafeRawBufferPointer
    let referer: UnsafeRawBufferPointer
    let ip: UnsafeRawBufferPointer
    private let codeFieldsLength: Int
    /// The bytes ``encode(into:)`` writes.
    let size: Int

    /// A click to encode. The User-Agent, referer and client address are cut to the ``ClickRecord`` limits
    /// (at a byte, even inside a UTF-8 sequence: the link path does not look for characters; ``decode(_:)`` cuts
    /// again at a character); `clickID` points at ``ClickID/encodedLength`` bytes.
    @inline(__always)
    init(
        clickID: UnsafeRawPointer, createdAt: Int64, platform: Platform, target: LinkTarget,
        userAgent: UnsafeRawBufferPointer, referer: UnsafeRawBufferPointer, ip: UnsafeRawBufferPointer
    ) {
        self.clickID = clickID
        self.createdAt = createdAt
        self.platform = platform
        self.target = target
        self.userAgent = UnsafeRawBufferPointer(rebasing: userAgent.prefix(ClickRecord.maximumUserAgentLength))
        self.referer = UnsafeRawBufferPointer(rebasing: referer.prefix(ClickRecord.maximumRefererLength))
        self.ip = UnsafeRawBufferPointer(rebasing: ip.prefix(ClickRecord.maximumIPLength))
        codeFieldsLength =
            target.organizationIDBytes.count + target.programIDBytes.count + target.partnerIDBytes.count
            + target.codeBytes.count + 3
        size = Self.fixedSize + codeFieldsLength + self.userAgent.count + self.referer.count + self.ip.count
    }

    /// Writes the payload into the first ``size`` bytes of `destination` and nothing past them. Every one of
    /// those bytes is written, so the result does not depend on what the buffer held before.
    @inline(__always)
    func encode(into destination: UnsafeMutableRawBufferPointer) {
        precondition(destination.count >= size, "a journal record does not fit its buffer")
        let payload = destination.baseAddress!
        payload.storeBytes(of: Self.version, as: UInt8.self)
        payload.storeBytes(of: Self.platformByte(platform), toByteOffset: 1, as: UInt8.self)
        payload.storeBytes(of: UInt16(codeFieldsLength).littleEndian, toByteOffset: 2, as: UInt16.self)
        payload.storeBytes(of: UInt16(userAgent.count).littleEndian, toByteOffset: 4, as: UInt16.self)
        payload.storeBytes(of: UInt16(referer.count).littleEndian, toByteOffset: 6, as: UInt16.self)
        // One 8-byte store writes the address length and zeroes bytes 9–15.
        payload.storeBytes(of: UInt64(ip.count).littleEndian, toByteOffset: 8, as: UInt64.self)
        payload.storeBytes(of: createdAt.littleEndian, toByteOffset: 16, as: Int64.self)
        (payload + Self.clickIDOffset).copyMemory(from: clickID, byteCount: ClickID.encodedLength)
        var cursor = payload + Self.fixedSize
        @inline(__always) func put(_ bytes: UnsafeRawBufferPointer) {
            if let base = bytes.baseAddress, bytes.count > 0 { cursor.copyMemory(from: base, byteCount: bytes.count) }
            cursor += bytes.count
        }
        @inline(__always) func putSeparator() {
            cursor.storeBytes(of: 0, as: UInt8.self)
            cursor += 1
        }
        target.organizationIDBytes.withUnsafeBytes { put($0) }
        putSeparator()
        target.programIDBytes.withUnsafeBytes { put($0) }
        putSeparator()
        target.partnerIDBytes.withUnsafeBytes { put($0) }
        putSeparator()
        target.codeBytes.withUnsafeBytes { put($0) }
        put(userAgent)
        put(referer)
        put(ip)
    }

    /// The click in a payload, or `nil` when the payload is not a version 1 click: another version, lengths
    /// that do not add up to its size, or code fields without exactly three separators. The User-Agent, referer and
    /// address are read with ``ClickRecord/keptText(_:limit:)``, so none is longer in UTF-8 than its limit (the
    /// bytes the writer kept may end inside a character, or not be UTF-8 at all).
    static func decode(_ payload: UnsafeRawBufferPointer) -> ClickRecord? {
        guard payload.count >= fixedSize, payload[0] == version, Int(payload[1]) < platforms.count else { return nil }
        let codeFieldsLength = Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let agentLength = Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 4, as: UInt16.self)))
        let refererLength = Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 6, as: UInt16.self)))
        let ipLength = Int(payload[8])
        guard fixedSize + codeFieldsLength + agentLength + refererLength + ipLength == payload.count else {
            return nil
        }
        var cursor = fixedSize
        func take(_ count: Int) -> UnsafeRawBufferPointer {
            defer { cursor += count }
            return UnsafeRawBufferPointer(rebasing: payload[cursor..<cursor + count])
        }
        func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        let codeFields = take(codeFieldsLength).split(separator: 0, omittingEmptySubsequences: false)
        guard codeFields.count == 4 else { return nil }
        let agent = take(agentLength)
        let referer = take(refererLength)
        let ip = take(ipLength)
        return ClickRecord(
            id: text(payload[clickIDOffset..<clickIDOffset + ClickID.encodedLength]),
            createdAt: Int64(littleEndian: payload.loadUnaligned(fromByteOffset: 16, as: Int64.self)),
            organizationID: text(codeFields[0]), programID: text(codeFields[1]), partnerID: text(codeFields[2]),
            code: text(codeFields[3]), platform: platforms[Int(payload[1])],
            userAgent: ClickRecord.keptText(agent, limit: ClickRecord.maximumUserAgentLength),
            referer: ClickRecord.keptText(referer, limit: ClickRecord.maximumRefererLength),
            ip: ClickRecord.keptText(ip, limit: ClickRecord.maximumIPLength))
    }

    /// The User-Agent bytes of a payload ``decode(_:)`` accepted, exactly as the writer kept them (the request's first
    /// 512 bytes, not always UTF-8): the ingester keys a visitor by these, as the link path does, so that two
    /// User-Agents whose bytes differ are two visitors to both even when they read back as the same text (every
    /// invalid byte becomes U+FFFD).
    static func keptUserAgent(of payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let codeFieldsLength = Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let agentLength = Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 4, as: UInt16.self)))
        let start = fixedSize + codeFieldsLength
        return UnsafeRawBufferPointer(rebasing: payload[start..<start + agentLength])
    }

    @inline(__always)
    private static func platformByte(_ platform: Platform) -> UInt8 {
        switch platform {
        case .ios: return 0
        case .android: return 1
        case .desktop: return 2
        case .other: return 3
        }
    }
}
