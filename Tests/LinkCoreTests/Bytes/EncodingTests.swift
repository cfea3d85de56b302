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

    @Test func htmlEscapingCoversEverySpecialCharacter() {
        #expect(
            String(decoding: HTMLEscaping.escape("<a href=\"x\">'&'</a>"), as: UTF8.self)
                == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func asciiFoldingTouchesOnlyLetters() {
        #expect(ASCII.lowercased("SaM20-É[@]") == "sam20-É[@]")
    }
}
