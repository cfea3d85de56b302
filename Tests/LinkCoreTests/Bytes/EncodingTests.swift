import Testing

@testable import LinkCore

@Suite struct EncodingTests {
    @Test func percentEncodingKeepsOnlyUnreservedBytes() {
        #expect(PercentEncoding.encode("SAM20") == "SAM20")
        #expect(PercentEncoding.encode("a b/c?d#e%f&g=h+i~j.k_l-m") == "a%20b%2Fc%3Fd%23e%25f%26g%3Dh%2Bi~j.k_l-m")
        #expect(PercentEncoding.encode("é\r\n") == "%C3%A9%0D%0A")
    }

    @Test func pathSegmentsDecodeStrictly() {
        func decode(_ text: String, capacity: Int = 64) -> String? {
            var output = [UInt8](repeating: 0, count: capacity)
            let bytes = Array(text.utf8)
            let count = bytes.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { PercentEncoding.decodeSegment(input, into: $0) }
            }
            return count.map { String(decoding: output[..<$0], as: UTF8.self) }
        }
        #expect(decode("%53AM20") == "SAM20")
        #expect(decode("a+b%20c") == "a+b c")
        #expect(decode("%") == nil)
        #expect(decode("%4") == nil)
        #expect(decode("%zz") == nil)
        #expect(decode("abcdef", capacity: 5) == nil)
        #expect(decode("abcde", capacity: 5) == "abcde")
    }

    /// A segment without `%` is handed back as it is, nothing copied (the link path's plain key); one with escapes is
    /// decoded into the scratch, or refused when malformed or too long for it.
    @Test func aSegmentIsDecodedIntoTheScratchOnlyWhenItHoldsAnEscape() {
        var scratch = [UInt8](repeating: 0, count: 8)
        func decoded(_ text: String) -> (text: String?, copied: Bool) {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { input in
                scratch.withUnsafeMutableBytes { memory in
                    guard let result = PercentEncoding.decodedSegment(input, scratch: memory) else {
                        return (nil, false)
                    }
                    return (String(decoding: result, as: UTF8.self), result.baseAddress != input.baseAddress)
                }
            }
        }
        #expect(decoded("pk_acme") == ("pk_acme", false))
        #expect(decoded("%70k_acme") == ("pk_acme", true))
        #expect(decoded("pk%5Facme") == ("pk_acme", true))
        #expect(decoded("pk_acme_longer_than_eight") == ("pk_acme_longer_than_eight", false))
        #expect(decoded("%70k_acme_long").text == nil)
        #expect(decoded("pk%zz").text == nil)
        #expect(decoded("pk%").text == nil)
    }

    @Test func htmlEscapingCoversEverySpecialCharacter() {
        #expect(
            String(decoding: HTMLEscaping.escape("<a href=\"x\">'&'</a>"), as: UTF8.self)
                == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    /// Escaping into a writer, from contiguous bytes (runs copied whole) or from any sequence (byte by byte),
    /// writes what `escape` returns; a writer too small holds a prefix of it.
    @Test func escapingIntoAWriterMatchesEscapeForAnyBytesAndKeepsAPrefixWhenFull() {
        let alphabet: [UInt8] = Array("&<>\"'abc =/?é".utf8) + [0, 0x3F, 0x3D, 0x7F, 0xFF]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement()! }
            let text = String(decoding: bytes, as: UTF8.self)
            let expected = HTMLEscaping.escape(text)
            let capacity = round % 3 == 0 ? Int.random(in: 0...expected.count, using: &generator) : 6 * 40 * 4
            for path in 0..<3 {
                var storage = [UInt8](repeating: 0, count: max(capacity, 1))
                let written = storage.withUnsafeMutableBytes { raw -> [UInt8] in
                    var writer = ByteWriter(base: raw.baseAddress!, capacity: capacity)
                    switch path {
                    case 0: HTMLEscaping.write(text.utf8, into: &writer)
                    case 1: HTMLEscaping.write(Array(text.utf8).lazy.map { $0 }, into: &writer)
                    default: Array(text.utf8).withUnsafeBytes { HTMLEscaping.write(contiguous: $0, into: &writer) }
                    }
                    return Array(raw[..<writer.count])
                }
                if capacity >= expected.count {
                    #expect(written == expected, "path \(path): \(bytes)")
                } else {
                    #expect(Array(expected.prefix(written.count)) == written, "path \(path): \(bytes)")
                }
            }
        }
    }

    @Test func asciiFoldingTouchesOnlyLetters() {
        #expect(ASCII.lowercased("SaM20-É[@]") == "sam20-É[@]")
    }
}
