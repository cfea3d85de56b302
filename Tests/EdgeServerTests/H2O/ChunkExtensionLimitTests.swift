import Foundation
import TestSupport
import Testing

/// README: after a chunk's size, a `;` extension of at most 254 bytes is allowed. ``ChunkedBodyTests`` refuses 255;
/// this pins that 254, on a data chunk and on the last one, still delivers the claim.
@Suite struct ChunkExtensionLimitTests {
    @Test func anExtensionOf254BytesIsReadAndTheClaimAnswered() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let claim = Array(#"{"public_id":"pk_acme","app_user_id":"extended","code":"LEE"}"#.utf8)
        let extensionText = ";" + String(repeating: "e", count: 254)
        var body = Array((String(claim.count, radix: 16) + extensionText + "\r\n").utf8) + claim
        body += Array(("\r\n0" + extensionText + "\r\n\r\n").utf8)
        let exchange = try RawExchange.run([ChunkedBodyTests.head + body], port: server.port)
        let response = try exchange.only
        #expect(response.isClaim("claimed", user: "extended"), "\(response.status) \(response.text)")
        #expect(!exchange.closed, "the connection stays open")
    }
}
