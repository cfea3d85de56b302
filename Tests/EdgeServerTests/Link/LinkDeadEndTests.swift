import EdgeStore
import TestSupport
import Testing

/// A link whose code leads to no active code is still a `404`, but when its organization tells which program it was
/// for (the stored code's program, else the organization's only program), the page carries that program's branding
/// and store badges, chosen for the caller's platform: a person holding a partner's old post still reaches the app.
@Suite struct LinkDeadEndTests {
    /// `pk_solo`: one program, branded, with both stores (`ANN` active, `ANN10` inactive). `pk_duo`: two programs with
    /// stores, `DUP` held inactive in both, `ONE` inactive in the first only. `pk_bare`: one program without a store.
    static let config = ##"""
        {"organizations":[
          {"id":"org_solo","name":"Solo","public_key":"pk_solo","secret_key":"sk_solo_secret","programs":[
            {"id":"prg_solo","name":"Solo Program","app_name":"Solo <App>","app_icon_url":"https://cdn.solo.example/i.png?a=1&b=2",
             "brand_color":"#0F766E",
             "app_links":{"app_store_url":"https://apps.apple.com/app/id111",
                          "google_play_url":"https://play.google.com/store/apps/details?id=com.solo"},
             "partners":[{"id":"part_ann","name":"Ann","status":"active","codes":[{"code":"ANN","active":true},
                                                                               {"code":"ANN10","active":false}]}]}]},
          {"id":"org_duo","name":"Duo","public_key":"pk_duo","secret_key":"sk_duo_secret","programs":[
            {"id":"prg_one","name":"Duo One","app_links":{"app_store_url":"https://apps.apple.com/app/id201"},
             "partners":[{"id":"part_one","name":"One","status":"active","codes":[{"code":"DUP","active":false},
                                                                               {"code":"ONE","active":false}]}]},
            {"id":"prg_two","name":"Duo Two","app_links":{"app_store_url":"https://apps.apple.com/app/id202"},
             "partners":[{"id":"part_two","name":"Two","status":"active","codes":[{"code":"dup","active":false}]}]}]},
          {"id":"org_bare","name":"Bare","public_key":"pk_bare","secret_key":"sk_bare_secret","programs":[
            {"id":"prg_bare","name":"Bare App",
             "partners":[{"id":"part_bo","name":"Bo","status":"active","codes":[{"code":"OLD","active":false}]}]}]}
        ]}
        """##

    static let appStore = #"<a id="app-store" href="https://apps.apple.com/app/id123456789">"#
    static let googlePlay = #"<a id="google-play" href="https://play.google.com/store/apps/details?id=com.acme">"#

    static func get(_ client: HTTPClient, _ path: String, agent: String, language: String? = nil) throws
        -> HTTPResponse
    {
        var headers = [("User-Agent", agent)]
        if let language { headers.append(("Accept-Language", language)) }
        return try client.request("GET", path, headers: headers)
    }

    /// Whether a page is the branded not-found page of `appName`.
    static func isBranded(_ response: HTTPResponse, appName: String) -> Bool {
        response.text.contains("but you can still get <bdi>\(appName)</bdi>.")
            && response.text.contains("<title>\(appName): this link is not active</title>")
    }

    /// An inactive code, a code of an inactive partner and a code two active partners of one program share: the
    /// program is known, so the page offers its app, with the badges an iPhone, an Android phone and a desktop each
    /// get on the fallback page; still a `404` with the not-found page's headers, no code, no copy button, no click.
    @Test func aDeadCodeOfAKnownProgramOffersItsAppWithThePlatformsBadges() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        // The generic 404's headers, but for `Vary`, which names the User-Agent that chose the badges.
        let generic = try Self.get(client, "/a/pk_nobody/OLD10", agent: Agents.iPhone)
        let genericNames = Set(generic.headers.map(\.name).filter { !["date", "content-length", "vary"].contains($0) })
        #expect(genericNames == ["connection", "server", "content-type", "cache-control"])
        for path in ["/a/pk_acme/OLD10", "/a/pk_acme/old10", "/a/pk_acme/IDLE5", "/a/pk_acme/Shared"] {
            for (agent, appStore, googlePlay) in [
                (Agents.iPhone, true, false), (Agents.android, false, true), (Agents.desktop, true, true),
            ] {
                let response = try Self.get(client, path, agent: agent)
                #expect(response.status == 404, "\(path)")
                #expect(response.header("location") == nil, "\(path)")
                #expect(response.header("cache-control") == "no-store", "\(path)")
                #expect(
                    Set(response.headers.map(\.name).filter { !["date", "content-length", "vary"].contains($0) })
                        == genericNames, "\(path)")
                #expect(response.header("content-type") == "text/html; charset=utf-8", "\(path)")
                #expect(response.header("vary") == "Accept-Language, User-Agent", "\(path)")
                #expect(Self.isBranded(response, appName: "Acme Pro"), "\(path): \(response.text)")
                #expect(response.text.contains("<h1>This link is not active</h1>"), "\(path)")
                #expect(response.text.contains(Self.appStore) == appStore, "\(path) as \(agent)")
                #expect(response.text.contains(Self.googlePlay) == googlePlay, "\(path) as \(agent)")
                for absent in ["OLD10", "IDLE5", "SHARED", "Shared", "<button", "<script", "referrer=", "og:title"] {
                    #expect(!response.text.contains(absent), "\(path) shows \(absent)")
                }
            }
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel], "no dead link recorded a click")
    }

    /// Where the program cannot be told, the page stays the generic one, byte for byte what every 404 was: an unknown
    /// public key, an unknown code of an organization with several programs, and a malformed path.
    @Test func anUnknownKeyOrAnAmbiguousProgramKeepsTheGenericPage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let generic = try Self.get(client, "/a/pk_nobody/SAM20", agent: Agents.iPhone)
        for path in ["/a/pk_nobody/SAM20", "/a/pk_acme/NOPE", "/a/pk_acme/", "/a/pk_acme/SAM%ZZ0", "/a/pk_other/ZED1"] {
            let response = try Self.get(client, path, agent: Agents.iPhone)
            #expect(response.status == 404, "\(path)")
            #expect(response.header("vary") == "Accept-Language", "\(path)")
            #expect(response.text == generic.text, "\(path)")
            #expect(response.text.contains("<title>Link not found</title>"), "\(path)")
            #expect(!response.text.contains("badges") && !response.text.contains("apps.apple.com"), "\(path)")
        }
        #expect(
            generic.text.contains(
                "<h1>This link is not active</h1><p>The code in this link is unknown or no longer active. Ask the"
                    + " person who shared it for a new one.</p></main>"))
    }

    /// An organization's only program answers for any dead code of it, branded (icon, name escaped, theme colour);
    /// a code two programs stored leaves the choice to the organization, which has two: generic; a code one of them
    /// stored is that program's; a program with no store URL offers no app: generic.
    @Test func theOnlyProgramOrTheStoredCodesProgramElseGeneric() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        for path in ["/a/pk_solo/NOPE", "/a/pk_solo/ann10", "/a/pk_solo/ANN10%E2%80%8B", "/a/pk_solo/%EF%BC%A1NN10"] {
            let response = try Self.get(client, path, agent: Agents.iPhone)
            #expect(response.status == 404, "\(path)")
            #expect(Self.isBranded(response, appName: "Solo &lt;App&gt;"), "\(path): \(response.text)")
            #expect(
                response.text.contains(
                    #"<img class="icon" id="icon" src="https://cdn.solo.example/i.png?a=1&amp;b=2" alt="""#),
                "\(path)")
            #expect(response.text.contains(##"<meta name="theme-color" content="#0f766e">"##), "\(path)")
            #expect(response.text.contains(#"href="https://apps.apple.com/app/id111""#), "\(path)")
            #expect(!response.text.contains("play.google.com"), "\(path)")
        }
        #expect(try Self.get(client, "/a/pk_solo/ANN", agent: Agents.iPhone).status == 200)

        let shared = try Self.get(client, "/a/pk_duo/DUP", agent: Agents.desktop)
        #expect(shared.status == 404 && shared.text.contains("<title>Link not found</title>"))
        let one = try Self.get(client, "/a/pk_duo/one", agent: Agents.desktop)
        #expect(Self.isBranded(one, appName: "Duo One") && one.text.contains("id201") && !one.text.contains("id202"))
        let unknown = try Self.get(client, "/a/pk_duo/NOPE", agent: Agents.desktop)
        #expect(unknown.text.contains("<title>Link not found</title>"))
        let bare = try Self.get(client, "/a/pk_bare/OLD", agent: Agents.desktop)
        #expect(bare.status == 404 && bare.text.contains("<title>Link not found</title>"))
    }

    /// A code rotated by an import (deactivated) is a branded `404` as soon as the table in force has it: the partner's
    /// old post now offers its program's app, not the code.
    @Test func aCodeDeactivatedByAnImportOffersItsProgramsApp() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try Self.get(client, "/a/pk_acme/LEE", agent: Agents.desktop).status == 200)
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","partners":[{"id":"part_lee","#
                + #""codes":[{"code":"LEE","active":false}]}]}]}]}"#)
        var response: HTTPResponse?
        let rotated = eventually {
            response = try? Self.get(client, "/a/pk_acme/LEE", agent: Agents.android)
            return response?.status == 404
        }
        #expect(rotated)
        let page = try #require(response)
        #expect(Self.isBranded(page, appName: "Acme Lite"), "\(page.text)")
        #expect(page.text.contains(#"href="https://play.google.com/store/apps/details?id=com.acme.lite&amp;hl=en""#))
        #expect(!page.text.contains("apps.apple.com") && !page.text.contains("LEE"))
    }

    /// Every language of the pages says the code is not active and that the app can still be had.
    @Test func theBrandedPageSpeaksEveryLanguage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let sentences = [
            "en": "but you can still get <bdi>Acme Pro</bdi>.",
            "de": "aber du kannst <bdi>Acme Pro</bdi> trotzdem laden.",
            "fr": "mais vous pouvez quand même obtenir <bdi>Acme Pro</bdi>.",
            "es": "pero aún puedes conseguir <bdi>Acme Pro</bdi>.",
            "pt": "mas você ainda pode baixar <bdi>Acme Pro</bdi>.",
        ]
        for (language, sentence) in sentences {
            let response = try Self.get(client, "/a/pk_acme/OLD10", agent: Agents.android, language: language)
            #expect(response.status == 404)
            #expect(response.text.contains(#"<html lang="\#(language)">"#), "\(language)")
            #expect(response.text.contains(sentence), "\(language): \(response.text)")
        }
    }

    /// A preview fetcher and a `HEAD` get what they got before: a `404` without Open Graph tags, so no card is drawn
    /// for a dead code; the fetcher's page is the branded one (the desktop's badges), the `HEAD` has no body.
    @Test func previewFetchersAndHeadStillGetA404WithoutACard() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for agent in [Agents.slack, Agents.iMessage, Agents.curl] {
            let response = try Self.get(client, "/a/pk_acme/OLD10", agent: agent)
            #expect(response.status == 404, "\(agent)")
            #expect(!response.text.contains("og:"), "\(agent)")
            #expect(response.text.contains(Self.appStore) && response.text.contains(Self.googlePlay), "\(agent)")
        }
        let head = try client.request("HEAD", "/a/pk_acme/OLD10", headers: [("User-Agent", Agents.slack)])
        #expect(head.status == 404 && head.text.isEmpty)
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel])
    }
}
