import EdgeServer
import Testing

/// `--journal-max-bytes`: bytes, or a whole number of binary units; anything else is refused.
@Suite struct ByteSizeTextTests {
    @Test func sizesInBytesAndBinaryUnits() {
        let sizes: [(String, Int)] = [
            ("1048576", 1 << 20), ("64KiB", 64 << 10), ("512MiB", 512 << 20), ("4GiB", 4 << 30), ("1TiB", 1 << 40),
            ("1", 1),
        ]
        for (text, bytes) in sizes { #expect(ByteSizeText.bytes(parsing: text) == bytes, "\(text)") }
    }

    @Test func anythingElseIsRefused() {
        for text in [
            "", "0", "0MiB", "-1", "+5", "1.5GiB", "5 MiB", "5MB", "5M", "5mib", "GiB", "2048TiB", "99999999999999999",
        ] {
            #expect(ByteSizeText.bytes(parsing: text) == nil, "\(text)")
        }
    }

    @Test func theLogShowsTheLargestUnitToATenth() {
        #expect(ByteSizeText.text(512 << 20) == "512 MiB")
        #expect(ByteSizeText.text(4 << 30) == "4 GiB")
        #expect(ByteSizeText.text(1536 << 10) == "1.5 MiB")
        // The journal's default limit on one machine, once logged as "40385970KiB".
        #expect(ByteSizeText.text(40_385_970 << 10) == "38.5 GiB")
        #expect(ByteSizeText.text(1023) == "1023 bytes")
        #expect(ByteSizeText.text(1024) == "1 KiB")
        #expect(ByteSizeText.text(1000) == "1000 bytes")
    }
}
