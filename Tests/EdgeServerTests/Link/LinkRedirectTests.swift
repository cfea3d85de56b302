import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// A person's tap on `/a/<key>/<code>`: recorded as a click, then sent to the app, to Google Play, or to the
/// fallback page.
@Suite struct LinkRedirectTests {
    @Test func iPhoneWithTemplateIsRedirectedToTheAppAndTheClickIsListedWithEveryField() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let referer = "https://partner.example/post?id=7&lang=en"
        let before = Date()
        let response = try server.client().request(
            "GET", "/a/pk_acme/sam20", headers: [("User-Agent", Agents.iPhone), ("Referer", referer)])
        let answered = Date()

        #expect(response.status == 302)
        #expect(response.header("cache-control") == "no-store")
        let id = try #require(LinkResponses.clickID(in: response))
        #expect(LinkResponses.isClickID(id))
        // The stored spelling of the code, not the one typed in the link.
        #expect(response.header("location") == "myapp://claim?tolt_code=SAM20&tolt_click=\(id)")

        let client = server.client()
        var listed: JSONValue?
        let appeared = try eventually(within: 2) {
            let page = try client.request("GET", "/v1/clicks", headers: [("Authorization", "Bearer sk_acme_secret")])
            listed = try page.json["data"]?.arrayValue?.first { $0["id"]?.stringValue == id }
            return listed != nil
        }
        #expect(appeared, "the click is listed within 2 s of its response")
        let click = try #require(listed)
        #expect(click["organization_id"]?.stringValue == "org_acme")
        #expect(click["program_id"]?.stringValue == "prg_acme")
        #expect(click["partner_id"]?.stringValue == "part_sam")
        #expect(click["code"]?.stringValue == "SAM20")
        #expect(click["platform"]?.stringValue == "ios")
        #expect(click["user_agent"]?.stringValue == Agents.iPhone)
        #expect(click["referer"]?.stringValue == referer)
        #expect(click["ip"]?.stringValue == "127.0.0.0", "the default --ip-storage anonymized keeps the /24")
        #expect(click["country"]?.isNull == true, "no --geoip, no country")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let createdAt = try #require(click["created_at"]?.stringValue.flatMap(formatter.date(from:)))
        #expect(createdAt >= before.addingTimeInterval(-0.001) && createdAt <= answered.addingTimeInterval(0.001))
    }

    @Test func androidWithTemplateAlsoGoesToTheApp() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.android)])
        #expect(response.status == 302)
        let id = try #require(LinkResponses.clickID(in: response))
        #expect(response.header("location") == "myapp://claim?tolt_code=SAM20&tolt_click=\(id)")
        #expect(try server.waitForClick(id))
        #expect(try server.storedClicks().first { $0.id == id }?.platform == .android)
    }

    @Test func androidWithPlayURLIsRedirectedToPlayWithTheReferrer() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request("GET", "/a/pk_acme/lee", headers: [("User-Agent", Agents.android)])

        #expect(response.status == 302)
        #expect(response.header("cache-control") == "no-store")
        let id = try #require(LinkResponses.clickID(in: response))
        #expect(LinkResponses.isClickID(id))
        // The Play URL keeps its own query; the referrer is one value the app decodes once.
        #expect(
            response.header("location")
                == "https://play.google.com/store/apps/details?id=com.acme.lite&hl=en"
                + "&referrer=tolt_code%3DLEE%26tolt_click%3D\(id)")
        #expect(try server.waitForClick(id))
        let click = try #require(try server.storedClicks().first { $0.id == id })
        #expect(click.programID == "prg_play" && click.partnerID == "part_lee" && click.code == "LEE")
        #expect(click.platform == .android)
    }

    @Test(arguments: [(Agents.desktop, Platform.desktop), (Agents.iPhone, Platform.ios)])
    func withoutTemplateOthersGetTheFallbackPage(agent: String, platform: Platform) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request("GET", "/a/pk_acme/Lee", headers: [("User-Agent", agent)])

        #expect(response.status == 200)
        #expect(response.header("content-type")?.hasPrefix("text/html") == true)
        #expect(response.header("location") == nil)
        let page = response.text
        #expect(page.contains(#"<div class="code" id="code">LEE</div>"#))
        #expect(page.contains(#"<button type="button" id="copy" data-code="LEE">"#))
        #expect(page.contains(#"id="app-store" href="https://apps.apple.com/app/id987654321""#))
        // An iPhone gets its own store's badge only; a desktop, where neither installs, both.
        #expect(
            page.contains(
                #"id="google-play" href="https://play.google.com/store/apps/details?id=com.acme.lite&amp;hl=en""#)
                == (platform == .desktop))
        #expect(page.contains("Acme Lite") && page.contains("<bdi>Lee</bdi> shared this code"))

        let (clicks, sentinel) = try server.clicksThroughSentinel()
        let recorded = clicks.filter { $0.id != sentinel }
        #expect(recorded.count == 1, "the fallback page records one click")
        #expect(recorded.first?.code == "LEE" && recorded.first?.platform == platform)
    }

    /// A phone whose store the program does not have is shown the store it has: the app is not for this phone,
    /// and the page says so by the badge rather than by nothing.
    @Test func aPhoneWithoutItsStoreSeesTheStoreTheProgramHas() throws {
        let server = try TestServer(
            config: #"""
                {"organizations":[{"id":"org_one","name":"One","public_key":"pk_one","secret_key":"sk_one_secret",
                  "programs":[
                    {"id":"prg_ios","name":"iOS only","app_links":{"app_store_url":"https://apps.apple.com/app/id1"},
                     "partners":[{"id":"part_a","name":"A","codes":[{"code":"IOS1"}]}]},
                    {"id":"prg_android","name":"Android only",
                     "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.one"},
                     "partners":[{"id":"part_b","name":"B","codes":[{"code":"DROID1"}]}]}]}]}
                """#)
        defer { server.shutdown() }
        let android = try server.client().request("GET", "/a/pk_one/IOS1", headers: [("User-Agent", Agents.android)])
        #expect(android.status == 200)
        #expect(android.text.contains(#"id="app-store" href="https://apps.apple.com/app/id1""#))
        let iPhone = try server.client().request("GET", "/a/pk_one/DROID1", headers: [("User-Agent", Agents.iPhone)])
        #expect(iPhone.status == 200)
        #expect(iPhone.text.contains(#"id="google-play" href="https://play.google.com/store/apps/details?id=com.one""#))
    }

    @Test(arguments: [Agents.desktop, Agents.iPhone, Agents.android])
    func aProgramWithoutLinksShowsTheCodeAndNoBadge(agent: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request("GET", "/a/pk_acme/BARE1", headers: [("User-Agent", agent)])

        #expect(response.status == 200)
        #expect(response.header("location") == nil)
        let page = response.text
        #expect(page.contains(#"<div class="code" id="code">BARE1</div>"#))
        #expect(!page.contains("id=\"app-store\""))
        #expect(!page.contains("id=\"google-play\""))
        #expect(!page.contains("apps.apple.com") && !page.contains("play.google.com"))

        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.filter { $0.id != sentinel }.map(\.code) == ["BARE1"])
    }

    /// Whitespace, a zero-width space, byte-order mark or bidirectional mark pasted with the code is dropped around it,
    /// as claims drop it; inside a code, or with nothing else, it is still no code.
    @Test func invisibleCharactersAroundTheCodeAreDropped() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        for path in [
            "/a/pk_acme/SAM20%E2%80%8B", "/a/pk_acme/%EF%BB%BFsam20", "/a/pk_acme/%E2%80%8ESAM20%E2%80%8F",
            "/a/pk_acme/SAM20%20", "/a/pk_acme/%09SAM20%0A", "/a/pk_acme/%C2%A0SAM20%E3%80%80",
        ] {
            let response = try server.client().request("GET", path, headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 302, "\(path)")
            #expect(response.header("location")?.hasPrefix("myapp://claim?tolt_code=SAM20&tolt_click=clk_") == true)
        }
        for path in [
            "/a/pk_acme/SA%E2%80%8BM20", "/a/pk_acme/%E2%80%8B", "/a/pk_acme/NOPE%E2%80%8B", "/a/pk_acme/SA%20M20",
            "/a/pk_acme/%20",
        ] {
            let response = try server.client().request("GET", path, headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 404, "\(path)")
        }
    }

    @Test func everyTapGetsItsOwnClickID() throws {
        // One visitor's taps: with repeat taps on they would share the first tap's id (RepeatTapTests).
        let server = try TestServer { $0.repeatTapWindow = 0 }
        defer { server.shutdown() }
        let client = server.client()
        var ids: [String] = []
        for _ in 0..<20 {
            let response = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
            ids.append(try #require(LinkResponses.clickID(in: response)))
        }
        #expect(Set(ids).count == 20)
        let times = ids.compactMap { ClickID(parsing: $0)?.timestampMilliseconds }
        #expect(times.count == 20 && times == times.sorted(), "click ids start with their time")
        #expect(try server.waitForClicks(count: 20))
        #expect(Set(try server.storedClicks().map(\.id)) == Set(ids))
    }

    /// The template's own text above ASCII goes into `Location` percent-encoded, as a browser's URL parser encodes
    /// it. Before, its raw UTF-8 bytes went into the header, and a client that reads headers as Latin-1 (Python's
    /// `http.client`, many link checkers) followed `myapp://Ã¼/…`.
    @Test func aTemplateWithTextAboveASCIIRedirectsToAnASCIILocation() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","#
                + #""app_links":{"deep_link_template":"myapp://ü/{code}?c={click_id}#é"}}]}]}"#)
        let client = server.client()
        func tap() throws -> HTTPResponse {
            try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        }
        #expect(try eventually(within: 5) { try tap().header("location")?.hasPrefix("myapp://%C3%BC/") == true })
        let response = try tap()
        let id = try #require(LinkResponses.clickID(in: response, after: ["?c="]))
        #expect(response.header("location") == "myapp://%C3%BC/SAM20?c=\(id)#%C3%A9")
        #expect(response.rawHead.allSatisfy { $0 < 0x80 }, "an ASCII head")
    }
}
