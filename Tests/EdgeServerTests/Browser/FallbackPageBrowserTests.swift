import Foundation
import TestSupport
import Testing

/// The fallback page as a person sees it in headless Chromium: the code, a copy button that really copies,
/// the store badges the program has set, and hostile values shown as text.
///
/// Needs `chromium` and `chromium-driver` (`scripts/install-deps.sh test`); without them these tests fail,
/// never skip. Serialized: each starts its own browser, and two at once would crowd a small CI machine.
@Suite(.serialized) struct FallbackPageBrowserTests {
    static let leeStoreURLs = (
        appStore: "https://apps.apple.com/app/id987654321",
        googlePlay: "https://play.google.com/store/apps/details?id=com.acme.lite&hl=en"
    )

    @Test func desktopSeesCodeBadgesAndWorkingCopyButton() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        try browser.open("\(origin)/a/pk_acme/LEE")

        let code = try #require(try browser.element("#code"))
        let shown = try browser.visibleText(code)
        #expect(shown.displayed)
        #expect(shown.text == "LEE")
        let fontSize = try browser.run("return parseFloat(getComputedStyle(document.querySelector('#code')).fontSize)")
        #expect((fontSize as? Double ?? 0) >= 32, "the code is in large type")

        for (selector, url, label) in [
            ("#app-store", Self.leeStoreURLs.appStore, "App Store"),
            ("#google-play", Self.leeStoreURLs.googlePlay, "Google Play"),
        ] {
            let badge = try #require(try browser.element(selector), "\(label) badge missing")
            #expect(try browser.visibleText(badge).displayed)
            #expect(try browser.visibleText(badge).text.contains(label))
            #expect(try browser.run("return document.querySelector(arguments[0]).href", [selector]) as? String == url)
        }

        try expectCopyButtonCopies("LEE", in: browser)
    }

    @Test func programWithoutStoreURLsShowsNoBadges() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        try browser.open("\(origin)/a/pk_acme/BARE1")

        let code = try #require(try browser.element("#code"))
        #expect(try browser.visibleText(code) == ("BARE1", true))
        #expect(try browser.element(".badges a") == nil)
        #expect(try browser.element("#app-store") == nil)
        #expect(try browser.element("#google-play") == nil)
        #expect(try browser.run("return document.scripts.length") as? Int == 1, "the page is whole, script included")
        try expectCopyButtonCopies("BARE1", in: browser)
    }

    @Test func hostileValuesRenderAsText() throws {
        let server = try TestServer(config: Self.hostileConfig)
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        try browser.open("\(origin)/a/pk_evil/%3Cb%3E%22x%22%26'y'")

        let hostileCode = #"<b>"x"&'y'"#
        #expect(try browser.run("return document.querySelector('#code').textContent") as? String == hostileCode)
        #expect(try browser.run("return document.querySelectorAll('#code *, b, i, img').length") as? Int == 0)
        #expect(try browser.run("return document.scripts.length") as? Int == 1)
        #expect(
            try browser.run("return document.title") as? String
                == "</title><script>window.pwned=1</script>: your code \(hostileCode)")
        #expect(try browser.run("return String(window.pwned)") as? String == "undefined")
        let partnerLine = try browser.run("return document.querySelector('h1 + p').textContent") as? String
        #expect(partnerLine?.hasPrefix(#"<img src=x onerror="window.pwned=2"> shared this code"#) == true)
        #expect(
            try browser.run("return document.querySelector('#app-store').href") as? String
                == "https://apps.apple.com/app/id1?a=1&b=%27x%27")
        #expect(try browser.element("#google-play") == nil)

        try expectCopyButtonCopies(hostileCode, in: browser)
    }

    /// A phone-sized screenshot, for a person to look at: saved where `FALLBACK_SCREENSHOT` says, if set.
    @Test func phoneLayoutFitsTheScreen() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        try browser.devTools(
            "Emulation.setDeviceMetricsOverride", ["width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true])
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_acme/LEE")

        #expect(try browser.run("return window.innerWidth") as? Int == 390)
        #expect(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
        #expect(try browser.run("return document.documentElement.scrollHeight <= window.innerHeight") as? Bool == true)
        let png = try browser.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        if let path = ProcessInfo.processInfo.environment["FALLBACK_SCREENSHOT"] {
            try png.write(to: URL(fileURLWithPath: path))
        }
    }

    /// Clicks the copy button, then expects the status line to say so and the clipboard to hold `code`.
    private func expectCopyButtonCopies(_ code: String, in browser: ChromeDriverSession) throws {
        let button = try #require(try browser.element("#copy"))
        #expect(try browser.visibleText(button) == ("Copy code", true))
        try browser.click(button)
        let status = try #require(try browser.element("#status"))
        let copied = eventually { (try? browser.visibleText(status).text) == "Copied \(code)" }
        #expect(copied, "status line: \(String(describing: try? browser.visibleText(status).text))")
        #expect(try browser.visibleText(button).text == "Copied")
        let clipboard = try browser.runAsync(
            """
            const done = arguments[arguments.length - 1];
            navigator.clipboard.readText().then(done, (error) => done("readText failed: " + error));
            """)
        #expect(clipboard as? String == code)
    }

    /// An organization whose code, names and store URL are all hostile, yet legal.
    static let hostileConfig = #"""
        {"organizations":[
          {"id":"org_evil","name":"Evil","public_key":"pk_evil","secret_key":"sk_evil_secret","programs":[
            {"id":"prg_evil","name":"</title><script>window.pwned=1</script>",
             "app_links":{"app_store_url":"https://apps.apple.com/app/id1?a=1&b='x'"},
             "partners":[{"id":"part_mal","name":"<img src=x onerror=\"window.pwned=2\">","status":"active",
                          "codes":[{"code":"<b>\"x\"&'y'","active":true}]}]}]}
        ]}
        """#
}
