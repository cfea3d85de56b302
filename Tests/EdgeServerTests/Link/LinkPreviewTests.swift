import EdgeServer
import TestSupport
import Testing

/// Link-preview fetchers and `HEAD` get the Open Graph page and record nothing; other bots get what a
/// person would, without a click.
@Suite struct LinkPreviewTests {
    /// The fetchers issue 2 says the first version must know, as they identify themselves.
    static let previewFetchers: [(name: String, agent: String)] = [
        ("Slack", Agents.slack),
        ("iMessage", Agents.iMessage),
        ("WhatsApp Android", "WhatsApp/2.23.20.0 A"),
        ("WhatsApp iOS", "WhatsApp/2.23.18.78 i"),
        ("Facebook", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"),
        ("Twitter/X", "Twitterbot/1.0"),
        ("Telegram", "TelegramBot (like TwitterBot)"),
        ("Discord", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"),
        ("LinkedIn", "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)"),
        (
            "Skype/Teams",
            "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com"
        ),
    ]

    @Test func previewFetchersGetOpenGraphTagsAndRecordNoClick() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL("https://links.example.com") }
        defer { server.shutdown() }
        let client = server.client()
        for (name, agent) in Self.previewFetchers {
            for code in ["SAM20", "lee"] {
                let response = try client.request("GET", "/a/pk_acme/\(code)", headers: [("User-Agent", agent)])
                #expect(response.status == 200, "\(name) on \(code)")
                #expect(response.header("location") == nil, "\(name) on \(code)")
                #expect(response.header("content-type")?.hasPrefix("text/html") == true, "\(name)")
                let page = response.text
                let (program, partner, stored) =
                    code == "SAM20" ? ("Acme Pro", "Sam", "SAM20") : ("Acme Lite", "Lee", "LEE")
                #expect(page.contains(#"<meta property="og:title" content="\#(program): code \#(stored)">"#), "\(name)")
                #expect(
                    page.contains(
                        #"<meta property="og:description" content="\#(partner) invites you to \#(program). Use code \#(stored) when you sign up.">"#
                    ),
                    "\(name)")
                #expect(
                    page.contains(
                        #"<meta property="og:url" content="https://links.example.com/a/pk_acme/\#(stored)">"#),
                    "\(name)")
            }
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel], "no preview fetch recorded a click")
    }

    @Test func headIsAnsweredWithThePreviewHeadersWhoeverAsks() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let agents = [Agents.iPhone, Agents.android, Agents.desktop, Agents.curl, Agents.slack, ""]
        for code in ["SAM20", "LEE", "BARE1"] {
            let preview = try client.request("GET", "/a/pk_acme/\(code)", headers: [("User-Agent", Agents.slack)])
            #expect(preview.status == 200)
            for agent in agents {
                let headers = agent.isEmpty ? [] : [("User-Agent", agent)]
                let response = try client.request("HEAD", "/a/pk_acme/\(code)", headers: headers)
                #expect(response.status == 200, "HEAD \(code) as \(agent)")
                #expect(response.header("location") == nil, "HEAD \(code) as \(agent)")
                #expect(response.header("content-type") == preview.header("content-type"), "HEAD \(code) as \(agent)")
                #expect(response.header("content-length") == String(preview.body.count), "HEAD \(code) as \(agent)")
                #expect(response.body.isEmpty)
            }
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel], "no HEAD recorded a click")
    }

    @Test func headOfAnUnknownCodeIsStillNotFound() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request("HEAD", "/a/pk_acme/NOPE", headers: [("User-Agent", Agents.slack)])
        #expect(response.status == 404)
        let preview = try server.client().request("GET", "/a/pk_acme/OLD10", headers: [("User-Agent", Agents.slack)])
        #expect(preview.status == 404)
        #expect(!preview.text.contains("og:title"))
    }

    @Test func otherBotsGetThePersonsAnswerWithoutAClick() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let bots = [
            Agents.curl, "python-requests/2.31.0", "Go-http-client/1.1",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "",
        ]
        for bot in bots {
            let headers = bot.isEmpty ? [] : [("User-Agent", bot)]
            let redirect = try client.request("GET", "/a/pk_acme/SAM20", headers: headers)
            #expect(redirect.status == 302, "\(bot)")
            #expect(redirect.header("cache-control") == "no-store", "\(bot)")
            let location = try #require(redirect.header("location"), "\(bot)")
            #expect(location.hasPrefix("myapp://claim?tolt_code=SAM20&tolt_click="), "\(bot)")
            #expect(LinkResponses.clickID(in: redirect) == nil, "a bot is given no click id: \(location)")

            let fallback = try client.request("GET", "/a/pk_acme/LEE", headers: headers)
            #expect(fallback.status == 200, "\(bot)")
            #expect(fallback.text.contains(#"<div class="code" id="code">LEE</div>"#), "\(bot)")
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel], "no bot recorded a click")
    }
}
