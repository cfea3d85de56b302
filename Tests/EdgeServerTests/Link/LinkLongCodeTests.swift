import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// A code near the longest a code may be (64 bytes), typed in a wider form or pasted with whitespace, is decoded
/// whole from the link's path, and matches as a claim of the same text does.
@Suite struct LinkLongCodeTests {
    /// Bo holds a 24-byte code and a 64-byte code (the longest a code may be) beside BARE1.
    static let long24 = "SUMMERSALE2025TOKYOSHOP1"
    static let long64 = String(repeating: "A", count: 64)
    static let config = ConfigFixtures.standard.replacingOccurrences(
        of: #"{"code":"BARE1","active":true}"#,
        with: #"{"code":"BARE1","active":true},{"code":"\#(long24)","active":true},{"code":"\#(long64)","active":true}"#
    )

    static func path(_ code: String) -> String {
        "/a/pk_acme/" + String(decoding: PercentEncoding.encode(code.utf8), as: UTF8.self)
    }

    /// Full-width ASCII: U+FF01–U+FF5E for `!`–`~`.
    static func fullWidth(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { Unicode.Scalar($0.value + 0xFEE0)! }))
    }

    /// Mathematical bold capitals and digits, 4 bytes each: U+1D400 for `A`, U+1D7CE for `0`.
    static func mathBold(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    Unicode.Scalar(($0.value >= 0x41 ? 0x1D400 - 0x41 : 0x1D7CE - 0x30) + $0.value)!
                }))
    }

    /// The 24-character code typed full-width is 72 bytes, and 96 in math bold: a claim takes it, and so does its
    /// link (the path was decoded into 64 bytes, and such a link was a 404).
    @Test func aLongCodeTypedWiderMatchesInALinkAsInAClaim() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        for (user, typed) in [("tokyo", Self.fullWidth(Self.long24)), ("bold", Self.mathBold(Self.long24))] {
            let claim = try client.claim(ClaimBody.recent(user: user, code: typed))
            #expect(claim.isClaim("claimed", user: user), "\(claim.status) \(claim.text)")
            let link = try client.request("GET", Self.path(typed), headers: [("User-Agent", Agents.iPhone)])
            #expect(link.status == 200, "the link of the code the claim took: \(link.status)")
        }
    }

    /// The longest code with whitespace or a zero-width space pasted around it is that code's link, as a shorter
    /// code's is; a path that decodes to more than any typed code could is still a 404.
    @Test func whitespaceAroundTheLongestCodeIsDroppedInALink() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        #expect(
            try client.request("GET", Self.path(Self.long64), headers: [("User-Agent", Agents.iPhone)]).status == 200)
        for (prefix, suffix) in [("", " "), ("", "\u{200B}"), ("\u{200B}", "\u{3000}\n")] {
            let response = try client.request(
                "GET", Self.path(prefix + Self.long64 + suffix), headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 200, "\(Array((prefix + suffix).unicodeScalars)): \(response.status)")
        }
        let tooLong = String(repeating: "\u{200B}", count: 100) + Self.long64
        #expect(try client.request("GET", Self.path(tooLong), headers: [("User-Agent", Agents.iPhone)]).status == 404)
    }
}
