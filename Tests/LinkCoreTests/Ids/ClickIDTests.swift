import Testing

@testable import LinkCore

@Suite struct ClickIDTests {
    func encode(time: UInt64, reference: UInt32, random: UInt64, tag: [UInt8]) -> String {
        var raw = [UInt8](repeating: 0, count: ClickID.byteCount)
        raw.withUnsafeMutableBytes {
            ClickID.writeSignedBytes(
                timestampMilliseconds: time, codeReference: reference, random: random, into: $0.baseAddress!)
        }
        raw.replaceSubrange(18..<30, with: tag)
        var text = [UInt8](repeating: 0, count: ClickID.encodedLength)
        raw.withUnsafeBytes { raw in text.withUnsafeMutableBytes { ClickID.encode(raw, into: $0.baseAddress!) } }
        return String(decoding: text, as: UTF8.self)
    }

    @Test func roundTripsEveryField() throws {
        let tag: [UInt8] = Array(1...12)
        let text = encode(time: 1_795_982_138_320, reference: 0xDEAD_BEEF, random: 0x0123_4567_89AB_CDEF, tag: tag)
        #expect(text.hasPrefix("clk_") && text.utf8.count == 44)
        let id = try #require(ClickID(parsing: text))
        #expect(id.timestampMilliseconds == 1_795_982_138_320)
        #expect(id.codeReference == 0xDEAD_BEEF)
        #expect(id.random == 0x0123_4567_89AB_CDEF)
        #expect(id.tag == tag)
    }

    @Test func idsSortByTime() {
        var previous = ""
        for time in stride(from: UInt64(1_700_000_000_000), to: 1_700_000_100_000, by: 997) {
            let text = encode(
                time: time, reference: UInt32(time % 7), random: UInt64.random(in: 0...UInt64.max),
                tag: [UInt8](repeating: 0xFF, count: 12))
            #expect(text > previous)
            previous = text
        }
    }

    @Test func idsAreURLSafe() {
        let text = encode(time: .max >> 16, reference: .max, random: .max, tag: [UInt8](repeating: 0xFF, count: 12))
        #expect(text.utf8.allSatisfy { ASCII.isUnreserved($0) })
    }

    @Test(arguments: [
        "", "clk_", "clk_short", "cus_" + String(repeating: "A", count: 40), "clk_" + String(repeating: "!", count: 40),
        "clk_" + String(repeating: "A", count: 41),
    ])
    func rejectsMalformedIDs(_ text: String) {
        #expect(ClickID(parsing: text) == nil)
    }

    @Test func sortableBase64RoundTripsAndKeepsOrder() throws {
        var generator = SystemRandomNumberGenerator()
        var pairs: [([UInt8], String)] = []
        for _ in 0..<200 {
            let bytes = (0..<9).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var text = [UInt8](repeating: 0, count: 12)
            bytes.withUnsafeBytes { raw in
                text.withUnsafeMutableBytes { SortableBase64.encode(raw, into: $0.baseAddress!) }
            }
            #expect(SortableBase64.decode(text) == bytes)
            pairs.append((bytes, String(decoding: text, as: UTF8.self)))
        }
        let byBytes = pairs.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
        #expect(byBytes == pairs.map(\.1).sorted())
    }
}
