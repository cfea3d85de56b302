import Foundation
import TestSupport
import Testing

/// An iPad asks for desktop pages as a Mac (Safari's default since iPadOS 13), so its tap of a code whose template
/// only the app opens (`myapp://`) gets the desktop page rather than the redirect; the page's script follows the app
/// link there, as a phone's redirect would. A Mac (no touch points) stays on the page.
extension FallbackPageBrowserTests {
    static let iPadAsMac =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 "
        + "Safari/605.1.15"

    @Test(arguments: [5, 0])
    func anIPadAskingForTheDesktopPageIsSentOnToTheApp(touchPoints: Int) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Self.iPadAsMac)
        defer { browser.quit() }
        if touchPoints > 0 {
            try browser.devTools(
                "Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": touchPoints])
        }
        // Notes the link the page's own script follows, before that script runs.
        try browser.devTools(
            "Page.addScriptToEvaluateOnNewDocument",
            ["source": "addEventListener('click', e => { window.followed = e.target.getAttribute('href') }, true)"])
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_acme/SAM20")

        #expect(try browser.visibleText(try #require(try browser.element("#code"))) == ("SAM20", true))
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        let tap = try #require(clicks.first { $0.id != sentinel }, "the tap is a click")
        #expect(tap.platform == .desktop)
        let followed = try browser.run("return window.followed ?? null") as? String
        if touchPoints > 0 {
            #expect(followed == "myapp://claim?tolt_code=SAM20&tolt_click=\(tap.id)")
        } else {
            #expect(followed == nil, "a Mac stays on the page")
        }
    }
}
