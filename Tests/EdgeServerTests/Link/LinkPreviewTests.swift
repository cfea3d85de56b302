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

    /// Another bot (a crawler, a link checker, an HTTP library, or a link-preview fetcher the rules do not know) is
    /// sent where a person goes only when that is a web address it can follow; a template only the app opens and
    /// the page give it the preview, so an unknown preview fetcher still draws a card. It never records a click.
    @Test func otherBotsFollowOnlyWebAddressesAndElseGetThePreview() throws {
        let server = try TestServer(
            config: #"""
                {"organizations":[{"id":"org_one","name":"One","public_key":"pk_one","secret_key":"sk_one_secret",
                  "programs":[
                    {"id":"prg_web","name":"Web App",
                     "app_links":{"deep_link_template":"https://app.example.com/open?tolt_code={code}&tolt_click={click_id}"},
                     "partners":[{"id":"part_w","name":"Wren","codes":[{"code":"WEB1"}]}]},
                    {"id":"prg_scheme","name":"Scheme App",
                     "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}",
                                  "google_play_url":"https://play.google.com/store/apps/details?id=com.one"},
                     "partners":[{"id":"part_s","name":"Sage","codes":[{"code":"SCHEME1"}]}]},
                    {"id":"prg_play","name":"Play App",
                     "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.two"},
                     "partners":[{"id":"part_p","name":"Pip","codes":[{"code":"PLAY1"}]}]},
                    {"id":"prg_bare","name":"Bare App",
                     "partners":[{"id":"part_b","name":"Bo","codes":[{"code":"BARE1"}]}]}]}]}
                """#)
        defer { server.shutdown() }
        let client = server.client()
        let bots = [
            Agents.curl, "python-requests/2.31.0", "Go-http-client/1.1",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "",
        ]
        for bot in bots {
            let headers = bot.isEmpty ? [] : [("User-Agent", bot)]
            let redirect = try client.request("GET", "/a/pk_one/WEB1", headers: headers)
            #expect(redirect.status == 302, "\(bot)")
            #expect(redirect.header("cache-control") == "no-store", "\(bot)")
            let location = try #require(redirect.header("location"), "\(bot)")
            #expect(location == "https://app.example.com/open?tolt_code=WEB1&tolt_click=", "\(bot): \(location)")

            for (code, app) in [("SCHEME1", "Scheme App"), ("PLAY1", "Play App"), ("BARE1", "Bare App")] {
                let preview = try client.request("GET", "/a/pk_one/\(code)", headers: headers)
                #expect(preview.status == 200 && preview.header("location") == nil, "\(bot) \(code)")
                #expect(preview.text.contains(#"<meta property="og:title" content=""#), "\(bot) \(code)")
                #expect(preview.text.contains("<h1>\(app)</h1>"), "\(bot) \(code)")
                #expect(!preview.text.contains(#"id="code""#), "\(bot) \(code): the preview, not the page")
            }
        }
        // A person on the same links: the template, Google Play, the page.
        let person = try client.request("GET", "/a/pk_one/SCHEME1", headers: [("User-Agent", Agents.iPhone)])
        #expect(person.status == 302 && person.header("location")?.hasPrefix("myapp://") == true)
        let android = try client.request("GET", "/a/pk_one/PLAY1", headers: [("User-Agent", Agents.android)])
        #expect(android.status == 302 && android.header("location")?.hasPrefix("https://play.google.com/") == true)
        // The last click written: every earlier one is stored by then.
        let sentinelAgent = Agents.iPhone + " sentinel/1"
        let last = try client.request("GET", "/a/pk_one/WEB1", headers: [("User-Agent", sentinelAgent)])
        let sentinel = try #require(LinkResponses.clickID(in: last))
        #expect(try server.waitForClick(sentinel, organizationID: "org_one"))
        let clicks = try server.storedClicks(organizationID: "org_one")
        #expect(Set(clicks.map(\.userAgent)) == [Agents.iPhone, Agents.android, sentinelAgent] && clicks.count == 3)
    }
}
