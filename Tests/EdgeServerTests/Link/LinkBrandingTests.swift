import EdgeServer
import TestSupport
import Testing

/// A program's branding on its pages, through a real server: the fallback page's icon, name and button colour;
/// the preview's Open Graph and Twitter tags, with and without an image; hostile values escaped; and every page
/// within 20 KB with every field at its longest.
@Suite struct LinkBrandingTests {
    /// `prg_play` (code `LEE`, a fallback page on a desktop) branded; `prg_bare` (`BARE1`) left plain.
    static let branding = ##"""
        {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play",
          "app_name":"Acme Lite+","app_icon_url":"https://cdn.acme.example/icon.png?size=128&v=2",
          "brand_color":"#FFD400","og_image_url":"https://cdn.acme.example/card.png",
          "og_description":"Lee's code: 20% off your first month"}]}]}
        """##

    static func server() throws -> TestServer {
        let server = try TestServer { $0.publicURL = try? PublicURL("https://links.example.com") }
        do { try server.importConfig(Self.branding) } catch {
            server.shutdown()
            throw error
        }
        return server
    }

    /// Waits until the server's link table shows the import (the watcher polls the revision).
    static func page(_ server: TestServer, _ path: String, agent: String, expecting marker: String) throws
        -> HTTPResponse
    {
        var response: HTTPResponse?
        let seen = eventually {
            response = try? server.client().request("GET", path, headers: [("User-Agent", agent)])
            return response?.text.contains(marker) == true
        }
        #expect(seen, "\(path): \(response?.text ?? "no answer")")
        return try #require(response)
    }

    @Test func theFallbackPageShowsIconNameAndBrandColour() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let page = try Self.page(server, "/a/pk_acme/LEE", agent: Agents.desktop, expecting: "Acme Lite+").text
        #expect(
            page.contains(
                #"<img class="icon" id="icon" src="https://cdn.acme.example/icon.png?size=128&amp;v=2" alt="""#
                    + #" width="64" height="64" referrerpolicy="no-referrer" onerror="this.remove()">"#))
        #expect(page.contains(#"<h1 id="app-name">Acme Lite+</h1>"#))
        #expect(page.contains("<title>Acme Lite+: your code LEE</title>"))
        // A light brand colour carries dark text.
        // and a dark edge and focus ring on the light page, where yellow alone would not stand out.
        #expect(
            page.contains(
                "<style>:root{--accent:#ffd400;--on-accent:#000000;--edge:#000000}"
                    + "@media (prefers-color-scheme:dark){:root{--edge:#ffd400}}</style>"))

        // A program without branding: no icon, no colour, the program's name.
        let bare = try server.client().request("GET", "/a/pk_acme/BARE1", headers: [("User-Agent", Agents.desktop)])
        #expect(bare.status == 200)
        #expect(!bare.text.contains("<img") && !bare.text.contains("<style>:root{--accent"))
        #expect(bare.text.contains(#"<h1 id="app-name">Acme Bare</h1>"#))
    }

    @Test func aDarkBrandColourCarriesWhiteText() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        try server.importConfig(
            ##"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","brand_color":"#0F766E"}]}]}"##)
        let page = try Self.page(server, "/a/pk_acme/LEE", agent: Agents.desktop, expecting: "#0f766e").text
        #expect(
            page.contains(
                "<style>:root{--accent:#0f766e;--on-accent:#ffffff;--edge:#0f766e}"
                    + "@media (prefers-color-scheme:dark){:root{--edge:#0f766e}}</style>"))
    }

    @Test func thePreviewCarriesTheCardWithItsImage() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let page = try Self.page(server, "/a/pk_acme/LEE", agent: Agents.slack, expecting: "og:image").text
        for tag in [
            #"<meta property="og:title" content="Acme Lite+: code LEE">"#,
            #"<meta property="og:description" content="Lee&#39;s code: 20% off your first month">"#,
            #"<meta property="og:image" content="https://cdn.acme.example/card.png">"#,
            #"<meta property="og:url" content="https://links.example.com/a/pk_acme/LEE">"#,
            #"<meta name="twitter:card" content="summary_large_image">"#,
            #"<meta name="twitter:image" content="https://cdn.acme.example/card.png">"#,
            #"<meta name="twitter:description" content="Lee&#39;s code: 20% off your first month">"#,
            #"<html lang="en">"#,
        ] {
            #expect(page.contains(tag), "\(tag)")
        }
        #expect(!page.contains(#"content="summary">"#))
    }

    /// Messages draws a card's icon from the page's `apple-touch-icon` or icon link (Apple's TN3156: "provide a
    /// high-resolution icon in addition to your image"), else it asks the link's host for `/apple-touch-icon.png`
    /// and `/favicon.ico`, which this server does not have; Discord colours a card's edge, and phone browsers their
    /// toolbar, with `theme-color`. A program without an icon or colour gets neither tag.
    @Test func thePreviewCarriesTheIconAndTheBrandColour() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let preview = try Self.page(server, "/a/pk_acme/LEE", agent: Agents.slack, expecting: "og:image").text
        let icon = "https://cdn.acme.example/icon.png?size=128&amp;v=2"
        for tag in [
            #"<link rel="apple-touch-icon" href="\#(icon)">"#, #"<link rel="icon" href="\#(icon)">"#,
            ##"<meta name="theme-color" content="#ffd400">"##,
        ] {
            #expect(preview.contains(tag), "\(tag)")
        }
        #expect(preview.components(separatedBy: "</head>").first?.contains("theme-color") == true)
        let fallback = try server.client().request("GET", "/a/pk_acme/LEE", headers: [("User-Agent", Agents.desktop)])
        #expect(fallback.text.contains(##"<meta name="theme-color" content="#ffd400">"##))

        for agent in [Agents.slack, Agents.desktop] {
            let bare = try server.client().request("GET", "/a/pk_acme/BARE1", headers: [("User-Agent", agent)])
            #expect(bare.status == 200)
            #expect(!bare.text.contains("theme-color") && !bare.text.contains("apple-touch-icon"), "\(agent)")
        }
    }

    /// A program with an icon and no card image gets its icon as the card's image, in a summary card (a small square
    /// beside the text), rather than a card with no picture in WhatsApp, Telegram or X.
    @Test func withoutACardImageTheIconIsTheCardsImage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","app_icon_url":"https://cdn.acme.example/i.png"}]}]}"#
        )
        let page = try Self.page(server, "/a/pk_acme/LEE", agent: Agents.slack, expecting: "og:image").text
        for tag in [
            #"<meta property="og:image" content="https://cdn.acme.example/i.png">"#,
            #"<meta name="twitter:image" content="https://cdn.acme.example/i.png">"#,
            #"<meta name="twitter:card" content="summary">"#,
        ] {
            #expect(page.contains(tag), "\(tag)")
        }
        #expect(page.components(separatedBy: "og:image").count == 2, "one image")
    }

    @Test func thePreviewWithoutAnImageIsASummaryCard() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let page = try Self.page(server, "/a/pk_acme/BARE1", agent: Agents.slack, expecting: "og:title").text
        #expect(page.contains(#"<meta name="twitter:card" content="summary">"#))
        #expect(!page.contains("og:image") && !page.contains("twitter:image"))
        // Without og_description, today's sentence.
        #expect(
            page.contains(
                #"<meta property="og:description" content="Bo invites you to Acme Bare. Use code BARE1 when you sign up.">"#
            ))
        #expect(page.contains(#"<meta property="og:title" content="Acme Bare: code BARE1">"#))
    }

    /// Hostile branding values are text wherever they land: element content, attributes, the title.
    @Test func hostileAppNameAndDescriptionAreEscaped() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        try server.importConfig(
            #"""
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play",
              "app_name":"\"><script>alert(1)</script>","og_description":"</title><img src=x onerror='alert(2)'> & co"}]}]}
            """#)
        let name = "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
        let description = "&lt;/title&gt;&lt;img src=x onerror=&#39;alert(2)&#39;&gt; &amp; co"
        let preview = try Self.page(server, "/a/pk_acme/LEE", agent: Agents.slack, expecting: name).text
        #expect(preview.contains(#"<meta property="og:title" content="\#(name): code LEE">"#))
        #expect(preview.contains(#"<meta property="og:description" content="\#(description)">"#))
        #expect(preview.contains("<h1>\(name)</h1>"))
        let fallback = try Self.page(server, "/a/pk_acme/LEE", agent: Agents.desktop, expecting: name).text
        #expect(fallback.contains(#"<h1 id="app-name">\#(name)</h1>"#))
        #expect(fallback.contains("<title>\(name): your code LEE</title>"))
        for page in [preview, fallback] {
            #expect(!page.contains("<script>alert") && !page.contains("<img src=x") && !page.contains("'alert(2)'"))
        }
    }

    /// Every field at its longest, in every language, on a desktop (whose page carries the QR code of the link) and
    /// for a preview fetcher: the fallback, preview and not-found pages stay within 20 KB. Text fields are filled
    /// with the character escaping makes longest (`"` becomes `&quot;`); URLs, which cannot hold quotes, are made of
    /// `&` (5 bytes escaped) up to what a page URL may take on the page (``URLRules/validatePageURL(_:maximumPageLength:)``).
    @Test func pagesStayWithin20KBWithEveryFieldAtItsLongest() throws {
        let quotes = { (count: Int) in String(repeating: #"\""#, count: count) }
        let url = { (pageLength: Int) -> String in
            let head = "https://cdn.example/x?"
            return head + String(repeating: "&", count: (pageLength - head.utf8.count) / 5)
        }
        let code = String(repeating: "'", count: 64)
        let config = """
            {"organizations":[{"id":"org_big","name":"\(quotes(200))","public_key":"pk_big","secret_key":"sk_big_secret",
              "programs":[{"id":"prg_big","name":"\(quotes(200))",
                "app_links":{"app_store_url":"\(url(2048))","google_play_url":"\(url(2048))"},
                "app_name":"\(quotes(60))","app_icon_url":"\(url(1024))","brand_color":"#ffffff",
                "og_image_url":"\(url(1024))","og_description":"\(quotes(300))",
                "partners":[{"id":"part_big","name":"\(quotes(200))","codes":[{"code":"\(code)"}]}]}]}]}
            """
        let server = try TestServer(config: config) { $0.publicURL = try? PublicURL("https://links.example.com") }
        defer { server.shutdown() }
        let path = "/a/pk_big/" + String(repeating: "%27", count: 64)
        for language in ["en", "de", "fr", "es", "pt"] {
            for agent in [Agents.desktop, Agents.slack] {
                let response = try server.client().request(
                    "GET", path, headers: [("User-Agent", agent), ("Accept-Language", language)])
                #expect(response.status == 200)
                #expect(response.text.contains(#"<html lang="\#(language)">"#))
                #expect(response.text.contains(String(repeating: "&#39;", count: 64)), "the longest code is there")
                if agent == Agents.desktop { #expect(response.text.contains(#"id="qr""#), "the QR code is there") }
                #expect(response.body.count <= 20 * 1024, "\(language) \(agent): \(response.body.count) bytes")
            }
            let missing = try server.client().request("GET", "/a/pk_big/nope", headers: [("Accept-Language", language)])
            #expect(missing.status == 404 && missing.body.count <= 20 * 1024)
        }
    }
}
