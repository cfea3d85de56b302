import Foundation
import Testing

@testable import Tolt

/// Reading `tolt_click` and `tolt_code` from deep links and install referrers, without a server.
@Suite(.highPriority) struct ClaimTargetTests {
    static func target(_ url: String) throws -> ClaimTarget? {
        ClaimTarget(url: try #require(URL(string: url)))
    }

    @Test func aDeepLinksCodeOrClick() throws {
        #expect(try Self.target("myapp://claim?tolt_code=SAM20") == .code("SAM20"))
        #expect(try Self.target("myapp://claim?tolt_click=clk_abc") == .click("clk_abc"))
        #expect(try Self.target("https://app.example.com/welcome?ref=x&tolt_code=SAM20#top") == .code("SAM20"))
    }

    @Test func theClickWinsWhenBothAreThere() throws {
        #expect(try Self.target("myapp://claim?tolt_code=SAM20&tolt_click=clk_abc") == .click("clk_abc"))
        #expect(try Self.target("myapp://claim?tolt_click=clk_abc&tolt_code=SAM20") == .click("clk_abc"))
    }

    @Test func valuesArePercentDecodedAndAPlusStaysAPlus() throws {
        #expect(try Self.target("myapp://claim?tolt_code=caf%C3%A9") == .code("café"))
        #expect(try Self.target("myapp://claim?tolt_code=A%2BB") == .code("A+B"))
        #expect(try Self.target("myapp://claim?tolt_code=A+B") == .code("A+B"))
        #expect(try Self.target("myapp://claim?tolt%5Fcode=SAM20") == .code("SAM20"))
        #expect(try Self.target("myapp://claim?tolt_code=a%26tolt_click%3Dx") == .code("a&tolt_click=x"))
    }

    @Test func linksWithoutEitherGiveNil() throws {
        for url in [
            "myapp://claim", "myapp://claim?", "https://example.com/?code=SAM20", "myapp://claim?tolt_code=",
            "myapp://claim?tolt_click=&tolt_code=", "myapp://claim?tolt_code", "myapp://claim#tolt_code=SAM20",
            "myapp://claim?TOLT_CODE=SAM20",
        ] {
            #expect(try Self.target(url) == nil, "\(url)")
        }
        // Broken escapes (which URL(string:) may refuse before the SDK sees them) are skipped, not guessed at.
        #expect(ClaimTarget(query: "tolt_code=%ZZ") == nil)
        #expect(ClaimTarget(query: "tolt_click=%E2%28&tolt_code=SAM20") == .code("SAM20"))
    }

    /// `URL` re-encodes a broken escape (`%ZZ` reads back as `%25ZZ`), and no code or click holds a `%`: a value that
    /// still holds one once decoded is skipped, as in a referrer, and a later valid one read.
    @Test func aBrokenEscapeInALinkIsSkippedForALaterValidOne() throws {
        #expect(try Self.target("https://acme.example/claim?tolt_code=%ZZ&tolt_code=SAM20") == .code("SAM20"))
        #expect(try Self.target("myapp://claim?tolt_click=%ZZ&tolt_code=SAM20") == .code("SAM20"))
        #expect(try Self.target("myapp://claim?tolt_code=100%&tolt_code=SAM20") == .code("SAM20"))
        #expect(try Self.target("myapp://claim?tolt_code=%25ZZ") == nil)
        #expect(ClaimTarget(installReferrer: "tolt_code=%ZZ&tolt_code=SAM20") == .code("SAM20"))
        #expect(ClaimTarget(installReferrer: "tolt_code=%25ZZ&tolt_code=SAM20") == .code("SAM20"))
    }

    @Test func anEmptyClickLeavesTheCode() throws {
        // A bot's tap fills the template with an empty click id.
        #expect(try Self.target("myapp://claim?tolt_code=SAM20&tolt_click=") == .code("SAM20"))
        #expect(try Self.target("myapp://claim?tolt_code=&tolt_code=SAM20") == .code("SAM20"))
    }

    @Test func anInstallReferrerAsPlayGivesIt() {
        #expect(ClaimTarget(installReferrer: "tolt_code=SAM20&tolt_click=clk_abc") == .click("clk_abc"))
        #expect(ClaimTarget(installReferrer: "tolt_code=SAM20&tolt_click=") == .code("SAM20"))
        #expect(ClaimTarget(installReferrer: "utm_source=x&tolt_code=SAM20") == .code("SAM20"))
        #expect(ClaimTarget(installReferrer: " ?tolt_code=SAM20\n") == .code("SAM20"))
        // The edge encodes the code once more inside the referrer: one decode of the value gives it back.
        #expect(ClaimTarget(installReferrer: "tolt_code=A%2BB&tolt_click=") == .code("A+B"))
    }

    @Test func anInstallReferrerStillPercentEncodedOnce() {
        #expect(ClaimTarget(installReferrer: "tolt_code%3DSAM20%26tolt_click%3Dclk_abc") == .click("clk_abc"))
        #expect(ClaimTarget(installReferrer: "tolt_code%3DSAM20%26tolt_click%3D") == .code("SAM20"))
        #expect(ClaimTarget(installReferrer: "tolt_code%3dA%252BB%26tolt_click%3d") == .code("A+B"))
    }

    /// Encoded again by an ad network or link wrapper: decoded while it names neither parameter, up to three times.
    @Test func anInstallReferrerEncodedTwiceOrThrice() {
        #expect(ClaimTarget(installReferrer: "tolt_code%253DSAM20") == .code("SAM20"))
        #expect(
            ClaimTarget(
                installReferrer: "utm_source%253Dnews%2526tolt_code%253D%2525C3%25259CBER10%2526tolt_click%253Dclk_x")
                == .click("clk_x"))
        #expect(
            ClaimTarget(installReferrer: "utm_source%253Dnews%2526tolt_code%253D%2525C3%25259CBER10") == .code("ÜBER10")
        )
        #expect(ClaimTarget(installReferrer: "tolt_code%25253DSAM20%252526tolt_click%25253D") == .code("SAM20"))
        // Named once decoded: not decoded further, and a value that still holds a `%` is no code.
        #expect(ClaimTarget(installReferrer: "tolt_code%3D%2525253DSAM20") == nil)
    }

    @Test func anInstallReferrerWithoutEitherGivesNil() {
        for referrer in [
            "", "utm_source=google-play&utm_medium=organic", "utm_source%3Dgoogle-play%26utm_medium%3Dorganic",
            "tolt_code%3D%26tolt_click%3D", "not a referrer", "%", "tolt_code%253D%2526tolt_click%253D",
            "tolt_code%25253D%25ZZ", "tolt_code%2525253DSAM20",
        ] {
            #expect(ClaimTarget(installReferrer: referrer) == nil, "\(referrer)")
        }
    }
}
