import Foundation
import TestSupport
import Testing

/// The pages a link shows, audited in headless Chromium (`AccessibilityAudit`) as a phone and a desktop, in light
/// and dark: the fallback page with store badges and without, with a light brand colour, and the link preview page.
///
/// Needs `chromium` and `chromium-driver` (`scripts/install-deps.sh test`); without them these tests fail, never
/// skip. Serialized: each starts its own browser.
@Suite(.serialized) struct PageAccessibilityTests {
    /// How a page is looked at: a device (agent and viewport) and a colour scheme.
    struct View: CustomStringConvertible, Sendable {
        var device: String
        var agent: String
        var width: Int
        var height: Int
        var scheme: String

        var description: String { "\(device), \(scheme)" }
        var mobile: Bool { device == "phone" }
        /// `Emulation.setDeviceMetricsOverride`'s parameters.
        var metrics: [String: Any] {
            ["width": width, "height": height, "deviceScaleFactor": mobile ? 2 : 1, "mobile": mobile]
        }

        static let all: [View] = ["light", "dark"].flatMap { scheme in
            [
                View(device: "phone", agent: Agents.iPhone, width: 390, height: 844, scheme: scheme),
                View(device: "desktop", agent: Agents.desktop, width: 1280, height: 900, scheme: scheme),
            ]
        }
    }

    /// Opens `url` as `view` sees it and audits it.
    static func audit(_ url: String, as view: View, in browser: ChromeDriverSession) throws -> AccessibilityAudit {
        try browser.devTools("Emulation.setUserAgentOverride", ["userAgent": view.agent])
        try browser.devTools("Emulation.setDeviceMetricsOverride", view.metrics)
        try browser.devTools(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": view.scheme]]])
        try browser.open(url)
        #expect(
            try browser.run("return matchMedia('(prefers-color-scheme: \(view.scheme))').matches") as? Bool == true,
            "\(view)")
        return try AccessibilityAudit.run(in: browser)
    }

    @Test func theFallbackPageHasNoViolations() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        // LEE: both store badges; BARE1: none.
        for code in ["LEE", "BARE1"] {
            for view in View.all {
                let audit = try Self.audit("\(origin)/a/pk_acme/\(code)", as: view, in: browser)
                #expect(audit.violations.isEmpty, "\(code), \(view): \(audit)")
                #expect(audit.unknownContrast.isEmpty, "\(code), \(view): \(audit)")
                #expect(audit.focusableCount >= 1, "\(code), \(view): the copy button at least")
            }
        }
    }

    /// Brand colours from white to black: the page puts readable text on its button, and the button's shape (its
    /// background or border) and its focus ring stand out at 3:1 from the page in both schemes, as the audit measures
    /// them (`control-boundary`, `focus-contrast`). White is the light page's own colour, and black and `#1a1a1a` all
    /// but the dark page's; mid-grey stands out from both.
    @Test(arguments: ["#FFD400", "#FFFFFF", "#F0F0F0", "#777777", "#1A1A1A", "#000000"])
    func aBrandedFallbackPageHasNoViolations(_ color: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(
            ##"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","brand_color":"\##(color)"}]}]}"##)
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let url = "http://127.0.0.1:\(server.port)/a/pk_acme/LEE"
        let channels = stride(from: 1, to: 7, by: 2).map { offset -> String in
            let start = color.index(color.startIndex, offsetBy: offset)
            return String(Int(color[start..<color.index(start, offsetBy: 2)], radix: 16)!)
        }
        let expected = "rgb(\(channels.joined(separator: ", ")))"
        // The watcher takes the import within a moment: wait for the branded page.
        let branded = eventually(within: 5) {
            (try? browser.open(url)) != nil
                && (try? browser.run("return getComputedStyle(document.querySelector('#copy')).backgroundColor"))
                    as? String == expected
        }
        #expect(branded, "\(color)")
        for view in View.all {
            let audit = try Self.audit(url, as: view, in: browser)
            #expect(audit.violations.isEmpty, "\(color), \(view): \(audit)")
            #expect(audit.unknownContrast.isEmpty, "\(color), \(view): \(audit)")
            #expect(audit.focusableCount >= 1, "\(color), \(view): the copy button at least")
        }
    }

    /// The not-found page of a dead code whose program is known (OLD10, inactive: the program's name and the
    /// platform's store badges) and the generic one (NOPE, in an organization of three programs), and the branded one
    /// on a 320-pixel phone with a long app name: no violation, no sideways scrolling.
    @Test func theNotFoundPagesHaveNoViolations() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.desktop)
        defer { browser.quit() }
        let origin = "http://127.0.0.1:\(server.port)"
        for (code, badges) in [("OLD10", true), ("NOPE", false)] {
            for view in View.all {
                let audit = try Self.audit("\(origin)/a/pk_acme/\(code)", as: view, in: browser)
                #expect(audit.violations.isEmpty, "\(code), \(view): \(audit)")
                #expect(audit.unknownContrast.isEmpty, "\(code), \(view): \(audit)")
                let shown = try browser.run("return document.querySelectorAll('.badges a').length") as? Int
                #expect((shown ?? 0 > 0) == badges, "\(code), \(view)")
            }
        }
        let name = "Supercalifragilisticexpialidoc"
        try server.importConfig(
            ##"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","app_name":"\##(name)"}]}]}"##)
        var narrow = View.all[0]
        narrow.width = 320
        let url = "\(origin)/a/pk_acme/OLD10"
        let renamed = eventually(within: 5) {
            (try? browser.open(url)) != nil
                && (try? browser.run("return document.title")) as? String == "\(name): this link is not active"
        }
        #expect(renamed)
        let audit = try Self.audit(url, as: narrow, in: browser)
        #expect(audit.violations.isEmpty, "320 px: \(audit)")
        let overflow = try browser.run("return document.documentElement.scrollWidth") as? Int
        #expect(overflow == 320, "320 px: scrolls to \(overflow ?? -1)")
    }

    /// The page link-preview fetchers get: no person sees it in a browser, but one who opens it must be able to
    /// read it.
    @Test func thePreviewPageHasNoViolations() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let browser = try ChromeDriverSession(userAgent: Agents.slack)
        defer { browser.quit() }
        for scheme in ["light", "dark"] {
            for device in View.all.prefix(2) {
                var view = device
                view.agent = Agents.slack
                view.scheme = scheme
                let audit = try Self.audit("http://127.0.0.1:\(server.port)/a/pk_acme/SAM20", as: view, in: browser)
                #expect(
                    try browser.run("return document.querySelector('meta[property=\"og:title\"]') !== null") as? Bool
                        == true, "the preview page, not the fallback page")
                #expect(audit.violations.isEmpty, "\(view): \(audit)")
            }
        }
    }
}
