import Foundation
import TestSupport
import Testing

/// The fallback page on the smallest phone a person may hold (320 CSS pixels, touch), at the limits of what a
/// program may store: the longest names without a space and the longest code fit the screen, before and after a
/// copy; no text is too small to read; without JavaScript the code is there to select and no button does nothing;
/// and the copy that falls back to a selection neither zooms a phone's page nor copies less than the code.
///
/// Needs `chromium` and `chromium-driver` (`scripts/install-deps.sh test`); without them these tests fail, never
/// skip. Serialized: each starts its own browser.
@Suite(.serialized) struct FallbackPagePhoneTests {
    /// 60 characters, the most `app_name` takes, and 200 for the partner's name, neither with a place to break.
    static let appName = String(repeating: "Appname", count: 8) + "Appn"
    static let partnerName = String(repeating: "Partnername", count: 18) + "Pa"
    /// 64 characters, the longest code.
    static let code = String(repeating: "LONGCODE", count: 8)

    static let config = """
        {"organizations":[
          {"id":"org_long","name":"Long","public_key":"pk_long","secret_key":"sk_long_secret","programs":[
            {"id":"prg_long","name":"Long","app_name":"\(appName)",
             "app_links":{"app_store_url":"https://apps.apple.com/app/id987654321"},
             "partners":[{"id":"part_long","name":"\(partnerName)","codes":[{"code":"\(code)"}]}]}]}]}
        """

    /// A phone 320 CSS pixels wide with a touch screen, as Chromium's device emulation makes one.
    static func phone(_ browser: ChromeDriverSession) throws {
        try browser.devTools(
            "Emulation.setDeviceMetricsOverride", ["width": 320, "height": 640, "deviceScaleFactor": 2, "mobile": true])
        try browser.devTools("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5])
    }

    /// Elements that reach past the viewport's sides, as `tag#id`: on a phone, a page wider than the screen makes
    /// the browser widen its layout viewport and shrink everything to fit.
    static func overflowing(_ browser: ChromeDriverSession) throws -> [String] {
        try browser.run(
            """
            return [...document.querySelectorAll('body *')].filter((element) => {
              const box = element.getBoundingClientRect();
              return box.width > 0 && (box.left < -0.5 || box.right > innerWidth + 0.5);
            }).map((element) => element.tagName + '#' + element.id);
            """) as? [String] ?? ["(no answer)"]
    }

    @Test func longNamesAndTheLongestCodeFitA320PixelPhone() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        try Self.phone(browser)
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        try browser.open("\(origin)/a/pk_long/\(Self.code)")

        #expect(try browser.run("return document.querySelector('#app-name').textContent") as? String == Self.appName)
        let fits = "return innerWidth === 320 && document.documentElement.scrollWidth <= innerWidth"
        let overflowing = try Self.overflowing(browser)
        #expect(try browser.run(fits) as? Bool == true, "overflowing: \(overflowing)")

        // The status line says "Copied" and the code: it must wrap too.
        let button = try #require(try browser.element("#copy"))
        try browser.click(button)
        let status = try #require(try browser.element("#status"))
        #expect(eventually { (try? browser.visibleText(status).text) == "Copied \(Self.code)" })
        let overflowingAfterCopy = try Self.overflowing(browser)
        #expect(try browser.run(fits) as? Bool == true, "after the copy: \(overflowingAfterCopy)")

        // No text smaller than 12 px (the badges' small line was 10.4 px).
        let small =
            try browser.run(
                """
                return [...document.querySelectorAll('main *')].filter((element) =>
                  [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim() !== '')
                  && parseFloat(getComputedStyle(element).fontSize) < 12
                ).map((element) => element.tagName + ' ' + getComputedStyle(element).fontSize);
                """) as? [String]
        #expect(small == [], "text under 12 px")
        let png = try browser.screenshot()
        try BrandedPageBrowserTests.saveScreenshot(png, name: "fallback-phone-320-long")
    }

    /// A right-to-left name keeps its own punctuation: "سارة!" reads, right to left, name then "!", so the "!" is
    /// drawn at its left. Without isolating the name, the English sentence around it took the "!" and drew it at the
    /// right, between the name and "shared".
    @Test func aRightToLeftNameKeepsItsPunctuation() throws {
        let server = try TestServer(
            config: """
                {"organizations":[
                  {"id":"org_rtl","name":"RTL","public_key":"pk_rtl","secret_key":"sk_rtl_secret","programs":[
                    {"id":"prg_rtl","name":"Acme",
                     "partners":[{"id":"part_sara","name":"سارة!","codes":[{"code":"SARA"}]}]}]}]}
                """)
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        try Self.phone(browser)
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_rtl/SARA")
        let positions =
            try browser.run(
                """
                const line = document.querySelector('h1 + p');
                const left = (character) => {
                  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
                  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    const at = node.textContent.indexOf(character);
                    if (at < 0) continue;
                    const range = document.createRange();
                    range.setStart(node, at);
                    range.setEnd(node, at + 1);
                    return range.getBoundingClientRect().left;
                  }
                  return null;
                };
                return [line.textContent, left('!'), left('س')];
                """) as? [Any]
        let text = positions?.first as? String
        #expect(text?.hasPrefix("سارة! shared this code with you.") == true, "\(String(describing: text))")
        let bang = try #require(positions?[1] as? Double, "\(String(describing: positions))")
        let sin = try #require(positions?[2] as? Double, "\(String(describing: positions))")
        #expect(bang < sin, "the name's '!' at \(bang), its first letter at \(sin)")
    }

    /// With scripts off the copy button could do nothing: it is not shown, the status line says how to copy by hand
    /// (its failed-copy words, as CSS generated content: the words are not sent twice), and a tap on the code selects
    /// all of it.
    @Test func withoutJavaScriptTheCodeIsSelectableAndNoButtonIsDead() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        try Self.phone(browser)
        try browser.devTools("Emulation.setScriptExecutionDisabled", ["value": true])
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_acme/LEE")

        // The page's script did not run (the test's own scripts still do, through the driver).
        #expect(try browser.run("return document.querySelector('#copy').onclick === null") as? Bool == true)
        let code = try #require(try browser.element("#code"))
        #expect(try browser.visibleText(code) == ("LEE", true))
        let button = try #require(try browser.element("#copy"))
        #expect(try browser.visibleText(button).displayed == false, "a button that cannot copy")
        // The status line says how to copy by hand, from the words it holds for a failed copy.
        let status = try #require(try browser.element("#status"))
        #expect(try browser.visibleText(status).displayed)
        let hint = try browser.run("return getComputedStyle(document.querySelector('#status'), '::after').content")
        #expect(hint as? String == #""Press and hold the code to copy it""#)

        try browser.click(code)
        #expect(try browser.run("return getSelection().toString()") as? String == "LEE", "a tap selects the code")
        #expect(try Self.overflowing(browser) == [])
    }

    /// Where the Clipboard API is missing (an old browser, a page not served over HTTPS), the page copies by
    /// selecting the code in a hidden text area. Its text must be 16 px or more, or iOS Safari zooms the page in
    /// when it takes the focus, and the selection must be the whole code.
    @Test func theCopyBySelectionNeitherZoomsNorCopiesLess() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        try Self.phone(browser)
        let origin = "http://127.0.0.1:\(server.port)"
        try browser.grantClipboard(to: origin)
        try browser.open("\(origin)/a/pk_acme/LEE")
        _ = try browser.run(
            """
            window.clipboardAPI = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
            Object.defineProperty(Navigator.prototype, 'clipboard', {configurable: true, get: () => undefined});
            const copy = document.execCommand.bind(document);
            document.execCommand = (command) => {
              const field = document.activeElement;
              window.copied = {
                tag: field.tagName, fontSize: parseFloat(getComputedStyle(field).fontSize),
                selected: field.value.slice(field.selectionStart, field.selectionEnd)
              };
              return copy(command);
            };
            """)
        try browser.click(try #require(try browser.element("#copy")))
        let status = try #require(try browser.element("#status"))
        #expect(eventually { (try? browser.visibleText(status).text) == "Copied LEE" })
        let copied = try browser.run("return window.copied") as? [String: Any]
        #expect(copied?["tag"] as? String == "TEXTAREA", "\(String(describing: copied))")
        #expect((copied?["fontSize"] as? Double ?? 0) >= 16, "\(String(describing: copied))")
        #expect(copied?["selected"] as? String == "LEE", "\(String(describing: copied))")
        _ = try browser.run("Object.defineProperty(Navigator.prototype, 'clipboard', window.clipboardAPI);")
        let clipboard = try browser.runAsync(
            """
            const done = arguments[arguments.length - 1];
            navigator.clipboard.readText().then(done, (error) => done("readText failed: " + error));
            """)
        #expect(clipboard as? String == "LEE")
    }
}
