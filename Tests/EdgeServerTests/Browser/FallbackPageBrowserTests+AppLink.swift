import Foundation
import TestSupport
import Testing

/// An iPad asks for desktop pages as a Mac (Safari's default since iPadOS 13), and Chrome on a large Android tablet
/// as Linux, so their tap of a code whose template only the app opens (`myapp://`) gets the desktop page rather than
/// the redirect; the page's script follows the app link on a touch screen, as a phone's redirect would. A Mac or a
/// Linux desktop (no touch points) and a Windows laptop with a touch screen (no app) stay on the page.
extension FallbackPageBrowserTests {
    static let iPadAsMac =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 "
        + "Safari/605.1.15"
    static let androidTabletAsLinux =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

    @Test(arguments: [
        (iPadAsMac, 5, true), (iPadAsMac, 0, false), (androidTabletAsLinux, 5, true), (androidTabletAsLinux, 0, false),
        (Agents.desktop, 10, false),
    ])
    func aTabletAskingForTheDesktopPageIsSentOnToTheApp(agent: String, touchPoints: Int, follows: Bool) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: agent)
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
        if follows {
            #expect(followed == "myapp://claim?tolt_code=SAM20&tolt_click=\(tap.id)")
        } else {
            #expect(followed == nil, "a desktop stays on the page")
        }
    }
}
