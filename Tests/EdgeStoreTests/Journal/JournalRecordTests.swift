import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// The journal's click payload: what is encoded decodes to the same click, the bytes stay those of version 1
/// (segments written by an earlier build must still be ingested), and a malformed payload is refused; and the
/// frames around it, as the writer writes them.
@Suite struct JournalRecordTests {
    static func target(organization: String, program: String, partner: String, code: String) -> LinkTarget {
        LinkTarget(
            code: CodeRecord(reference: 7, partnerID: partner, code: code, active: true),
            partner: PartnerRecord(id: partner, programID: program, name: "Partner", status: "active"),
            program: ProgramSettings(
                record: ProgramRecord(id: program, organizationID: organization, name: "Program"),
                organizationName: "Organization"),
            publicKey: "pk_test")
    }

    static let acme = target(organization: "org_acme", program: "prg_acme", partner: "part_sam", code: "SAM20")
    static let clickID = "clk_" + String(repeating: "0", count: 30) + "1000000000"

    /// A click as a loop would append it, with its fields as raw bytes.
    struct Click: Sendable, CustomTestStringConvertible {
        var name: String
        var target: LinkTarget
        var platform: Platform = .ios
        var createdAt: Int64 = 1_767_225_600_000
        var userAgent: [UInt8] = Array("Mozilla/5.0 (iPhone)".utf8)
        var referer: [UInt8] = Array("https://ref.example/a".utf8)
        var ip: [UInt8] = Array("127.0.0.1".utf8)

        var testDescription: String { name }

        /// The record the store must receive: the fields cut to their limits at a byte, read as UTF-8, then
        /// characters dropped from the end until the text is within the limit again.
        var expected: ClickRecord {
            func text(_ bytes: [UInt8], _ limit: Int) -> String {
                var scalars = String(decoding: bytes.prefix(limit), as: UTF8.self).unicodeScalars
                while String(scalars).utf8.count > limit { scalars.removeLast() }
                return String(scalars)
            }
            return ClickRecord(
                id: JournalRecordTests.clickID, createdAt: createdAt, organizationID: target.organizationID,
                programID: target.program.record.id, partnerID: target.partnerID, code: target.code,
                platform: platform, userAgent: text(userAgent, ClickRecord.maximumUserAgentLength),
                referer: text(referer, ClickRecord.maximumRefererLength), ip: text(ip, ClickRecord.maximumIPLength))
        }

        /// Encodes the click into a buffer filled with `fill`; checks that nothing past the record was touched.
        func encoded(fill: UInt8 = 0xAA) -> [UInt8] {
            var buffer = [UInt8](repeating: fill, count: JournalRecord.maximumSize + 64)
            var size = 0
            Array(JournalRecordTests.clickID.utf8).withUnsafeBytes { id in
                userAgent.withUnsafeBytes { agent in
                    referer.withUnsafeBytes { referer in
                        ip.withUnsafeBytes { ip in
                            let record = JournalRecord(
                                clickID: id.baseAddress!, createdAt: createdAt, platform: platform, target: target,
                                userAgent: agent, referer: referer, ip: ip)
                            size = record.size
                            buffer.withUnsafeMutableBytes { record.encode(into: $0) }
                        }
                    }
                }
            }
            #expect(buffer[size...].allSatisfy { $0 == fill }, "encode wrote past the record's size")
            return Array(buffer[..<size])
        }
    }

    static let utf8Target = target(organization: "org_日本", program: "prg_ж", partner: "part_ü", code: "CAFÉ☕20")
    /// 64 bytes each, the importer's longest, with multi-byte characters inside.
    static let longestTarget = target(
        organization: "org_" + String(repeating: "é", count: 30), program: "prg_" + String(repeating: "x", count: 60),
        partner: "part_" + String(repeating: "☕", count: 19) + "zz", code: String(repeating: "日", count: 21) + "A")
    static let emptyTarget = target(organization: "", program: "", partner: "", code: "")

    static let clicks: [Click] = [
        Click(name: "plain", target: acme),
        Click(
            name: "empty User-Agent, referer and address", target: acme, platform: .android, userAgent: [],
            referer: [], ip: []),
        Click(name: "empty ids and code", target: emptyTarget, platform: .desktop),
        Click(
            name: "multi-byte UTF-8 everywhere", target: utf8Target, platform: .other,
            userAgent: Array("agent ☕ ü 日本".utf8), referer: Array("https://例え.jp/パス?q=ü".utf8),
            ip: Array("2001:db8::1".utf8)),
        Click(
            name: "every field at its longest", target: longestTarget, createdAt: .max,
            userAgent: Array(String(repeating: "ü", count: 256).utf8),
            referer: Array(String(repeating: "日本", count: 170).utf8) + [0x21, 0x21, 0x21, 0x21],
            ip: Array(String(repeating: "9", count: 64).utf8)),
        Click(
            name: "longer fields are cut, even inside a character", target: utf8Target, createdAt: 0,
            userAgent: [0x41] + Array(String(repeating: "ü", count: 600).utf8),
            referer: Array(String(repeating: "r", count: 3000).utf8), ip: Array(String(repeating: "f", count: 100).utf8)
        ),
        Click(name: "a time before 1970", target: acme, createdAt: -1),
    ]

    @Test(arguments: clicks) func encodedClicksDecodeToTheSameClick(_ click: Click) throws {
        let bytes = click.encoded()
        let fieldsLength =
            click.target.organizationIDBytes.count + click.target.programIDBytes.count
            + click.target.partnerIDBytes.count + click.target.codeBytes.count + 3
        let variableLength =
            min(click.userAgent.count, ClickRecord.maximumUserAgentLength)
            + min(click.referer.count, ClickRecord.maximumRefererLength)
            + min(click.ip.count, ClickRecord.maximumIPLength)
        #expect(bytes.count == JournalRecord.fixedSize + fieldsLength + variableLength)
        #expect(bytes.count <= JournalRecord.maximumSize)
        let decoded = try #require(bytes.withUnsafeBytes { JournalRecord.decode($0) })
        #expect(decoded == click.expected)
        #expect(click.encoded(fill: 0x55) == bytes, "every byte of the record is written, whatever the buffer held")
    }

    @Test func theLongestCaseReallyHoldsTheLongestIdsAndFields() throws {
        let target = Self.longestTarget
        for bytes in [target.organizationIDBytes, target.programIDBytes, target.partnerIDBytes, target.codeBytes] {
            #expect(bytes.count == 64)
        }
        let click = try #require(Self.clicks.first { $0.name == "every field at its longest" })
        #expect(click.userAgent.count == ClickRecord.maximumUserAgentLength)
        #expect(click.referer.count == ClickRecord.maximumRefererLength)
        #expect(click.ip.count == ClickRecord.maximumIPLength)
    }

    @Test func fieldsAreCutAtTheirLimitsInBytes() throws {
        let click = Self.clicks.first { $0.name.contains("cut") }!
        let bytes = click.encoded()
        let lengths = bytes.withUnsafeBytes { payload in
            [4, 6].map { Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: $0, as: UInt16.self))) }
        }
        #expect(lengths[0] == ClickRecord.maximumUserAgentLength)
        #expect(lengths[1] == ClickRecord.maximumRefererLength)
        #expect(Int(bytes[8]) == ClickRecord.maximumIPLength)
        // 0x41 then 255 two-byte "ü": the 512th byte is the first half of one, which is dropped (read as U+FFFD, it
        // would make the text 514 bytes).
        let decoded = try #require(bytes.withUnsafeBytes { JournalRecord.decode($0) })
        #expect(decoded.userAgent == "A" + String(repeating: "ü", count: 255))
        #expect(decoded.userAgent.utf8.count == ClickRecord.maximumUserAgentLength - 1)
    }

    /// Bytes that are not UTF-8 are read as U+FFFD (3 bytes each), and the text is cut again at a character so it
    /// stays within the limit in UTF-8: a 21-byte agent and 400 bytes 0xFF read back as the agent and 163 U+FFFD
    /// (510 bytes), not all 400 (1,221 bytes).
    @Test func textReadBackIsWithinTheLimitInUTF8() throws {
        let agent = Array("Mozilla/5.0 (iPhone) ".utf8)
        let click = Click(
            name: "invalid UTF-8", target: Self.acme, userAgent: agent + [UInt8](repeating: 0xFF, count: 400),
            referer: Array(String(repeating: "r", count: 1023).utf8) + Array("é".utf8), ip: [0xFF, 0x31])
        let decoded = try #require(click.encoded().withUnsafeBytes { JournalRecord.decode($0) })
        let replacements = (ClickRecord.maximumUserAgentLength - agent.count) / 3
        #expect(decoded.userAgent == "Mozilla/5.0 (iPhone) " + String(repeating: "\u{FFFD}", count: replacements))
        #expect(decoded.userAgent.utf8.count <= ClickRecord.maximumUserAgentLength)
        #expect(decoded.referer == String(repeating: "r", count: 1023), "the cut half of é is dropped")
        #expect(decoded.ip == "\u{FFFD}1")
        #expect(decoded == click.expected)
    }

    /// Version 1, byte for byte. A change here breaks the ingestion of segments an earlier build left behind:
    /// give the new layout a new version instead, and keep decoding this one.
    static let goldenPayload: [UInt8] =
        [
            0x01,  // version
            0x00,  // platform: ios
            0x20, 0x00,  // code fields: 32 bytes
            0x14, 0x00,  // User-Agent: 20 bytes
            0x15, 0x00,  // referer: 21 bytes
            0x09,  // client address: 9 bytes
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // zero
            0x00, 0xA8, 0xDA, 0x76, 0x9B, 0x01, 0x00, 0x00,  // 1_767_225_600_000 ms since 1970
        ]
        + Array("clk_000000000000000000000000000000".utf8) + Array("1000000000".utf8)  // the click id
        + Array("org_acme".utf8) + [0] + Array("prg_acme".utf8) + [0] + Array("part_sam".utf8) + [0]
        + Array("SAM20".utf8)  // the code fields
        + Array("Mozilla/5.0 (iPhone)".utf8) + Array("https://ref.example/a".utf8) + Array("127.0.0.1".utf8)

    @Test func theVersion1LayoutIsPinned() throws {
        #expect(Self.goldenPayload.count == 150)
        #expect(JournalRecord.fixedSize == 68)
        let click = Click(name: "golden", target: Self.acme)
        #expect(click.encoded() == Self.goldenPayload)
        #expect(Self.goldenPayload.withUnsafeBytes { JournalRecord.decode($0) } == click.expected)
    }

    @Test func thePlatformIsOneByteInAFixedOrder() {
        for (platform, byte) in [(Platform.ios, 0), (.android, 1), (.desktop, 2), (.other, 3)] as [(Platform, UInt8)] {
            let bytes = Click(name: "platform", target: Self.acme, platform: platform).encoded()
            #expect(bytes[1] == byte, "\(platform)")
            #expect(bytes.withUnsafeBytes { JournalRecord.decode($0) }?.platform == platform)
        }
    }

    /// The segment around the payload, as the writer puts it in a file (format version 2): the segment header
    /// (magic, version, the writer's marker, CRC-32C), the frame (marker, length, kind, number, CRC-32C), the
    /// payload padded to 8 bytes, and the seal frame when the writer closes. The checksums were computed apart, with
    /// a bit-at-a-time CRC-32C.
    @Test func theWriterWritesTheVersion2SegmentHeaderFrameAndSeal() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let writer = journal.makeWriter(stream: 0, marker: 0x5EED_CAFE)
        let click = Click(name: "golden", target: Self.acme)
        Array(Self.clickID.utf8).withUnsafeBytes { id in
            click.userAgent.withUnsafeBytes { agent in
                click.referer.withUnsafeBytes { referer in
                    click.ip.withUnsafeBytes { ip in
                        writer.append(
                            clickID: id.baseAddress!, createdAt: click.createdAt, platform: click.platform,
                            target: click.target, userAgent: agent, referer: referer, ip: ip)
                    }
                }
            }
        }
        writer.close()
        let name = try #require(journal.segmentNames().first)
        let file = try #require(FileManager.default.contents(atPath: journal.directory + "/" + name))
        let expected: [UInt8] =
            [0x54, 0x4A, 0x4E, 0x4C, 0x02, 0x00, 0x00, 0x00]  // "TJNL", format version 2
            + [0xFE, 0xCA, 0xED, 0x5E, 0x5F, 0x22, 0x4C, 0x01]  // the marker, the header's CRC-32C
            + [0xFE, 0xCA, 0xED, 0x5E, 0x96, 0x00, 0x01, 0x00]  // marker, payload length 150, a click
            + [0x00, 0x00, 0x00, 0x00, 0x7D, 0x30, 0x33, 0x7C]  // frame number 0, CRC-32C
            + Self.goldenPayload + [0x00, 0x00]  // payload, padded to 152
            + [0xFE, 0xCA, 0xED, 0x5E, 0x00, 0x00, 0x02, 0x00]  // marker, no payload, the seal
            + [0x01, 0x00, 0x00, 0x00, 0x92, 0x80, 0x2C, 0x49]  // frame number 1, CRC-32C
        #expect([UInt8](file) == expected)
    }

    // MARK: - Malformed payloads

    static func decodes(_ payload: [UInt8]) -> Bool {
        payload.withUnsafeBytes { JournalRecord.decode($0) } != nil
    }

    static func changed(_ offset: Int, to value: UInt8) -> [UInt8] {
        var bytes = goldenPayload
        bytes[offset] = value
        return bytes
    }

    @Test func theGoldenPayloadIsValidSoEveryRejectionBelowIsCausedByItsChange() {
        #expect(Self.decodes(Self.goldenPayload))
    }

    @Test(arguments: [0, 2, 0x7F, 0xFF] as [UInt8]) func anotherVersionIsRefused(_ version: UInt8) {
        #expect(!Self.decodes(Self.changed(0, to: version)))
    }

    @Test func anUnknownPlatformIsRefused() {
        #expect(!Self.decodes(Self.changed(1, to: 4)))
        #expect(!Self.decodes(Self.changed(1, to: 0xFF)))
    }

    /// Each length one more and one less than the bytes hold: the total no longer adds up.
    @Test(arguments: [2, 4, 6, 8]) func lengthsThatDoNotAddUpAreRefused(_ offset: Int) {
        let length = Self.goldenPayload[offset]
        #expect(!Self.decodes(Self.changed(offset, to: length + 1)))
        #expect(!Self.decodes(Self.changed(offset, to: length - 1)))
        // The high byte of the 16-bit lengths: 256 more.
        if offset < 8 { #expect(!Self.decodes(Self.changed(offset + 1, to: 1))) }
    }

    @Test func aPayloadCutShortOrWithExtraBytesIsRefused() {
        #expect(!Self.decodes(Array(Self.goldenPayload.dropLast())))
        #expect(!Self.decodes(Self.goldenPayload + [0]))
        #expect(!Self.decodes(Array(Self.goldenPayload.prefix(JournalRecord.fixedSize))))
        #expect(!Self.decodes(Array(Self.goldenPayload.prefix(JournalRecord.fixedSize - 1))))
        #expect(!Self.decodes([]))
    }

    @Test func codeFieldsWithoutExactlyThreeSeparatorsAreRefused() throws {
        let fields = JournalRecord.fixedSize
        let separators = (fields..<fields + 32).filter { Self.goldenPayload[$0] == 0 }
        #expect(separators.count == 3)
        for separator in separators {
            #expect(!Self.decodes(Self.changed(separator, to: 0x5F)), "separator at \(separator) missing")
        }
        // A fourth separator inside the code.
        #expect(!Self.decodes(Self.changed(fields + 29, to: 0)))
        // Lengths that add up, but the code fields end before the last separator: it falls into the User-Agent.
        var short = Self.goldenPayload
        short[2] = 0x1A  // 26 bytes: "org_acme\0prg_acme\0part_sa"
        short[4] = 0x1A  // the User-Agent takes the 6 bytes the code fields lost
        #expect(!Self.decodes(short))
    }
}
