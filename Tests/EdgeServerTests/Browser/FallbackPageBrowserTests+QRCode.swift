import EdgeServer
import Foundation
import TestSupport
import Testing

/// The desktop page's QR code as a phone's camera sees it: a screenshot from headless Chromium, decoded by zbar,
/// gives the link's own URL, in the light and the dark colour scheme; a phone's page has no QR code.
extension FallbackPageBrowserTests {
    static let qrPublicURL = "https://links.example.com"

    @Test func desktopQRCodeDecodesToTheLinkInLightAndDarkMode() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL(Self.qrPublicURL) }
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_acme/LEE")

        let caption = try #require(try browser.element("#qr p"))
        #expect(try browser.visibleText(caption) == ("Scan with your phone", true))
        #expect(
            try browser.run("return document.querySelector('#qr [role=img]').getAttribute('aria-label')") as? String
                == "QR code of this link")
        let size = try browser.run(
            "const r = document.querySelector('#qr svg').getBoundingClientRect(); return [r.width, r.height]")
        #expect(size as? [Double] == [180, 180], "\(size)")

        let link = Self.qrPublicURL + "/a/pk_acme/LEE"
        let qr = try #require(try browser.element("#qr svg"))
        let light = try browser.screenshot(of: qr)
        #expect(try QRCodeReader.decode(png: light) == [link])
        // The whole page, as a person sees it: one code on it, the same.
        let page = try browser.screenshot()
        #expect(try QRCodeReader.decode(png: page) == [link])
        if let path = ProcessInfo.processInfo.environment["FALLBACK_DESKTOP_SCREENSHOT"] {
            try page.write(to: URL(fileURLWithPath: path))
        }

        try browser.devTools(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
        #expect(try browser.run("return matchMedia('(prefers-color-scheme: dark)').matches") as? Bool == true)
        let dark = try browser.screenshot(of: try #require(try browser.element("#qr svg")))
        #expect(try QRCodeReader.decode(png: dark) == [link])
        #expect(
            try browser.run("return getComputedStyle(document.querySelector('#qr svg')).backgroundColor") as? String
                == "rgb(255, 255, 255)", "the page's style sheet gives the code its white ground")

        // What the phone opens is the link itself: its path taps as any link does.
        let path = String(link.dropFirst(Self.qrPublicURL.count))
        let tap = try server.client().request("GET", path, headers: [("User-Agent", Agents.iPhone)])
        #expect(tap.status == 200 && tap.text.contains(#"id="code">LEE<"#))
    }

    /// A long link (about 300 bytes, near the size a code is still drawn for) with a port, a path prefix and every
    /// sub-delimiter a URL path may hold but `*` (which `--public-url` refuses: the association files' paths would
    /// read it as a wildcard): the dashed-stroke SVG still scans back to exactly that link.
    @Test func aLongLinkWithOddCharactersDecodesBackToItself() throws {
        let base =
            "https://links.example.com:8443/go/%7Eteam/a-b_c.d~e!$&'()+,;=:@/"
            + String(repeating: "x9-_.", count: 45)
        let server = try TestServer { $0.publicURL = try? PublicURL(base) }
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_acme/LEE")
        let link = base + "/a/pk_acme/LEE"
        #expect(link.utf8.count > 290)
        let qr = try #require(try browser.element("#qr svg"), "a code is drawn for a \(link.utf8.count)-byte link")
        #expect(try QRCodeReader.decode(png: try browser.screenshot(of: qr)) == [link])
    }

    @Test func aPhoneGetsNoQRCode() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL(Self.qrPublicURL) }
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { browser.quit() }
        try browser.open("http://127.0.0.1:\(server.port)/a/pk_acme/LEE")
        #expect(try browser.element("#code") != nil)
        #expect(try browser.element("#qr") == nil)
        #expect(try browser.element("svg") == nil)
        #expect(try QRCodeReader.decode(png: try browser.screenshot()).isEmpty)
    }
}
