import Foundation
import TestSupport
import Testing

@testable import EdgeServer

/// 429 `rate_limited` above 30 claims a minute from one client IP, over a real socket; the client IP behind
/// trusted and untrusted proxies.
@Suite struct ClaimRateLimitTests {
    /// A claim that changes nothing (an unknown code), so only the limiter is exercised.
    static let cheapClaim = ClaimBody.make(user: "u1", code: "NOPE")

    /// Sends `count` claims that the limiter must let through.
    static func spend(_ count: Int, _ client: HTTPClient, forwardedFor: String? = nil) throws {
        let headers = forwardedFor.map { [("X-Forwarded-For", $0)] } ?? []
        for index in 0..<count {
            let response = try client.claim(cheapClaim, headers: headers)
            #expect(response.isError(404, "unknown_code"), "request \(index + 1): \(response.status) \(response.text)")
        }
    }

    static func isLimited(_ response: TestSupport.HTTPResponse) -> Bool {
        guard response.isError(429, "rate_limited"), let wait = response.header("retry-after").flatMap(Int.init)
        else { return false }
        return (1...60).contains(wait) && response.header("access-control-allow-origin") == "*"
    }

    @Test func the31stClaimInAMinuteIs429WithRetryAfter() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        try Self.spend(30, client)
        let refused = try client.claim(Self.cheapClaim)
        #expect(Self.isLimited(refused), "\(refused.status) \(refused.header("retry-after") ?? "-") \(refused.text)")
        #expect(refused.message.contains("30"))
        // A valid claim is refused as well and stores nothing; so is a 32nd on a new connection.
        #expect(Self.isLimited(try client.claim(ClaimBody.recent(user: "late"))))
        #expect(Self.isLimited(try server.client().claim(Self.cheapClaim)))
        #expect(try client.customers().isEmpty)
    }

    @Test func onlyClaimsAreLimited() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        try Self.spend(30, client)
        #expect(Self.isLimited(try client.claim(Self.cheapClaim)))
        for index in 0..<40 {
            let link = try client.request("GET", "/a/pk_acme/LEE", headers: [("User-Agent", Agents.desktop)])
            #expect(link.status == 200, "link \(index): \(link.status)")
        }
        #expect(try client.request("GET", "/healthz").status == 200)
        #expect(try client.customerPage()["data"] != nil)
    }

    @Test func anUntrustedPeersForwardedForIsIgnored() throws {
        let server = try TestServer()  // no trusted proxy
        defer { server.shutdown() }
        let client = server.client()
        for index in 0..<30 {
            let response = try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", "203.0.113.\(index)")])
            #expect(response.status == 404, "request \(index + 1): \(response.status)")
        }
        // Every forwarded address shares the socket peer's budget.
        for forwarded in ["203.0.113.200", "198.51.100.1, 203.0.113.7", "2001:db8::1"] {
            #expect(Self.isLimited(try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", forwarded)])))
        }
        #expect(Self.isLimited(try client.claim(Self.cheapClaim)))
    }

    @Test func aTrustedPeersForwardedForGivesEachClientItsOwnBudget() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32", "10.0.0.0/8"])
        defer { server.shutdown() }
        let client = server.client()
        try Self.spend(30, client, forwardedFor: "9.9.9.9")
        // 9.9.9.9 is spent, however the chain in front of the trusted proxies reads.
        for chain in ["9.9.9.9", "9.9.9.9, 10.0.0.1", "9.9.9.9,10.1.2.3, 10.0.0.1", "8.8.8.8, 9.9.9.9, 10.0.0.1"] {
            let response = try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", chain)])
            #expect(Self.isLimited(response), "\(chain): \(response.status)")
        }
        // Other clients are not: the hop just before the first trusted one is the client.
        for chain in ["1.2.3.4", "9.9.9.9, 1.2.3.4", "9.9.9.9, 1.2.3.4, 10.0.0.1", "10.9.9.9, 2001:db8::9"] {
            let response = try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", chain)])
            #expect(response.isError(404, "unknown_code"), "\(chain): \(response.status)")
        }
        // Without the header the trusted peer is the client, with a budget of its own.
        try Self.spend(30, client)
        #expect(Self.isLimited(try client.claim(Self.cheapClaim)))
        #expect(Self.isLimited(try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", "127.0.0.1")])))
    }

    /// A proxy that adds its hop as a line of its own (HAProxy's `option forwardfor`) after the client's: the lines are
    /// one list (RFC 9110 5.3). Before, only the first line was read, the client's own word, so each claim could name
    /// a fresh address (an attacker's 40 claims all got 200), and a click's stored address was the client's choice.
    @Test func forwardedForLinesAreReadAsOneList() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32"]) { $0.ipStorage = .full }
        defer { server.shutdown() }
        let client = server.client()
        for index in 0..<30 {
            let headers = [("X-Forwarded-For", "203.0.\(index).9"), ("X-Forwarded-For", "7.7.7.7")]
            let response = try client.claim(Self.cheapClaim, headers: headers)
            #expect(response.isError(404, "unknown_code"), "claim \(index + 1): \(response.status)")
        }
        let limited = try client.claim(
            Self.cheapClaim, headers: [("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-For", "7.7.7.7")])
        #expect(Self.isLimited(limited), "7.7.7.7, the hop the proxy added, is the client: \(limited.status)")
        // A click stores the proxy's hop too, not the first line's.
        let tap = try client.request(
            "GET", "/a/pk_acme/SAM20",
            headers: [("User-Agent", Agents.iPhone), ("X-Forwarded-For", "6.6.6.6"), ("X-Forwarded-For", "5.5.5.5")])
        let click = try #require(LinkResponses.clickID(in: tap))
        #expect(try server.waitForClick(click, within: 5))
        #expect(try server.storedClicks().first { $0.id == click }?.ip == "5.5.5.5")
        // Many lines (over HTTP/2 a header block can repeat one value in a byte each; HTTP/1.1 takes up to 100 header
        // lines): the last ones are read, within bounds.
        let many = (0..<90).map { ("X-Forwarded-For", "203.0.113.\($0 % 250)") } + [("X-Forwarded-For", "4.4.4.4")]
        let crowded = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)] + many)
        let crowdedClick = try #require(LinkResponses.clickID(in: crowded))
        #expect(try server.waitForClick(crowdedClick, within: 5))
        #expect(try server.storedClicks().first { $0.id == crowdedClick }?.ip == "4.4.4.4")
    }

    /// Before: each IPv6 address had its own budget, though one host holds a whole /64.
    @Test func anIPv6SlashSixtyFourSharesOneBudget() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32"])
        defer { server.shutdown() }
        let client = server.client()
        for index in 1...30 {
            try Self.spend(1, client, forwardedFor: "2001:db8:77:1:\(String(index, radix: 16))::\(index)")
        }
        for sameNetwork in ["2001:db8:77:1::1", "2001:db8:77:1:ffff:ffff:ffff:ffff", "2001:DB8:77:1:0:0:0:99"] {
            let response = try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", sameNetwork)])
            #expect(Self.isLimited(response), "\(sameNetwork): \(response.status)")
        }
        try Self.spend(1, client, forwardedFor: "2001:db8:77:2::1")
        try Self.spend(1, client)
    }

    /// Before: `::ffff:203.0.113.7` and `203.0.113.7` were two budgets, so a client behind a proxy that writes both
    /// forms (or a dual-stack peer) got 60 claims a minute.
    @Test func everySpellingOfAnIPv4ClientSharesItsBudget() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32"])
        defer { server.shutdown() }
        let client = server.client()
        let spellings = ["203.0.113.7", "::ffff:203.0.113.7", "::FFFF:CB00:7107", "0:0:0:0:0:ffff:203.0.113.7"]
        for index in 0..<30 { try Self.spend(1, client, forwardedFor: spellings[index % spellings.count]) }
        for spelling in spellings {
            let response = try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", spelling)])
            #expect(Self.isLimited(response), "\(spelling): \(response.status)")
        }
        try Self.spend(1, client, forwardedFor: "::ffff:203.0.113.8")
    }

    /// Before: once the table was full of clients seen within the minute, new addresses were answered untracked, so
    /// a flood of fresh addresses switched the limit off for every new client. Here the table holds 64 clients and
    /// 2,000 fresh addresses go through it: the limited client stays limited and a client that comes after the
    /// flood is limited at its 31st claim.
    @Test func aFloodOfFreshAddressesNeitherFreesALimitedClientNorSwitchesLimitingOff() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32"]) { $0.claimRateLimitClients = 64 }
        defer { server.shutdown() }
        let client = server.client()
        try Self.spend(30, client, forwardedFor: "9.9.9.9")
        #expect(Self.isLimited(try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", "9.9.9.9")])))
        var refused = 0
        for index in 0..<2_000 {
            let address = index % 2 == 0 ? "10.0.\(index >> 8).\(index & 255)" : "2001:db8:f:\(index)::1"
            let response = try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", address)])
            if response.status != 404 { refused += 1 }
        }
        #expect(refused == 0, "each fresh address got its first claim")
        #expect(Self.isLimited(try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", "9.9.9.9")])))
        try Self.spend(30, client, forwardedFor: "203.0.113.99")
        #expect(Self.isLimited(try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", "203.0.113.99")])))
    }

    /// Before: a hop written with the client's port (`203.0.113.7:51234`, as some load balancers write it) or an
    /// IPv6 hop in brackets did not parse, so every client behind the proxy was the proxy itself, with one budget
    /// for them all. Now the address alone is the client, whatever the port.
    @Test func aHopWithAPortOrBracketsIsItsAddress() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32", "10.0.0.0/8"])
        defer { server.shutdown() }
        let client = server.client()
        // 203.0.113.7 spends its budget from 30 ports; the same address without a port is spent too.
        for index in 0..<30 { try Self.spend(1, client, forwardedFor: "203.0.113.7:\(40_000 + index), 10.0.0.1") }
        #expect(Self.isLimited(try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", "203.0.113.7")])))
        // Other clients behind the same proxy, and the proxy itself, keep their own budgets.
        for hop in ["203.0.113.8:40000", "[2001:db8:1::7]", "[2001:db8:2::7]:443", "2001:db8:3::7", "127.0.0.1:9"] {
            try Self.spend(1, client, forwardedFor: hop)
        }
        try Self.spend(1, client)
        // A bracketed IPv6 client's budget is its /64, with or without brackets and a port.
        for index in 0..<29 { try Self.spend(1, client, forwardedFor: "[2001:db8:1::\(index + 100)]:\(index + 1)") }
        #expect(Self.isLimited(try client.claim(Self.cheapClaim, headers: [("X-Forwarded-For", "2001:db8:1::9")])))
    }

    /// The click stores the client's address without the port the proxy wrote.
    @Test func aClickThroughAProxyThatWritesPortsStoresTheAddress() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32", "10.0.0.0/8"]) { $0.ipStorage = .full }
        defer { server.shutdown() }
        for (hops, stored) in [
            ("8.8.8.8:1, 9.9.9.9:51234, 10.0.0.1:443", "9.9.9.9"), ("[2001:db8::5]:8080, 10.0.0.1", "2001:db8::5"),
        ] {
            let response = try server.client().request(
                "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone), ("X-Forwarded-For", hops)])
            let click = try #require(LinkResponses.clickID(in: response))
            #expect(try server.waitForClick(click, within: 5))
            #expect(try server.storedClicks().first { $0.id == click }?.ip == stored, "\(hops)")
        }
    }

    @Test func clicksRecordTheSameClientIP() throws {
        // Whole addresses stored (`--ip-storage full`), so the stored one shows which hop was taken.
        let server = try TestServer(trustedProxies: ["127.0.0.1/32", "10.0.0.0/8"]) { $0.ipStorage = .full }
        defer { server.shutdown() }
        let response = try server.client().request(
            "GET", "/a/pk_acme/SAM20",
            headers: [("User-Agent", Agents.iPhone), ("X-Forwarded-For", "8.8.8.8, 9.9.9.9, 10.0.0.1")])
        let click = try #require(LinkResponses.clickID(in: response))
        #expect(try server.waitForClick(click, within: 5))
        #expect(try server.storedClicks().first { $0.id == click }?.ip == "9.9.9.9")
    }
}
