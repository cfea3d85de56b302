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

    @Test func theLogShowsTheLargestWholeUnit() {
        #expect(ByteSizeText.text(512 << 20) == "512MiB")
        #expect(ByteSizeText.text(4 << 30) == "4GiB")
        #expect(ByteSizeText.text(1536 << 10) == "1536KiB")
        #expect(ByteSizeText.text(1000) == "1000 bytes")
    }
}
