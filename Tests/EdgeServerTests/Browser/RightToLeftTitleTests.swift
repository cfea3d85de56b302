import Foundation
import TestSupport
import Testing

/// A right-to-left name in a page's `<title>` and its Open Graph and Twitter tags, where no `<bdi>` can go: put
/// between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so "متجر: your code SARA" is not reordered
/// with the words and punctuation around it in a tab's title or a chat app's card. A name without a right-to-left
/// letter gets nothing: some renderers (the Windows taskbar) draw the isolates as boxes.
///
/// The Chromium test needs `chromium` and `chromium-driver` (`scripts/install-deps.sh test`); without them it fails,
/// never skips. Serialized: it starts its own browser.
@Suite(.serialized) struct RightToLeftTitleTests {
    static let config = """
        {"organizations":[
          {"id":"org_rtl","name":"RTL","public_key":"pk_rtl","secret_key":"sk_rtl_secret","programs":[
            {"id":"prg_rtl","name":"متجر",
             "partners":[{"id":"part_sara","name":"سارة!","codes":[{"code":"SARA"},{"code":"שלום20"}]}]},
            {"id":"prg_latin","name":"Acme <Pro>",
             "partners":[{"id":"part_lee","name":"Lee","codes":[{"code":"LEE"}]}]}]}]}
        """

    static let (fsi, pdi) = ("\u{2068}", "\u{2069}")

    static func page(_ server: TestServer, _ path: String, as agent: String) throws -> String {
        let response = try server.client().request("GET", path, headers: [("User-Agent", agent)])
        #expect(response.status == 200, "\(path)")
        return response.text
    }

    @Test func rightToLeftNamesAreIsolatedInTitlesAndTags() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let (fsi, pdi) = (Self.fsi, Self.pdi)
        let fallback = try Self.page(server, "/a/pk_rtl/SARA", as: Agents.iPhone)
        #expect(fallback.contains("<title>\(fsi)متجر\(pdi): your code SARA</title>"), "\(fallback.prefix(400))")
        #expect(fallback.contains(#"data-copied-status="Copied SARA""#), "a Latin code is as it was")
        #expect(fallback.contains("<bdi>سارة!</bdi> shared this code"), "the body keeps its <bdi>")

        let preview = try Self.page(server, "/a/pk_rtl/SARA", as: Agents.slack)
        let title = "\(fsi)متجر\(pdi): code SARA"
        let sentence = "\(fsi)سارة!\(pdi) invites you to \(fsi)متجر\(pdi). Use code SARA when you sign up."
        for tag in [
            "<title>\(title)</title>", #"<meta property="og:title" content="\#(title)">"#,
            #"<meta name="twitter:title" content="\#(title)">"#,
            #"<meta property="og:description" content="\#(sentence)">"#,
            #"<meta name="twitter:description" content="\#(sentence)">"#,
            "<p><bdi>سارة!</bdi> invites you to <bdi>متجر</bdi>. Use code <bdi>SARA</bdi> when you sign up.</p>",
        ] {
            #expect(preview.contains(tag), "\(tag)\n\(preview)")
        }
        // A right-to-left code is a value like the names.
        let hebrew = try Self.page(server, "/a/pk_rtl/%D7%A9%D7%9C%D7%95%D7%9D20", as: Agents.slack)
        #expect(hebrew.contains("<title>\(fsi)متجر\(pdi): code \(fsi)שלום20\(pdi)</title>"), "\(hebrew.prefix(400))")
    }

    /// A Latin program's pages hold no isolate: not a byte more than before.
    @Test func latinNamesGetNoIsolates() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        for agent in [Agents.iPhone, Agents.slack, Agents.desktop] {
            let page = try Self.page(server, "/a/pk_rtl/LEE", as: agent)
            #expect(page.contains("Acme &lt;Pro&gt;"), "escaped as ever")
            #expect(!page.contains(Self.fsi) && !page.contains(Self.pdi), "\(agent)")
        }
    }

    /// Chromium keeps the isolates in `document.title` (which only strips and collapses ASCII whitespace) and in the
    /// tags' `content`, so the tab and any card made from them get the name laid out on its own.
    @Test func chromiumKeepsTheIsolatesInTheTitle() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let phone = try ChromeDriverSession(userAgent: Agents.iPhone)
        defer { phone.quit() }
        try phone.open("http://127.0.0.1:\(server.port)/a/pk_rtl/SARA")
        let title = try phone.run("return document.title;") as? String
        #expect(title == "\(Self.fsi)متجر\(Self.pdi): your code SARA", "\(String(describing: title))")

        let fetcher = try ChromeDriverSession(userAgent: Agents.slack)
        defer { fetcher.quit() }
        try fetcher.open("http://127.0.0.1:\(server.port)/a/pk_rtl/SARA")
        let tags =
            try fetcher.run(
                """
                return [document.title, document.querySelector('meta[property="og:title"]').content,
                  document.querySelector('meta[property="og:description"]').content];
                """) as? [String]
        let expected = "\(Self.fsi)متجر\(Self.pdi): code SARA"
        #expect(tags?.first == expected && tags?[1] == expected, "\(String(describing: tags))")
        #expect(tags?.last?.hasPrefix("\(Self.fsi)سارة!\(Self.pdi) invites you to") == true)
    }
}
