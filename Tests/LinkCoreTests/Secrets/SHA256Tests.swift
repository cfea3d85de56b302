import Testing

@testable import LinkCore

/// SHA-256 against FIPS 180-4's examples and lengths around the padding boundaries; digests as kept at rest.
@Suite struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded(2) }.joined() }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func matchesTheStandardsExamples(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func aMillionAs() {
        let message = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(Self.hex(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// 55, 56, 63, 64 and 65 bytes: the lengths where the padding needs one block more or fits.
    @Test(arguments: [55, 56, 63, 64, 65, 119, 120])
    func lengthsAroundTheBlockBoundaryDiffer(length: Int) {
        let message = [UInt8](repeating: 0x78, count: length)
        let digest = SHA256.hash(message)
        #expect(digest.count == 32)
        #expect(digest != SHA256.hash(message + [0x78]))
    }

    @Test func secretsAreKeptAsPrefixedDigestsAndMatchedByThem() {
        let digest = SecretDigest.of("abc")
        #expect(digest == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SecretDigest.isDigest(digest) && !SecretDigest.isDigest("sk_live_abc"))
        #expect(SecretDigest.matches("abc", digest: digest))
        #expect(!SecretDigest.matches("abd", digest: digest) && !SecretDigest.matches("abc", digest: "abc"))
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
