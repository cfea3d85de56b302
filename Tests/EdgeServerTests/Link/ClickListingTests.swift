import EdgeStore
import LinkCore
import TestSupport
import Testing

/// `GET /v1/clicks`: the organization's clicks, newest first, paged and filtered, behind its secret key.
@Suite struct ClickListingTests {
    /// 2026-01-01T00:00:00Z.
    static let start: Int64 = 1_767_225_600_000

    /// 130 clicks of `org_acme` one second apart (even ones Sam's, odd ones Lee's) and 3 of `org_other`,
    /// written straight into the store. Returns the acme ids, oldest first.
    static func seed(_ server: TestServer) throws -> [String] {
        var acme: [ClickRecord] = []
        for index in 0..<130 {
            let sam = index % 2 == 0
            acme.append(
                ClickRecord(
                    id: clickID(at: start + Int64(index) * 1000), createdAt: start + Int64(index) * 1000,
                    organizationID: "org_acme", programID: sam ? "prg_acme" : "prg_play",
                    partnerID: sam ? "part_sam" : "part_lee", code: sam ? "SAM20" : "LEE", platform: .ios,
                    userAgent: Agents.iPhone, referer: "", ip: "192.0.2.\(index)"))
        }
        let other = (0..<3).map { index in
            ClickRecord(
                id: clickID(at: start + 500 + Int64(index) * 1000), createdAt: start + 500 + Int64(index) * 1000,
                organizationID: "org_other", programID: "prg_other", partnerID: "part_zed", code: "ZED",
                platform: .android, userAgent: Agents.android, referer: "", ip: "198.51.100.1")
        }
        try server.store.ingest(acme + other, checkpoint: JournalCheckpoint(segment: "test/seed", offset: 1))
        return acme.map(\.id)
    }

    /// A well-formed click id for a time (signature bytes random: listing does not check them).
    static func clickID(at milliseconds: Int64) -> String {
        var raw = [UInt8](repeating: 0, count: ClickID.byteCount)
        raw.withUnsafeMutableBytes {
            ClickID.writeSignedBytes(
                timestampMilliseconds: UInt64(milliseconds), codeReference: 1,
                random: UInt64.random(in: 0...UInt64.max),
                into: $0.baseAddress!)
        }
        for index in ClickID.signedByteCount..<ClickID.byteCount { raw[index] = UInt8.random(in: 0...255) }
        var text = [UInt8](repeating: 0, count: ClickID.encodedLength)
        raw.withUnsafeBytes { raw in text.withUnsafeMutableBytes { ClickID.encode(raw, into: $0.baseAddress!) } }
        return String(decoding: text, as: UTF8.self)
    }

    static func list(_ server: TestServer, _ query: String = "", key: String = "sk_acme_secret") throws -> HTTPResponse
    {
        try server.client().request("GET", "/v1/clicks" + query, headers: [("Authorization", "Bearer \(key)")])
    }

    static func ids(_ response: HTTPResponse) throws -> [String] {
        try #require(try response.json["data"]?.arrayValue).compactMap { $0["id"]?.stringValue }
    }

    @Test func aMissingOrWrongKeyGets401InTheErrorShape() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let attempts: [[(String, String)]] = [
            [], [("Authorization", "Bearer sk_wrong")], [("Authorization", "Bearer pk_acme")],
            [("Authorization", "Basic c2tfYWNtZV9zZWNyZXQ6")], [("Authorization", "Bearer ")],
            [("Authorization", "sk_acme_secret")],
        ]
        for headers in attempts {
            let response = try server.client().request("GET", "/v1/clicks", headers: headers)
            #expect(response.status == 401, "\(headers)")
            #expect(response.header("content-type")?.hasPrefix("application/json") == true)
            let body = try response.json
            #expect(body["success"]?.boolValue == false, "\(headers)")
            #expect(body["error"]?.stringValue == "unauthorized", "\(headers)")
            #expect(body["message"]?.stringValue?.isEmpty == false, "\(headers)")
            #expect(body["data"] == nil)
        }
    }

    @Test func pagesAreNewestFirstAndJoinWithoutGapOrOverlap() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let seeded = try Self.seed(server)

        let first = try Self.list(server, "?limit=100")
        #expect(first.status == 200)
        #expect(try first.json["success"]?.boolValue == true)
        #expect(try first.json["has_more"]?.boolValue == true)
        let firstIDs = try Self.ids(first)
        #expect(firstIDs == Array(seeded.reversed().prefix(100)))

        let second = try Self.list(server, "?limit=100&starting_after=\(firstIDs.last!)")
        #expect(try second.json["has_more"]?.boolValue == false)
        #expect(try Self.ids(second) == Array(seeded.reversed().dropFirst(100)))

        var walked: [String] = []
        var query = "?limit=7"
        while true {
            let page = try Self.list(server, query)
            walked += try Self.ids(page)
            guard try page.json["has_more"]?.boolValue == true else { break }
            query = "?limit=7&starting_after=\(walked.last!)"
        }
        #expect(walked == seeded.reversed())
        let times = try first.json["data"]!.arrayValue!.compactMap { $0["created_at"]?.stringValue }
        #expect(times.first == "2026-01-01T00:02:09.000Z" && times.count == 100)
        #expect(times == times.sorted(by: >))
    }

    @Test(arguments: ["0", "101", "abc", "-1", "", "1e2", "100.0"])
    func aLimitOutside1To100IsRejected(limit: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try Self.list(server, "?limit=\(limit)")
        #expect(response.status == 400)
        let body = try response.json
        #expect(body["success"]?.boolValue == false)
        #expect(body["error"]?.stringValue == "invalid_request")
        #expect(body["message"]?.stringValue?.contains("limit") == true)
    }

    @Test func badStartingAfterAndSinceAreRejected() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        for query in [
            "?starting_after=clk_nope", "?starting_after=abc", "?since=yesterday", "?since=2026-13-01T00:00:00Z",
            "?since=2026-02-30", "?since=26-01-01T0", "?since=2026-1-1",
        ] {
            let response = try Self.list(server, query)
            #expect(response.status == 400, "\(query)")
            #expect(try response.json["error"]?.stringValue == "invalid_request", "\(query)")
        }
        // An offset's unencoded `+` arrives as a space: the message says how to write it, and names the forms
        // `since` takes, a time with its offset among them.
        let plus = try Self.list(server, "?since=2026-01-01T01:00:00+01:00")
        #expect(plus.status == 400)
        #expect(try plus.json["message"]?.stringValue?.contains("write it %2B") == true, "\(plus.text)")
        let forms = try #require(try Self.list(server, "?since=yesterday").json["message"]?.stringValue)
        #expect(forms.contains("with its offset") && forms.contains("2026-01-31T13:00:00+01:00"), "\(forms)")
        #expect(forms.contains("write it %2B"), "an offset's + is written %2B in any case: \(forms)")
    }

    @Test func partnerAndSinceFilterTheList() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let seeded = try Self.seed(server)
        let lee = try Self.list(server, "?limit=100&partner_id=part_lee")
        let leeIDs = try Self.ids(lee)
        #expect(leeIDs == seeded.enumerated().filter { $0.offset % 2 == 1 }.map(\.element).reversed())
        #expect(try lee.json["data"]!.arrayValue!.allSatisfy { $0["partner_id"]?.stringValue == "part_lee" })

        // At or after 00:01:40: the clicks 100…129.
        let since = try Self.list(server, "?limit=100&since=2026-01-01T00:01:40Z")
        #expect(try Self.ids(since) == Array(seeded[100...].reversed()))
        let offset = try Self.list(server, "?limit=100&since=2026-01-01T01:01:40%2B01:00")
        #expect(try Self.ids(offset) == Array(seeded[100...].reversed()))
        let both = try Self.list(server, "?limit=100&since=2026-01-01T00:01:40Z&partner_id=part_sam")
        #expect(
            try Self.ids(both) == seeded[100...].enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reversed())
        let zed = try server.client().request(
            "GET", "/v1/clicks?partner_id=part_zed", headers: [("Authorization", "Bearer sk_acme_secret")])
        #expect(zed.isError(400, "invalid_request"), "\(zed.text)")
        #expect(zed.message == "partner_id part_zed is not a partner of this organization", "\(zed.text)")
        // A date alone is its midnight UTC: every click of 2026-01-01, none after.
        #expect(
            try Self.ids(try Self.list(server, "?limit=100&since=2026-01-01")) == Array(seeded.reversed().prefix(100)))
        #expect(try Self.ids(try Self.list(server, "?limit=100&since=2026-01-02")).isEmpty)
    }

    @Test func anOrganizationNeverSeesAnotherOnesClicks() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let seeded = try Self.seed(server)
        let other = try Self.list(server, "?limit=100", key: "sk_other_secret")
        let otherIDs = try Self.ids(other)
        #expect(otherIDs.count == 3)
        #expect(try other.json["data"]!.arrayValue!.allSatisfy { $0["organization_id"]?.stringValue == "org_other" })
        #expect(Set(otherIDs).isDisjoint(with: seeded))
        let probing = try server.client().request(
            "GET", "/v1/clicks?limit=100&partner_id=part_sam&starting_after=\(seeded.last!)",
            headers: [("Authorization", "Bearer sk_other_secret")])
        #expect(probing.isError(400, "invalid_request"), "another organization's partner is none of its own")
        let acme = try Self.ids(try Self.list(server, "?limit=100&starting_after=\(seeded[3])"))
        #expect(acme == Array(seeded[..<3].reversed()), "ZED's clicks between them stay hidden")
    }

    @Test func onlyGetIsAllowed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request(
            "POST", "/v1/clicks", headers: [("Authorization", "Bearer sk_acme_secret")])
        #expect(response.status == 405)
        #expect(try response.json["error"]?.stringValue == "method_not_allowed")
    }

    /// `user_agent` and `referer` are at most 512 and 1,024 bytes of UTF-8 as stored and listed: bytes that are not
    /// UTF-8 (each read as the 3-byte U+FFFD) and a character cut at the limit no longer make them longer. An iPhone
    /// agent and 400 bytes 0xFF were once listed as 1,264 bytes, a referer cut inside its last "é" as 1,026.
    @Test(arguments: StoreKind.allCases) func theUserAgentAndRefererStayWithinTheirLimitsInUTF8(_ kind: StoreKind)
        throws
    {
        let server = try TestServer(store: kind)
        defer { server.shutdown() }
        let agent = Agents.iPhone + " "
        let referer = "https://r.example/" + String(repeating: "a", count: 1005)
        var request = Array("GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: \(agent)".utf8)
        request += [UInt8](repeating: 0xFF, count: 400)
        request += Array("\r\nReferer: \(referer)é\r\n\r\n".utf8)
        let tap = try server.client().exchange(request)
        #expect(tap.status == 302, "\(tap.status) \(tap.text)")
        let clickID = try #require(LinkResponses.clickID(in: tap))
        #expect(try server.waitForClick(clickID))

        let page = try Self.list(server)
        let click = try #require(try page.json["data"]?.arrayValue?.first { $0["id"]?.stringValue == clickID })
        let listedAgent = try #require(click["user_agent"]?.stringValue)
        let replacements = (ClickRecord.maximumUserAgentLength - agent.utf8.count) / 3
        #expect(listedAgent == agent + String(repeating: "\u{FFFD}", count: replacements))
        #expect(listedAgent.utf8.count <= ClickRecord.maximumUserAgentLength)
        #expect(click["referer"]?.stringValue == referer, "the half of é the cut left is dropped")
        let stored = try #require(try server.storedClicks().first { $0.id == clickID })
        #expect(stored.userAgent == listedAgent && stored.referer == referer)
    }
}

extension ClickListingTests {
    /// A partner imported a moment ago is one of the organization's at once: `partner_id` is checked against the
    /// table in force and, on a miss, the store, so the node's next reload (every 0.25 s on SQLite) is not awaited
    /// and the filter is never `400` for a partner that exists. Ten partners, each asked for as soon as it is stored.
    @Test func aPartnerImportedAMomentAgoIsAPartnerAtOnce() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        for index in 0..<10 {
            try server.importConfig(
                #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":[{"id":"part_new\#(index)","name":"New \#(index)","status":"active"}]}]}]}"#
            )
            let response = try server.client().request(
                "GET", "/v1/clicks?partner_id=part_new\(index)", headers: [("Authorization", "Bearer sk_acme_secret")])
            #expect(response.status == 200, "part_new\(index): \(response.status) \(response.text)")
        }
    }
}
