import Foundation
import TestSupport
import Testing
import Tolt
import ToltTestSupport

/// Each claim form against a real edge on an ephemeral port, with the documented calls: a code, a click id, a
/// deep link, and a Google Play install referrer taken from the edge's own redirects.
@Suite(.highPriority) struct ClaimFormTests {
    /// The click id in a link answer's `Location` (a template's or Play's), decoded.
    static func clickID(in response: HTTPResponse) throws -> String {
        let location = try #require(response.header("location"), "\(response.status) \(response.text)")
        let components = try #require(URLComponents(string: location))
        if let click = components.queryItems?.first(where: { $0.name == "tolt_click" })?.value { return click }
        let referrer = try #require(components.queryItems?.first { $0.name == "referrer" }?.value, "\(location)")
        let click = try #require(URLComponents(string: "?" + referrer)?.queryItems?.first { $0.name == "tolt_click" })
        return try #require(click.value)
    }

    @Test func aCodeIsClaimedThenTheFirstCodeWins() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            // The code in effect as stored, and its partner's name.
            let first = try await Tolt.claim(code: "sam20", appUserId: "user-code")
            #expect(first == ClaimResult(status: .claimed, appUserId: "user-code", code: "SAM20", partnerName: "Sam"))
            // Another code: nothing said of whose user this is.
            let second = try await Tolt.claim(code: "LEE", appUserId: "user-code")
            #expect(second == ClaimResult(status: .alreadyClaimed, appUserId: "user-code", isSameClaim: false))
            // The first code again, in another case (a later launch claiming again): the code did apply.
            let again = try await Tolt.claim(code: "Sam20", appUserId: "user-code")
            #expect(
                again
                    == ClaimResult(
                        status: .alreadyClaimed, appUserId: "user-code", isSameClaim: true, code: "SAM20",
                        partnerName: "Sam"))
        }
        let customer = try #require(try edge.customer("user-code"))
        #expect(customer.partnerId == "part_sam")
        #expect(customer.code == "SAM20")
        #expect(customer.clickId == nil)
    }

    @Test func aClickIdFromARealTap() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        let click = try Self.clickID(in: try edge.tap(code: "SAM20", userAgent: Agents.iPhone))
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let claimed = try await Tolt.claim(clickId: click, appUserId: "user-click")
            #expect(
                claimed == ClaimResult(status: .claimed, appUserId: "user-click", code: "SAM20", partnerName: "Sam"))
            let again = try await Tolt.claim(clickId: click, appUserId: "user-click")
            #expect(again.status == .alreadyClaimed && again.isSameClaim && again.code == "SAM20")
        }
        let customer = try #require(try edge.customer("user-click"))
        #expect(customer.clickId == click)
        #expect(customer.partnerId == "part_sam")
    }

    @Test func theDeepLinkARealTapOpens() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        // The program's template: myapp://claim?tolt_code=SAM20&tolt_click=clk_…
        let tap = try edge.tap(code: "sam20", userAgent: Agents.iPhone)
        #expect(tap.status == 302)
        let location = try #require(tap.header("location"))
        let link = try #require(URL(string: location))
        #expect(link.scheme == "myapp")
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let result = try await Tolt.claim(url: link, appUserId: "user-link")
            #expect(result == ClaimResult(status: .claimed, appUserId: "user-link", code: "SAM20", partnerName: "Sam"))
            // A link with only a code, as a bot's tap (no click) or a link the app builds itself gets.
            let codeOnly = try #require(URL(string: "myapp://claim?tolt_code=LEE&tolt_click="))
            #expect(try await Tolt.claim(url: codeOnly, appUserId: "user-code-link")?.status == .claimed)
        }
        #expect(try edge.customer("user-link")?.clickId == (try Self.clickID(in: tap)))
        #expect(try edge.customer("user-code-link")?.partnerId == "part_lee")
        #expect(try edge.customer("user-code-link")?.clickId == nil)
    }

    @Test func theClickWinsOverTheCodeInALink() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        let click = try Self.clickID(in: try edge.tap(code: "SAM20", userAgent: Agents.iPhone))
        let link = try #require(URL(string: "https://app.example.com/open?tolt_code=LEE&tolt_click=\(click)"))
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            #expect(try await Tolt.claim(url: link, appUserId: "user-both")?.status == .claimed)
        }
        #expect(try edge.customer("user-both")?.partnerId == "part_sam")
        #expect(try edge.customer("user-both")?.clickId == click)
    }

    /// A code that must be percent-encoded, through the template's redirect for a bot (which carries no click; a
    /// bot is sent on only to a web address, a universal link's): the SDK decodes what the edge encoded.
    @Test func aPercentEncodedCodeInARealRedirect() async throws {
        let config = """
            {"organizations":[{"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret",
              "programs":[{"id":"prg_acme","name":"Acme Pro",
                "app_links":{"deep_link_template":"https://app.example.com/claim?tolt_code={code}&tolt_click={click_id}"},
                "partners":[{"id":"part_cafe","name":"Café","status":"active",
                             "codes":[{"code":"Café+1&x=y","active":true}]}]}]}]}
            """
        let edge = try EdgeTestServer(config: config)
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        let tap = try edge.tap(code: "caf%C3%A9%2B1%26x%3Dy", userAgent: Agents.curl)
        let location = try #require(tap.header("location"), "\(tap.status) \(tap.text)")
        #expect(location == "https://app.example.com/claim?tolt_code=Caf%C3%A9%2B1%26x%3Dy&tolt_click=")
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let link = try #require(URL(string: location))
            let result = try await Tolt.claim(url: link, appUserId: "user-café")
            #expect(result?.status == .claimed)
        }
        #expect(try edge.customer("user-café")?.code == "Café+1&x=y")
    }

    /// A success status a later edge may add reaches the app as a status with its raw value.
    @Test func aStatusNewerThanTheSDKReachesTheApp() async throws {
        let newer = #"{"success":true,"message":"Success","data":{"status":"transferred","app_user_id":"u"}}"#
        let proxy = try ScriptedProxy(script: [], then: .answer(status: 200, body: newer))
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let result = try await Tolt.claim(code: "SAM20", appUserId: "u")
            #expect(result.status.rawValue == "transferred")
            #expect(result.status != .claimed)
        }
        #expect(proxy.requests.count == 1)
    }

    @Test func linksWithoutToltParametersGiveNilAndSendNothing() async throws {
        let proxy = try ScriptedProxy(script: [], then: .answer(status: 500, body: "must not be asked"))
        defer { proxy.stop() }
        let sandbox = try ToltSandbox(defaultBaseURL: proxy.baseURL)
        defer { sandbox.remove() }
        try await sandbox.run { () async throws in
            // Before configure too: a link that is not Tolt's is no error.
            #expect(try await Tolt.claim(url: URL(string: "myapp://settings")!, appUserId: "u") == nil)
            Tolt.configure(publicId: "pk_acme")
            for link in ["myapp://settings", "https://app.example.com/?code=SAM20", "myapp://claim?tolt_code="] {
                #expect(try await Tolt.claim(url: URL(string: link)!, appUserId: "u") == nil, "\(link)")
            }
            let organic = "utm_source=google-play&utm_medium=organic"
            #expect(try await Tolt.claim(installReferrer: organic, appUserId: "u") == nil)
        }
        #expect(proxy.connections == 0)
    }

    /// An Android tap on a program without a deep-link template goes to Play with `&referrer=…`; the app reads
    /// that referrer through Play's Install Referrer API (decoded once), or some library hands it on encoded.
    @Test func theInstallReferrerOfARealPlayRedirect() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        func referrer(encoded: Bool) throws -> (referrer: String, click: String) {
            let tap = try edge.tap(code: "LEE", userAgent: Agents.android)
            let location = try #require(tap.header("location"), "\(tap.status)")
            #expect(location.hasPrefix("https://play.google.com/store/apps/details?id=com.acme.lite&hl=en&referrer="))
            let components = try #require(URLComponents(string: location))
            let items = encoded ? components.percentEncodedQueryItems : components.queryItems
            let value = try #require(items?.first { $0.name == "referrer" }?.value)
            return (value, try Self.clickID(in: tap))
        }
        let asPlayGivesIt = try referrer(encoded: false)
        #expect(asPlayGivesIt.referrer == "tolt_code=LEE&tolt_click=\(asPlayGivesIt.click)")
        let stillEncoded = try referrer(encoded: true)
        #expect(stillEncoded.referrer == "tolt_code%3DLEE%26tolt_click%3D\(stillEncoded.click)")
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let first = try await Tolt.claim(installReferrer: asPlayGivesIt.referrer, appUserId: "android-1")
            #expect(first == ClaimResult(status: .claimed, appUserId: "android-1", code: "LEE", partnerName: "Lee"))
            let second = try await Tolt.claim(installReferrer: stillEncoded.referrer, appUserId: "android-2")
            #expect(second?.status == .claimed)
        }
        #expect(try edge.customer("android-1")?.clickId == asPlayGivesIt.click)
        #expect(try edge.customer("android-2")?.clickId == stillEncoded.click)
        #expect(try edge.customer("android-2")?.partnerId == "part_lee")
    }

    /// A Play URL with the app's own `referrer` (its campaign) gets one referrer, the app's parameters then Tolt's:
    /// Play hands the app one value, and the SDK finds this tap's click in it, as Play gives it or still encoded.
    @Test func theInstallReferrerOfAPlayURLThatHadItsOwnReferrer() async throws {
        let config = ConfigFixtures.standard.replacingOccurrences(
            of: "details?id=com.acme.lite&hl=en\"",
            with: "details?id=com.acme.lite&referrer=utm_source%3Dnews%26tolt_click%3Dclk_stale&hl=en\"")
        let edge = try EdgeTestServer(config: config)
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        let tap = try edge.tap(code: "LEE", userAgent: Agents.android)
        let location = try #require(tap.header("location"), "\(tap.status)")
        let click = try Self.clickID(in: tap)
        #expect(
            location
                == "https://play.google.com/store/apps/details?id=com.acme.lite&hl=en"
                + "&referrer=utm_source%3Dnews%26tolt_code%3DLEE%26tolt_click%3D\(click)")
        let components = try #require(URLComponents(string: location))
        let referrers = try #require(components.queryItems).filter { $0.name == "referrer" }
        #expect(referrers.count == 1)
        let asPlayGivesIt = try #require(referrers.first?.value)
        #expect(asPlayGivesIt == "utm_source=news&tolt_code=LEE&tolt_click=\(click)")
        let stillEncoded = try #require(components.percentEncodedQueryItems?.first { $0.name == "referrer" }?.value)
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "pk_acme")
            let first = try await Tolt.claim(installReferrer: asPlayGivesIt, appUserId: "android-1")
            #expect(first == ClaimResult(status: .claimed, appUserId: "android-1", code: "LEE", partnerName: "Lee"))
            let second = try await Tolt.claim(installReferrer: stillEncoded, appUserId: "android-2")
            #expect(second?.status == .claimed)
        }
        #expect(try edge.customer("android-1")?.clickId == click)
        #expect(try edge.customer("android-2")?.clickId == click)
        #expect(try edge.customer("android-2")?.partnerId == "part_lee")
    }
}
