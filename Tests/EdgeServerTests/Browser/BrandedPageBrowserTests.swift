import Foundation
import TestSupport
import Testing

/// The branded fallback page and its languages as a person sees them in headless Chromium: the icon shown, the
/// button in the brand colour, German words (copy button included), and nothing loaded from outside the page but
/// the configured icon. Screenshots of a phone and a desktop go to `.build/test-output/screenshots/`.
///
/// Needs `chromium`, `chromium-driver` and `openssl` (`scripts/install-deps.sh test`); without them these tests
/// fail, never skip. Serialized, like `FallbackPageBrowserTests`.
@Suite(.serialized) struct BrandedPageBrowserTests {
    /// `prg_play` (code `LEE`) with an icon served by `icon`, and a light brand colour.
    static func branding(icon: ImageServer) -> String {
        ##"""
        {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play",
          "app_name":"Acme Lite+","app_icon_url":"\##(icon.url)","brand_color":"#FFD400"}]}]}
        """##
    }

    static func iconServer() throws -> ImageServer {
        try ImageServer(png: try Data(contentsOf: URL(fileURLWithPath: try TestFiles.fixture("pages/icon.png"))))
    }

    /// Where screenshots go: `<repository>/.build/test-output/screenshots/<name>.png`.
    static func saveScreenshot(_ png: Data, name: String) throws {
        let root = try #require(TestFiles.repositoryRoot)
        let directory = root + "/.build/test-output/screenshots"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try png.write(to: URL(fileURLWithPath: "\(directory)/\(name).png"))
    }

    @Test func theBrandedPageShowsItsIconAndColourAndLoadsNothingElse() throws {
        let icon = try Self.iconServer()
        defer { icon.stop() }
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(Self.branding(icon: icon))
        let browser = try ChromeDriverSession(userAgent: Agents.desktop, acceptInsecureCertificates: true)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        // The watcher takes the import within a moment: wait for the branded page.
        let branded = eventually(within: 5) {
            (try? browser.open("\(origin)/a/pk_acme/LEE")) != nil
                && (try? browser.run("return document.querySelector('#app-name').textContent")) as? String
                    == "Acme Lite+"
        }
        #expect(branded)

        // The icon is shown: loaded from the other origin, decoded, on screen.
        let image = try #require(try browser.element("#icon"))
        #expect(try browser.visibleText(image).displayed)
        #expect(try browser.run("return document.querySelector('#icon').complete") as? Bool == true)
        #expect(try browser.run("return document.querySelector('#icon').naturalWidth") as? Int == 64)
        #expect(try browser.run("return document.querySelector('#icon').currentSrc") as? String == icon.url)

        // The button wears the brand colour, with dark text on it (the colour is light).
        let style = "return getComputedStyle(document.querySelector('#copy'))"
        #expect(try browser.run("\(style).backgroundColor") as? String == "rgb(255, 212, 0)")
        #expect(try browser.run("\(style).color") as? String == "rgb(0, 0, 0)")

        // Nothing was fetched but the icon: no font, stylesheet, script or image from anywhere else.
        let resources = try browser.run("return performance.getEntriesByType('resource').map(e => e.name)")
        #expect(resources as? [String] == [icon.url], "\(resources)")

        try Self.saveScreenshot(try browser.screenshot(), name: "fallback-desktop-branded")
        try browser.devTools(
            "Emulation.setDeviceMetricsOverride", ["width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true])
        try browser.open("\(origin)/a/pk_acme/LEE")
        #expect(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
        try Self.saveScreenshot(try browser.screenshot(), name: "fallback-phone-branded")

        try expectCopyButtonCopies(
            "LEE", in: browser, label: "Copy code", copied: "Copied", status: "Copied LEE")
    }

    /// A page without branding loads nothing at all beyond itself.
    @Test func thePlainPageLoadsNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_acme/LEE")
        #expect(try browser.element("#icon") == nil)
        #expect(try browser.run("return performance.getEntriesByType('resource').length") as? Int == 0)
        // The default colour, white text.
        let style = "return getComputedStyle(document.querySelector('#copy'))"
        #expect(try browser.run("\(style).backgroundColor") as? String == "rgb(59, 91, 219)")
        #expect(try browser.run("\(style).color") as? String == "rgb(255, 255, 255)")
    }

    /// An icon that does not load (its host down, a wrong path) leaves no broken-image frame above the app's name:
    /// the page is drawn as if the program had none.
    @Test func anIconThatDoesNotLoadLeavesNoBrokenImage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let closed = try Ports.reserve()  // nothing listens there: the connection is refused
        try server.importConfig(
            ##"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","app_name":"Acme Lite+","##
                + ##""app_icon_url":"https://127.0.0.1:\##(closed)/icon.png"}]}]}"##)
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        let url = "http://127.0.0.1:\(server.port)/a/pk_acme/LEE"
        let branded = eventually(within: 5) {
            (try? browser.open(url)) != nil
                && (try? browser.run("return document.querySelector('#app-name').textContent")) as? String
                    == "Acme Lite+"
        }
        #expect(branded)
        #expect(eventually { (try? browser.element("#icon")) == .some(nil) }, "the broken icon is still on the page")
        #expect(try browser.run("return document.querySelectorAll('img').length") as? Int == 0)
    }

    @Test func aGermanBrowserGetsTheGermanPage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        try browser.devTools(
            "Emulation.setUserAgentOverride", ["userAgent": Agents.iPhone, "acceptLanguage": "de-CH,de;q=0.9,en;q=0.5"])
        try browser.devTools(
            "Emulation.setDeviceMetricsOverride", ["width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true])
        try browser.open("\(origin)/a/pk_acme/LEE")

        #expect(try browser.run("return document.documentElement.lang") as? String == "de")
        let intro = try browser.run("return document.querySelector('h1 + p').textContent") as? String
        #expect(intro?.hasPrefix("Lee hat diesen Code mit dir geteilt.") == true, "\(intro ?? "")")
        let badge = try #require(try browser.element("#app-store"))
        #expect(try browser.visibleText(badge).text.contains("Laden im"))
        try Self.saveScreenshot(try browser.screenshot(), name: "fallback-phone-de")

        try expectCopyButtonCopies(
            "LEE", in: browser, label: "Code kopieren", copied: "Kopiert", status: "LEE kopiert")
    }

    /// Clicks the copy button, then expects the status line and the button to say so in the page's language, and
    /// the clipboard to hold `code`.
    private func expectCopyButtonCopies(
        _ code: String, in browser: ChromeDriverSession, label: String, copied: String, status expected: String
    ) throws {
        let button = try #require(try browser.element("#copy"))
        #expect(try browser.visibleText(button) == (label, true))
        try browser.click(button)
        let status = try #require(try browser.element("#status"))
        let done = eventually { (try? browser.visibleText(status).text) == expected }
        #expect(done, "status line: \(String(describing: try? browser.visibleText(status).text))")
        #expect(try browser.visibleText(button).text == copied)
        let clipboard = try browser.runAsync(
            """
            const done = arguments[arguments.length - 1];
            navigator.clipboard.readText().then(done, (error) => done("readText failed: " + error));
            """)
        #expect(clipboard as? String == code)
    }
}
