import EdgeStore
import LinkCore
import TestSupport
import Testing

/// Which links resolve: codes match without case, only when code and partner are active and one partner
/// holds the code; everything else gets the small 404 page and no click.
@Suite struct LinkMatchingTests {
    static let notFoundPaths = [
        "/a/pk_nobody/SAM20",  // unknown key
        "/a/pk_acme/NOPE",  // unknown code
        "/a/pk_acme/SAM2", "/a/pk_acme/SAM200",  // a prefix and an extension of a code
        "/a/pk_acme/OLD10", "/a/pk_acme/old10",  // inactive code
        "/a/pk_acme/IDLE5",  // active code of an inactive partner
        "/a/pk_acme/SHARED", "/a/pk_acme/shared", "/a/pk_acme/Shared",  // two partners hold it
        "/a/pk_acme/ZED", "/a/pk_other/SAM20",  // another organization's code
        "/a/pk_acme/", "/a/pk_acme", "/a//SAM20", "/a/pk_acme/SAM20/extra",
        "/a/pk_acme/SAM20%", "/a/pk_acme/SAM%2", "/a/pk_acme/SAM%ZZ0",  // malformed escapes
    ]

    @Test func unknownInactiveAndSharedCodesGetTheNotFoundPageAndNoClick() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for path in Self.notFoundPaths {
            for agent in [Agents.iPhone, Agents.android, Agents.slack] {
                let response = try client.request("GET", path, headers: [("User-Agent", agent)])
                #expect(response.status == 404, "\(path) as \(agent)")
                #expect(response.header("content-type")?.hasPrefix("text/html") == true, "\(path)")
                #expect(response.header("location") == nil, "\(path)")
                #expect(response.text.contains("This link is not active"), "\(path)")
            }
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel], "no 404 recorded a click")
    }

    @Test func codesMatchWithoutCaseAndRedirectWithTheStoredSpelling() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        var ids: Set<String> = []
        let spellings = ["SAM20", "sam20", "SaM20", "%53AM20", "%73%61%6d%32%30", "%73%61%6D20"]
        for spelling in spellings {
            let response = try client.request("GET", "/a/pk_acme/\(spelling)", headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 302, "\(spelling)")
            let id = try #require(LinkResponses.clickID(in: response), "\(spelling)")
            #expect(response.header("location") == "myapp://claim?tolt_code=SAM20&tolt_click=\(id)", "\(spelling)")
            ids.insert(id)
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(Set(clicks.map(\.id)) == ids.union([sentinel]))
        #expect(clicks.allSatisfy { $0.code == "SAM20" && $0.partnerID == "part_sam" })
    }

    @Test func aTrailingSlashAndAQueryStringChangeNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let paths = [
            "/a/pk_acme/SAM20/", "/a/pk_acme/SAM20?utm_source=tiktok", "/a/pk_acme/SAM20/?utm_source=tiktok",
            "/a/pk_acme/SAM20?tolt_code=EVIL&tolt_click=clk_forged", "/a/pk_acme/SAM20?",
        ]
        var ids: Set<String> = []
        for path in paths {
            let response = try client.request("GET", path, headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 302, "\(path)")
            let id = try #require(LinkResponses.clickID(in: response), "\(path)")
            #expect(LinkResponses.isClickID(id))
            #expect(response.header("location") == "myapp://claim?tolt_code=SAM20&tolt_click=\(id)", "\(path)")
            ids.insert(id)
        }
        // One link for repeat taps too: the visitor's later taps carry the first tap's id.
        #expect(ids.count == 1, "\(ids)")
        let play = try client.request("GET", "/a/pk_acme/LEE/?hl=de", headers: [("User-Agent", Agents.android)])
        #expect(
            play.header("location")?.hasPrefix(
                "https://play.google.com/store/apps/details?id=com.acme.lite&hl=en&referrer=") == true)
        #expect(try server.waitForClicks(count: 2))
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HACK", "GOT"])
    func otherMethodsAreNotAllowed(method: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request(method, "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        #expect(response.status == 405)
        #expect(response.header("allow") == "GET, HEAD")
        #expect(response.header("location") == nil)
        let body = try response.json
        #expect(body["success"]?.boolValue == false)
        #expect(body["error"]?.stringValue == "method_not_allowed")
        #expect(body["message"]?.stringValue?.isEmpty == false)
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel])
    }

    /// RFC 3986 §6.2.2.2: a percent-encoded unreserved character is that character, so the key is decoded as the code
    /// is. Before, `/a/%70k_acme/SAM20` was `404` while `/a/pk_acme/%53AM20` redirected (a link wrapper that encodes
    /// `_` broke every link).
    @Test func anEncodedPublicKeyIsTheKey() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        var ids: Set<String> = []
        for path in [
            "/a/%70k_acme/SAM20", "/a/pk%5Facme/SAM20", "/a/pk%5facme/sam20", "/a/%70%6B%5F%61%63%6D%65/%53AM20",
        ] {
            let response = try client.request("GET", path, headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 302, "\(path)")
            let id = try #require(LinkResponses.clickID(in: response), "\(path)")
            #expect(response.header("location") == "myapp://claim?tolt_code=SAM20&tolt_click=\(id)", "\(path)")
            ids.insert(id)
        }
        // One visitor's taps of one link: the later ones are repeats of the first.
        #expect(ids.count == 1)
        let long = "/a/" + String(repeating: "%41", count: KeyRules.maximumLength + 1) + "/SAM20"
        for path in [
            "/a/%50K_acme/SAM20", "/a/pk%5Facm/SAM20", "/a/%zzk_acme/SAM20", "/a/pk_acme%/SAM20", "/a/pk_acme%2/SAM20",
            "/a/pk_acme%2F/SAM20", "/a/%2F/SAM20", "/a/%70k_other/SAM20", long,
        ] {
            let response = try client.request("GET", path, headers: [("User-Agent", Agents.iPhone)])
            #expect(response.status == 404, "\(path)")
            #expect(response.text.contains("This link is not active"), "\(path)")
        }
        #expect(try server.waitForClick(try #require(ids.first)))
    }

    /// `.` and `..` are refused as new codes (browsers remove them from a path), but one stored before (or by another
    /// tool) still loads and is served as it was to a client that sends it as it is.
    @Test func aStoredDotSegmentCodeIsStillServed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let store = try server.fixture.reopen()
        var changes = ConfigChanges()
        changes.codes = [CodeRecord(reference: 0, partnerID: "part_sam", code: "..", active: true)]
        try store.applyConfig(changes, expectedRevision: try store.configRevision())
        let client = server.client()
        func tap(_ path: String) throws -> HTTPResponse {
            try client.request("GET", path, headers: [("User-Agent", Agents.iPhone)])
        }
        #expect(try eventually(within: 5) { try tap("/a/pk_acme/%2E%2E").status == 302 })
        for path in ["/a/pk_acme/%2e%2e", "/a/pk_acme/..", "/a/pk_acme/.%2E"] {
            let response = try tap(path)
            #expect(response.status == 302, "\(path)")
            let id = try #require(LinkResponses.clickID(in: response), "\(path)")
            #expect(response.header("location") == "myapp://claim?tolt_code=..&tolt_click=\(id)", "\(path)")
        }
    }
}
