import Foundation
import TestSupport
import Testing
import Tolt
import ToltTestSupport

/// Links and install referrers in the shapes the way to the app can give them, claimed against a real edge: a Play
/// referrer encoded again by a link wrapper, and a parameter with a broken escape before a valid one.
@Suite(.highPriority) struct ClaimEncodingTests {
    /// Percent-encodes everything but RFC 3986's unreserved characters, as a wrapper encoding a whole URL does.
    static func encoded(_ text: String) throws -> String {
        var unreserved = CharacterSet(charactersIn: "-._~")
        unreserved.formUnion(CharacterSet(charactersIn: "a"..."z"))
        unreserved.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        unreserved.formUnion(CharacterSet(charactersIn: "0"..."9"))
        return try #require(text.addingPercentEncoding(withAllowedCharacters: unreserved))
    }

    /// The edge's Play redirect for an Android tap on a program without a deep-link template: its `referrer` as it
    /// stands in the URL (percent-encoded once), and encoded once and twice more, is claimed each time: the SDK decodes
    /// up to three times. Encoded a fourth time, it reads as no referrer, and sends nothing.
    @Test func aReferrerEncodedAgainByALinkWrapper() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        var referrers: [(referrer: String, click: String)] = []
        for _ in 0..<3 {
            let tap = try edge.tap(code: "LEE", userAgent: Agents.android)
            let location = try #require(tap.header("location"), "\(tap.status)")
            let components = try #require(URLComponents(string: location))
            var referrer = try #require(components.percentEncodedQueryItems?.first { $0.name == "referrer" }?.value)
            #expect(referrer.hasPrefix("tolt_code%3DLEE%26tolt_click%3Dclk_"))
            for _ in 0..<referrers.count { referrer = try Self.encoded(referrer) }
            referrers.append((referrer, try ClaimFormTests.clickID(in: tap)))
        }
        #expect(referrers[2].referrer.hasPrefix("tolt_code%25253DLEE%252526tolt_click%25253Dclk_"))
        let fourTimes = try Self.encoded(referrers[2].referrer)
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            for (index, form) in referrers.enumerated() {
                let result = try await Tolt.claim(installReferrer: form.referrer, appUserId: "android-\(index)")
                #expect(
                    result
                        == ClaimResult(status: .claimed, appUserId: "android-\(index)", code: "LEE", partnerName: "Lee"),
                    "\(form.referrer)")
            }
            #expect(try await Tolt.claim(installReferrer: fourTimes, appUserId: "android-3") == nil)
        }
        for (index, form) in referrers.enumerated() {
            #expect(try edge.customer("android-\(index)")?.clickId == form.click, "encoded \(index + 1) times")
        }
        #expect(try edge.customer("android-3") == nil)
    }

    /// A broken escape before a valid parameter, in a deep link and in a referrer: both skip it and claim the valid
    /// code after it (a link's `%ZZ` reaches the SDK re-encoded by `URL`, as `%25ZZ`).
    @Test func aBrokenEscapeIsSkippedForALaterValidParameter() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        let links = [
            "https://acme.example/claim?tolt_code=%ZZ&tolt_code=SAM20", "myapp://claim?tolt_code=100%&tolt_code=SAM20",
            "myapp://claim?tolt_code=%E2%28&tolt_code=SAM20", "myapp://claim?tolt_click=%ZZ&tolt_code=SAM20",
        ]
        let referrers = [
            "tolt_code=%ZZ&tolt_code=LEE", "tolt_code=%25ZZ&tolt_code=LEE", "tolt_click=%ZZ&tolt_code=LEE",
        ]
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            for (index, text) in links.enumerated() {
                let link = try #require(URL(string: text), "\(text)")
                let result = try await Tolt.claim(url: link, appUserId: "link-\(index)")
                #expect(result?.status == .claimed, "\(text)")
            }
            for (index, referrer) in referrers.enumerated() {
                let result = try await Tolt.claim(installReferrer: referrer, appUserId: "referrer-\(index)")
                #expect(result?.status == .claimed, "\(referrer)")
            }
            // Only broken ones: nothing to claim, and no request.
            #expect(try await Tolt.claim(url: URL(string: "myapp://claim?tolt_code=%ZZ")!, appUserId: "none") == nil)
            #expect(try await Tolt.claim(installReferrer: "tolt_code=%ZZ", appUserId: "none") == nil)
        }
        for index in links.indices { #expect(try edge.customer("link-\(index)")?.code == "SAM20", "\(links[index])") }
        for index in referrers.indices { #expect(try edge.customer("referrer-\(index)")?.code == "LEE") }
        #expect(try edge.customer("none") == nil)
    }
}
