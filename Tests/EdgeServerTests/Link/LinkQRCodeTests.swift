import EdgeServer
import Foundation
import TestSupport
import Testing

/// The desktop fallback page carries a QR code of the link's own URL (`--public-url` + its path); phones, other
/// visitors and servers without `--public-url` get none. The browser tests decode it
/// (`FallbackPageBrowserTests`).
@Suite struct LinkQRCodeTests {
    static let publicURL = "https://links.example.com"

    static func server(publicURL: String? = LinkQRCodeTests.publicURL) throws -> TestServer {
        try TestServer { configuration in configuration.publicURL = publicURL.flatMap { try? PublicURL($0) } }
    }

    static func tap(_ server: TestServer, _ path: String, as agent: String, method: String = "GET") throws
        -> TestSupport.HTTPResponse
    {
        try server.client().request(method, path, headers: [("User-Agent", agent)])
    }

    /// The page's `<svg>…</svg>`, if it has one.
    static func svg(in page: String) -> String? {
        guard let start = page.range(of: "<svg "),
            let end = page.range(of: "</svg>", range: start.upperBound..<page.endIndex)
        else { return nil }
        return String(page[start.lowerBound..<end.upperBound])
    }

    @Test func aDesktopGetsTheQRCodeOfTheLinkWithItsWords() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let response = try Self.tap(server, "/a/pk_acme/LEE", as: Agents.desktop)
        #expect(response.status == 200)
        let page = response.text
        let svg = try #require(Self.svg(in: page), "\(page)")
        #expect(svg == QRCodeSVGTests.drawnSVG("https://links.example.com/a/pk_acme/LEE"))
        #expect(page.contains(#"<div id="qr"><div role="img" aria-label="QR code of this link"><svg "#))
        #expect(page.contains("</svg></div><p>Scan with your phone</p></div>"))
        #expect(page.components(separatedBy: "<svg").count == 2)
        #expect(response.body.count < 20 * 1_024, "\(response.body.count) bytes")
        // The tap is a click like any other.
        let clicks = try server.clicksThroughSentinel().clicks
        #expect(clicks.filter { $0.partnerID == "part_lee" && $0.platform == .desktop }.count == 1)
    }

    /// A desktop tap of a code whose program's template is a scheme only the app opens (`myapp://`) gets the page with
    /// the code and the QR code of the link, not a redirect a desktop browser cannot follow; the tap is a click.
    @Test func aDesktopIsNotSentToASchemeOnlyTheAppOpens() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let response = try Self.tap(server, "/a/pk_acme/sam20", as: Agents.desktop)
        #expect(response.status == 200 && response.header("location") == nil)
        #expect(response.text.contains(#"<div class="code" id="code">SAM20</div>"#))
        #expect(Self.svg(in: response.text) != nil, "the QR code for a phone to scan")
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        let tap = try #require(clicks.first { $0.id != sentinel })
        #expect(clicks.filter { $0.id != sentinel }.map(\.platform) == [.desktop])
        // The page carries the app link of this tap, escaped, for an iPad's script (FallbackPageBrowserTests).
        #expect(
            response.text.contains(
                #"<a id="app-link" href="myapp://claim?tolt_code=SAM20&amp;tolt_click=\#(tap.id)" hidden></a>"#))
        #expect(response.text.components(separatedBy: "<script>").count == 3, "the copy button's script and the iPad's")
        // A phone still goes to the app.
        let phone = try Self.tap(server, "/a/pk_acme/sam20", as: Agents.iPhone)
        #expect(phone.status == 302 && phone.header("location")?.hasPrefix("myapp://claim?tolt_code=SAM20&") == true)
    }

    /// A program without a template puts no app link in its page.
    @Test func aPageWithoutATemplateHasNoAppLink() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let response = try Self.tap(server, "/a/pk_acme/LEE", as: Agents.desktop)
        #expect(response.status == 200 && !response.text.contains(#"id="app-link""#))
        #expect(response.text.components(separatedBy: "<script>").count == 2, "the copy button's script only")
    }

    /// The desktop page with its QR code is no larger than the desktop page without one was before the pages and
    /// the SVG were made smaller: 4,307 bytes, `bench/link.sh`'s desktop page (this link, this program) on `main`
    /// at that time, and since then 109 bytes more, the part of 153 bytes added for phones and browsers without
    /// JavaScript (the hidden copy button and its hint, the copy field's 16 px style and selection, the partner's
    /// name isolated in a `<bdi>`) that the page no longer had to spare: 4,416; and since then 104 bytes more for the
    /// copy button's border and focus ring at 3:1 against the page whatever the brand colour (the `--edge` colour and
    /// the dark page's own background, which it is chosen against): 4,520. Bytes are what an answer costs once the
    /// code is cached, so this keeps the QR page no slower (the bench measures the speed; a page that grows past this
    /// fails here first).
    @Test func theDesktopPageWithItsQRCodeIsNoLargerThanThePageWithoutOneWas() throws {
        let server = try TestServer(config: Self.benchConfig) { configuration in
            configuration.publicURL = try? PublicURL(Self.publicURL)
        }
        defer { server.shutdown() }
        let response = try Self.tap(server, "/a/pk_beta/LEE10", as: Agents.desktop)
        #expect(response.status == 200)
        #expect(Self.svg(in: response.text) != nil)
        #expect(response.text.contains(#"id="app-store""#) && response.text.contains(#"id="google-play""#))
        #expect(response.body.count <= 4_520, "\(response.body.count) bytes")
    }

    /// `bench/link.sh`'s second organization: a program with both store URLs and no deep-link template.
    static let benchConfig = """
        {"organizations":[
          {"id":"org_beta","name":"Beta","public_key":"pk_beta","secret_key":"sk_beta_secret",
           "programs":[{"id":"prg_beta","name":"Beta Plus","claim_window_days":30,
             "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.beta",
                          "app_store_url":"https://apps.apple.com/app/id987654321"},
             "partners":[{"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE10","active":true}]}]}]}]}
        """

    @Test func phonesPreviewsAndOtherVisitorsGetNoQRCode() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        for (path, agent) in [
            ("/a/pk_acme/LEE", Agents.iPhone), ("/a/pk_acme/BARE1", Agents.android), ("/a/pk_acme/LEE", Agents.curl),
            ("/a/pk_acme/LEE", Agents.slack), ("/a/pk_acme/LEE", Agents.iMessage),
        ] {
            let response = try Self.tap(server, path, as: agent)
            #expect(response.status == 200, "\(path) \(agent)")
            #expect(!response.text.contains("<svg") && !response.text.contains(#"id="qr""#), "\(path) \(agent)")
            #expect(!response.text.contains("Scan with your phone"), "\(path) \(agent)")
        }
        let head = try Self.tap(server, "/a/pk_acme/LEE", as: Agents.desktop, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test func withoutAPublicURLADesktopGetsNoQRCode() throws {
        let server = try Self.server(publicURL: nil)
        defer { server.shutdown() }
        let response = try Self.tap(server, "/a/pk_acme/LEE", as: Agents.desktop)
        #expect(response.status == 200)
        #expect(response.text.contains(#"id="code">LEE<"#))
        #expect(!response.text.contains("<svg") && !response.text.contains("Scan with your phone"))
    }

    /// Every tap, on either loop, gets the same bytes: each loop drew the code once and keeps it.
    @Test func repeatedTapsGetTheSameBytes() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        var seen: Set<String> = []
        for _ in 0..<40 {
            // A new connection per tap, so the kernel spreads them over both loops.
            let response = try Self.tap(server, "/a/pk_acme/LEE", as: Agents.desktop)
            seen.insert(try #require(Self.svg(in: response.text)))
        }
        #expect(seen.count == 1)
    }

    /// A code respelled by an import keeps its reference but not its URL: the page's code follows.
    @Test func aRespelledCodeGetsANewQRCode() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let before = try #require(Self.svg(in: try Self.tap(server, "/a/pk_acme/LEE", as: Agents.desktop).text))
        try server.importConfig(
            """
            {"organizations":[{"id":"org_acme","programs":[
              {"id":"prg_play","partners":[{"id":"part_lee","codes":[{"code":"lee","active":true}]}]}]}]}
            """)
        let expected = QRCodeSVGTests.drawnSVG("https://links.example.com/a/pk_acme/lee")
        #expect(expected != before)
        #expect(
            try eventually(within: 2) {
                (0..<4).allSatisfy { _ in
                    let page = (try? Self.tap(server, "/a/pk_acme/LEE", as: Agents.desktop).text) ?? ""
                    return Self.svg(in: page) == expected
                }
            })
    }

    @Test func serveSaysOnceThatItDrawsNoQRCodeWithoutAPublicURL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (label, arguments, expected) in [
            ("without", ["--demo"], 1), ("with", ["--demo", "--public-url", "https://links.example.com"], 0),
        ] {
            let server = try ChildServer(
                dataDirectory: directory.path + "/data-\(label)", outputIn: directory.path, label: label,
                arguments: arguments)
            defer { server.kill() }
            let response = try server.client().request(
                "GET", "/a/pk_demo/SAM20", headers: [("User-Agent", Agents.desktop)])
            #expect(response.status == 200 || response.status == 302)
            #expect(server.stop()?.status == 0)
            let notice = "no --public-url: desktop fallback pages show no QR code"
            #expect(server.child.stderr.components(separatedBy: notice).count - 1 == expected, "\(server.child.stderr)")
        }
    }
}
