import EdgeStore
import LinkCore
import TestSupport
import Testing

/// `--dedupe-window`: a second tap of a link by the same address and User-Agent within the window gets the first
/// tap's click id, is not listed as a new click, and counts as a click but not a unique click.
@Suite struct RepeatTapTests {
    /// A tap's click id from its redirect (`nil` without one).
    static func tap(
        _ server: TestServer, _ path: String = "/a/pk_acme/SAM20", agent: String = Agents.iPhone,
        forwardedFor: String? = nil
    ) throws -> String? {
        var headers = [("User-Agent", agent)]
        if let forwardedFor { headers.append(("X-Forwarded-For", forwardedFor)) }
        let response = try server.client().request("GET", path, headers: headers)
        guard response.status == 302 else { throw TestError("a tap of \(path) got \(response.status)") }
        return LinkResponses.clickID(in: response)
    }

    /// Today's (UTC) counts of `org_acme` from `/v1/stats/clicks`, as [partner: [clicks, unique clicks]].
    static func todaysCounts(_ server: TestServer) throws -> [String: [Int]] {
        try counts(in: try server.client().request("GET", statsPath, headers: statsHeaders))
    }

    static let statsPath = "/v1/stats/clicks"
    static let statsHeaders = [("Authorization", "Bearer sk_acme_secret")]

    /// The counts of a `/v1/stats/clicks` answer, summed over its days, as [partner: [clicks, unique clicks]].
    static func counts(in response: TestSupport.HTTPResponse) throws -> [String: [Int]] {
        guard response.status == 200 else { throw TestError("stats: \(response.status) \(response.text)") }
        var counts: [String: [Int]] = [:]
        for row in try response.json["data"]?.arrayValue ?? [] {
            guard let partner = row["partner_id"]?.stringValue, let clicks = row["clicks"]?.intValue,
                let unique = row["unique_clicks"]?.intValue
            else { throw TestError("a malformed row: \(response.text)") }
            counts[partner, default: [0, 0]][0] += clicks
            counts[partner, default: [0, 0]][1] += unique
        }
        return counts
    }

    /// Waits until the counts are `expected`; then they must not move on (every tap sent was counted).
    static func waitForCounts(_ server: TestServer, _ expected: [String: [Int]]) throws -> Bool {
        try eventually(within: 3) { try todaysCounts(server) == expected }
    }

    @Test func aRepeatWithinTheWindowGetsTheFirstIdIsListedOnceAndCountsAsAClickNotAUniqueClick() throws {
        // One loop: both taps' connections land on it.
        let server = try TestServer(threads: 1)
        defer { server.shutdown() }
        let first = try #require(try Self.tap(server))
        let second = try #require(try Self.tap(server))
        #expect(second == first, "the repeat carries the first tap's click id")
        #expect(try Self.waitForCounts(server, ["part_sam": [2, 1]]))
        #expect(try server.storedClicks().map(\.id) == [first], "one listed click")
        let listed = try server.client().request(
            "GET", "/v1/clicks", headers: [("Authorization", "Bearer sk_acme_secret")])
        #expect(try listed.json["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [first])
    }

    /// The loop keys a visitor by the User-Agent as the journal keeps it (its first 512 bytes), as the ingester
    /// does: before, two taps whose User-Agents differed only past that got two click ids in their redirects while
    /// the ingester took the second for a repeat of the first (an attacker's five taps: five ids, two listed).
    @Test func userAgentsThatDifferOnlyPastWhatIsKeptAreOneVisitorEverywhere() throws {
        let server = try TestServer(threads: 1)
        defer { server.shutdown() }
        let long = Agents.iPhone + String(repeating: " padding", count: 80)
        let first = try #require(try Self.tap(server, agent: long + " one"))
        let second = try #require(try Self.tap(server, agent: long + " two"))
        #expect(second == first, "one visitor as the journal keeps it: the first tap's id")
        #expect(try Self.waitForCounts(server, ["part_sam": [2, 1]]))
        #expect(try server.storedClicks().map(\.id) == [first])
    }

    /// Two User-Agents that differ only in bytes that are not UTF-8 (both read back as U+FFFD) are two visitors to the
    /// loop and to the ingester alike: before, the ingester keyed the stored text, took the second tap for a repeat
    /// of the first and never listed the id its redirect carried.
    @Test func userAgentsThatDifferOnlyInInvalidBytesAreTwoVisitorsEverywhere() throws {
        let server = try TestServer(threads: 1)
        defer { server.shutdown() }
        func tap(endingWith byte: UInt8) throws -> String {
            let request =
                Array("GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: \(Agents.iPhone) ".utf8) + [byte]
                + Array("\r\n\r\n".utf8)
            let response = try server.client().exchange(request)
            guard response.status == 302 else { throw TestError("a tap got \(response.status)") }
            return try #require(LinkResponses.clickID(in: response))
        }
        let first = try tap(endingWith: 0xFF)
        let second = try tap(endingWith: 0xFE)
        #expect(first != second, "two visitors on the loop")
        #expect(try Self.waitForCounts(server, ["part_sam": [2, 2]]))
        #expect(Set(try server.storedClicks().map(\.id)) == [first, second])
    }

    @Test func anotherUserAgentAddressOrCodeIsANewClick() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32"], threads: 1)
        defer { server.shutdown() }
        let base = try #require(try Self.tap(server, agent: Agents.android, forwardedFor: "198.51.100.1"))
        #expect(try Self.tap(server, agent: Agents.android, forwardedFor: "198.51.100.1") == base, "a repeat")
        let taps = [
            try Self.tap(server, agent: Agents.iPhone, forwardedFor: "198.51.100.1"),
            try Self.tap(server, agent: Agents.android, forwardedFor: "198.51.100.2"),
            try Self.tap(server, agent: Agents.android, forwardedFor: "2001:db8::1"),
            try Self.tap(server, "/a/pk_acme/LEE", agent: Agents.android, forwardedFor: "198.51.100.1"),
        ]
        let ids = try taps.map { try #require($0) }
        #expect(Set(ids + [base]).count == 5, "each is a first tap with its own id")
        #expect(try Self.waitForCounts(server, ["part_sam": [5, 4], "part_lee": [1, 1]]))
        #expect(Set(try server.storedClicks().map(\.id)) == Set(ids + [base]))
    }

    @Test func aWindowOfZeroTurnsRepeatTapsOff() throws {
        let server = try TestServer(threads: 1) { $0.repeatTapWindow = 0 }
        defer { server.shutdown() }
        let first = try #require(try Self.tap(server))
        let second = try #require(try Self.tap(server))
        #expect(first != second)
        #expect(try Self.waitForCounts(server, ["part_sam": [2, 2]]))
        #expect(Set(try server.storedClicks().map(\.id)) == [first, second])
    }

    @Test func aTapAfterTheWindowIsANewClickWithANewId() throws {
        // A window of 50 ms, so that the test waits for it to pass (an event: the tap's id changes) rather than an
        // hour; the window's edges to the millisecond are RepeatTapTableTests'.
        let server = try TestServer(threads: 1) { $0.repeatTapWindow = 50 }
        defer { server.shutdown() }
        let first = try #require(try Self.tap(server))
        var taps = 1
        var later = first
        #expect(
            try eventually(within: 3) {
                later = try #require(try Self.tap(server))
                taps += 1
                return later != first
            })
        // The taps within the window (if any) were repeats of the first; the last one is a first tap.
        #expect(try Self.waitForCounts(server, ["part_sam": [taps, 2]]))
        #expect(Set(try server.storedClicks().map(\.id)) == [first, later])
    }

    @Test func tapsOnTwoLoopsAreCountedOnceAsUniqueByTheIngester() throws {
        // Two loops: connections spread over them, so some repeats reach another loop and get their own id there;
        // the ingester's table still counts every tap after the first as a repeat.
        let server = try TestServer(threads: 2)
        defer { server.shutdown() }
        var ids: Set<String> = []
        for _ in 0..<20 { ids.insert(try #require(try Self.tap(server))) }
        #expect(ids.count <= 2, "at most one first tap per loop")
        #expect(try Self.waitForCounts(server, ["part_sam": [20, 1]]))
        #expect(try server.storedClicks().count == 1)
    }

    /// RFC 9110 §5.5: the spaces and tabs around a field value are not part of it. Before, h2o's parser left them at
    /// the end of a User-Agent: the same browser was a second visitor (a new click id, a unique click) and the stored
    /// User-Agent ended in a tab. Now the classifier, the journal and the repeat-tap table see the trimmed bytes.
    @Test func aUserAgentWithSpacesAndTabsAroundItIsTheSameVisitorStoredWithoutThem() throws {
        let server = try TestServer(threads: 1)
        defer { server.shutdown() }
        let request = Array(
            "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: \t \(Agents.iPhone) \t \r\n\r\n".utf8)
        let padded = try server.client().exchange(request)
        #expect(padded.status == 302)
        let first = try #require(LinkResponses.clickID(in: padded))
        #expect(try Self.tap(server) == first, "the same visitor: the first tap's id")
        #expect(try Self.waitForCounts(server, ["part_sam": [2, 1]]))
        let stored = try server.storedClicks()
        #expect(stored.map(\.id) == [first])
        #expect(stored.map(\.userAgent) == [Agents.iPhone], "stored without the whitespace")
        #expect(stored.map(\.platform) == [.ios])
    }

    /// A rule anchored at the User-Agent's end (`^viber$`) matches it with the whitespace after it: a preview, not a
    /// bot sent on with an empty click id as before.
    @Test func theClassifierSeesTheUserAgentWithoutTheWhitespaceAfterIt() throws {
        let server = try TestServer(threads: 1)
        defer { server.shutdown() }
        let request = Array("GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: Viber\t \r\n\r\n".utf8)
        let response = try server.client().exchange(request)
        #expect(response.status == 200, "\(response.status) \(response.header("location") ?? "")")
        #expect(response.text.contains(#"<meta property="og:title""#))
    }
}
