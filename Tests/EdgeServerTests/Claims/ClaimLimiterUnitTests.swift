import Testing

@testable import EdgeServer

/// The claim limiter's sliding window and the trusted-proxy rule, on a synthetic clock and with no socket.
@Suite struct ClaimLimiterUnitTests {
    @Test func thirtyAMinuteThenAWaitUntilTheOldestLeavesTheWindow() {
        let limiter = RateLimiter(limit: 30, window: 60)
        for second in 0..<30 { #expect(limiter.acquire("192.0.2.1", now: 1000 + Double(second)) == nil) }
        // The oldest request (t=1000) leaves the window at t=1060.
        #expect(limiter.acquire("192.0.2.1", now: 1030) == 30)
        #expect(limiter.acquire("192.0.2.1", now: 1059.5) == 1)
        #expect(limiter.acquire("192.0.2.1", now: 1060) == nil)
        #expect(limiter.acquire("192.0.2.1", now: 1060.5) == 1)
        #expect(limiter.acquire("192.0.2.1", now: 1061) == nil)
    }

    @Test func aSlidingWindowNotACalendarMinute() {
        let limiter = RateLimiter(limit: 30, window: 60)
        // A burst at the end of one minute...
        for index in 0..<30 { #expect(limiter.acquire("192.0.2.1", now: 59 + Double(index) / 100) == nil) }
        // ...is still counted at the start of the next one.
        #expect(limiter.acquire("192.0.2.1", now: 61) != nil)
        #expect(limiter.acquire("192.0.2.1", now: 118.9) != nil)
        #expect(limiter.acquire("192.0.2.1", now: 119.5) == nil)
    }

    @Test func refusedRequestsDoNotExtendTheWait() {
        let limiter = RateLimiter(limit: 30, window: 60)
        for _ in 0..<30 { #expect(limiter.acquire("192.0.2.1", now: 0) == nil) }
        for second in 1..<60 { #expect(limiter.acquire("192.0.2.1", now: Double(second)) != nil) }
        #expect(limiter.acquire("192.0.2.1", now: 60.01) == nil)
    }

    @Test func clientsHaveSeparateBudgets() {
        let limiter = RateLimiter(limit: 30, window: 60)
        for second in 0..<30 {
            for client in ["9.9.9.9", "9.9.9.8", "2001:db8::1"] {
                #expect(limiter.acquire(client, now: Double(second)) == nil)
            }
        }
        for client in ["9.9.9.9", "9.9.9.8", "2001:db8::1"] { #expect(limiter.acquire(client, now: 30) == 30) }
        #expect(limiter.acquire("9.9.9.7", now: 30) == nil)
    }

    @Test func aFloodOfNewAddressesIsServedInBoundedRoom() {
        // Room for 64 clients in 16 shards: 2,000 new addresses in one second must each get their first request.
        let limiter = RateLimiter(limit: 30, window: 60, maximumClients: 64, shardCount: 16)
        for client in 0..<2_000 { #expect(limiter.acquire("10.\(client / 256).\(client % 256).1", now: 5) == nil) }
        #expect(limiter.trackedClients == 64)
        // Clients seen before the flood, idle for a window, start afresh.
        let quiet = RateLimiter(limit: 2, window: 60, maximumClients: 16, shardCount: 1)
        let a = "192.0.2.1"
        #expect(quiet.acquire(a, now: 0) == nil && quiet.acquire(a, now: 0) == nil && quiet.acquire(a, now: 0) != nil)
        for client in 0..<100 { #expect(quiet.acquire("10.1.0.\(client)", now: 61) == nil) }
        #expect(quiet.acquire(a, now: 61) == nil)
    }

    @Test func theHopJustBeforeTheFirstTrustedOne() throws {
        let proxies = try TrustedProxies(["127.0.0.1/32", "10.0.0.0/8", "::1", "fd00::/8"])
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "9.9.9.9, 10.0.0.1") == "9.9.9.9")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "8.8.8.8, 9.9.9.9, 10.0.0.1") == "9.9.9.9")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "9.9.9.9") == "9.9.9.9")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: " 9.9.9.9 ,\t10.0.0.1 ") == "9.9.9.9")
        #expect(proxies.clientAddress(peer: "::1", forwardedFor: "2001:db8::5, fd00::1") == "2001:db8::5")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
        // Every hop trusted: the leftmost.
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "10.0.0.2, 10.0.0.1") == "10.0.0.2")
        // A malformed hop ends the walk at the last address that parsed.
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "9.9.9.9, nonsense, 10.0.0.1") == "10.0.0.1")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "nonsense") == "127.0.0.1")
    }

    /// Hops with the client's port, and bracketed IPv6 hops with or without one (RFC 7239 §6's forms), are their
    /// address; a bare IPv6 address is taken as it is, and anything else still ends the walk.
    @Test func aHopsPortAndBracketsAreDropped() throws {
        let proxies = try TrustedProxies(["127.0.0.1/32", "10.0.0.0/8", "fd00::/8"])
        for (hops, client) in [
            ("9.9.9.9:51234", "9.9.9.9"), ("9.9.9.9:1, 10.0.0.1:443", "9.9.9.9"), ("[2001:db8::5]", "2001:db8::5"),
            ("[2001:db8::5]:8080, [fd00::1]:443", "2001:db8::5"), ("2001:db8::5, fd00::1", "2001:db8::5"),
            ("::ffff:9.9.9.9", "::ffff:9.9.9.9"), ("8.8.8.8, 10.0.0.2:80, 10.0.0.1", "8.8.8.8"),
        ] {
            #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: hops) == client, "\(hops)")
        }
        for malformed in [
            "9.9.9.9:", "9.9.9.9:123456", "9.9.9.9:x", "[2001:db8::5", "[2001:db8::5]x", "[2001:db8::5]:",
            "[nonsense]:80", "9.9.9.9:80:80",
        ] {
            #expect(
                proxies.clientAddress(peer: "127.0.0.1", forwardedFor: malformed + ", 10.0.0.1") == "10.0.0.1",
                "\(malformed)")
        }
    }

    @Test func anUntrustedPeerIsTheClient() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "9.9.9.9") == "127.0.0.1")
        #expect(proxies.clientAddress(peer: "11.0.0.1", forwardedFor: "9.9.9.9, 10.0.0.1") == "11.0.0.1")
        #expect(TrustedProxies().clientAddress(peer: "10.0.0.1", forwardedFor: "9.9.9.9") == "10.0.0.1")
    }

    @Test func cidrsAreValidated() {
        for bad in [
            "", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0/8", "::1/129", "10.0.0.0/8/8", "example.com", "10.0.0.0/x",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try TrustedProxies([bad]) }
        }
        #expect(throws: Never.self) { try TrustedProxies(["0.0.0.0/0", "192.168.1.1", "::/0", "2001:db8::/32"]) }
    }

    @Test func prefixesMatchBitByBit() throws {
        let proxies = try TrustedProxies(["192.168.4.0/22"])
        #expect(proxies.clientAddress(peer: "192.168.7.255", forwardedFor: "9.9.9.9") == "9.9.9.9")
        #expect(proxies.clientAddress(peer: "192.168.4.0", forwardedFor: "9.9.9.9") == "9.9.9.9")
        #expect(proxies.clientAddress(peer: "192.168.8.0", forwardedFor: "9.9.9.9") == "192.168.8.0")
        #expect(proxies.clientAddress(peer: "192.168.3.255", forwardedFor: "9.9.9.9") == "192.168.3.255")
        // An IPv4 network does not swallow IPv6 addresses.
        #expect(proxies.clientAddress(peer: "::c0a8:401", forwardedFor: "9.9.9.9") == "::c0a8:401")
    }
}
