import Testing

@testable import EdgeServer

/// The claim limiter fails closed: what one client is counted as (an IPv4 address however spelled, an IPv6 /64),
/// and what a full table does (the oldest idle client makes room; a limited one stays until its window passes; a
/// table of limited clients refuses new ones). On a synthetic clock, without sockets.
@Suite struct RateLimiterEvictionTests {
    /// The `index`th of 16 million addresses in 10.0.0.0/8, none of them a client the tests limit.
    static func fresh(_ index: Int) -> String { "10.\(index >> 16 & 255).\(index >> 8 & 255).\(index & 255)" }

    /// Sends one request from each of `count` fresh addresses, spread over one second from `start`; returns how
    /// many were refused.
    static func flood(_ limiter: RateLimiter, count: Int, from start: Double) -> Int {
        (0..<count).count { limiter.acquire(fresh($0), now: start + Double($0) / Double(count)) != nil }
    }

    @Test func everySpellingOfOneIPv4AddressSharesItsBudget() {
        let limiter = RateLimiter(limit: 30, window: 60)
        let spellings = [
            "203.0.113.7", "::ffff:203.0.113.7", "::FFFF:CB00:7107", "0:0:0:0:0:ffff:cb00:7107",
            "0000:0000:0000:0000:0000:FFFF:203.0.113.7",
        ]
        for spelling in spellings {
            for _ in 0..<6 { #expect(limiter.acquire(spelling, now: 1) == nil, "\(spelling)") }
        }
        for spelling in spellings { #expect(limiter.acquire(spelling, now: 2) == 59, "\(spelling)") }
        #expect(limiter.acquire("203.0.113.8", now: 2) == nil)
        #expect(limiter.acquire("::ffff:203.0.113.9", now: 2) == nil)
    }

    @Test func everySpellingOfOneIPv6AddressSharesItsBudget() {
        let limiter = RateLimiter(limit: 30, window: 60)
        let spellings = ["2001:db8::1", "2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8:0:0::1", "2001:DB8::0:1"]
        for index in 0..<30 { #expect(limiter.acquire(spellings[index % spellings.count], now: 0) == nil) }
        for spelling in spellings { #expect(limiter.acquire(spelling, now: 1) == 59, "\(spelling)") }
    }

    /// One host holds a whole /64 (privacy addresses rotate through it): 30 claims a minute per /64, not per address.
    @Test func anIPv6HostIsCountedByItsSlashSixtyFour() {
        let limiter = RateLimiter(limit: 30, window: 60)
        for index in 1...30 {
            let address = "2001:db8:1:2:\(String(index, radix: 16)):\(String(index * 7919 & 0xFFFF, radix: 16))::1"
            #expect(limiter.acquire(address, now: 0) == nil, "\(address)")
        }
        for sameNetwork in ["2001:db8:1:2::", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2:abcd::9"] {
            #expect(limiter.acquire(sameNetwork, now: 1) == 59, "\(sameNetwork)")
        }
        for otherNetwork in ["2001:db8:1:3::1", "2001:db8:1:1:ffff:ffff:ffff:ffff", "2001:db9:1:2::1"] {
            #expect(limiter.acquire(otherNetwork, now: 1) == nil, "\(otherNetwork)")
        }
    }

    /// The engine always names an address; should it not (`""`), or should text that is no address get here, those
    /// requests share one budget rather than each getting a fresh one.
    @Test func addressesThatDoNotParseShareOneBudget() {
        let limiter = RateLimiter(limit: 3, window: 60)
        for text in ["", "not an address", "203.0.113.7:443"] { #expect(limiter.acquire(text, now: 0) == nil) }
        for text in ["[2001:db8::1]", "fe80::1%eth0", "203.0.113.07", ""] {
            #expect(limiter.acquire(text, now: 0) == 60)
        }
    }

    /// Before: a full table answered new addresses without tracking them, so after ~100,000 fresh addresses in a
    /// minute the limit was off for every new client.
    @Test func aFloodOfFreshAddressesDoesNotSwitchLimitingOffForNewClients() {
        let limiter = RateLimiter(limit: 30, window: 60, maximumClients: 64, shardCount: 16)
        #expect(Self.flood(limiter, count: 10_000, from: 0) == 0, "every fresh address gets its first claim")
        #expect(limiter.trackedClients <= 64)
        let late = "192.0.2.7"
        for _ in 0..<30 { #expect(limiter.acquire(late, now: 2) == nil) }
        #expect(limiter.acquire(late, now: 3) == 59, "a client first seen after the flood is limited as well")
    }

    @Test func aFloodOfFreshAddressesDoesNotFreeALimitedClient() {
        let limiter = RateLimiter(limit: 30, window: 60, maximumClients: 64, shardCount: 16)
        let hammering = "192.0.2.1"
        for _ in 0..<30 { #expect(limiter.acquire(hammering, now: 0) == nil) }
        for second in 1...5 {
            #expect(Self.flood(limiter, count: 20_000, from: Double(second)) == 0)
            #expect(limiter.acquire(hammering, now: Double(second) + 1) == 59 - second)
        }
        #expect(limiter.acquire(hammering, now: 60) == nil, "and its window ends when it would have")
    }

    /// A new client takes the place of the least recently seen client that still has room in its window.
    @Test func aNewClientTakesThePlaceOfTheLeastRecentlySeen() {
        let limiter = RateLimiter(limit: 3, window: 60, maximumClients: 3, shardCount: 1)
        let (a, b, c, d) = ("192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4")
        #expect(limiter.acquire(a, now: 0) == nil)
        #expect(limiter.acquire(b, now: 1) == nil)
        #expect(limiter.acquire(c, now: 2) == nil)
        #expect(limiter.acquire(a, now: 3) == nil)
        // Full: d takes b's place (b was seen at 1, c at 2, a at 3).
        #expect(limiter.acquire(d, now: 4) == nil)
        #expect(limiter.trackedClients == 3)
        // a kept its count: one more, then limited until its first request (at 0) leaves the window.
        #expect(limiter.acquire(a, now: 5) == nil)
        #expect(limiter.acquire(a, now: 5) == 55)
        // b starts afresh (it takes c's place, a being limited): three claims, not two.
        for _ in 0..<3 { #expect(limiter.acquire(b, now: 6) == nil) }
        #expect(limiter.acquire(b, now: 6) == 60)
        // a is still limited, though two clients came after it.
        #expect(limiter.acquire(a, now: 7) == 53)
    }

    /// When every tracked client is limited, a new one is refused until the first of them is freed by time.
    @Test func aTableOfLimitedClientsRefusesNewOnesUntilAWindowPasses() {
        let limiter = RateLimiter(limit: 2, window: 60, maximumClients: 4, shardCount: 1)
        for client in 1...4 {
            for _ in 0..<2 { #expect(limiter.acquire("192.0.2.\(client)", now: Double(client)) == nil) }
        }
        #expect(limiter.acquire("198.51.100.1", now: 10) == 51, "192.0.2.1 leaves its window at 61")
        #expect(limiter.acquire("2001:db8::1", now: 10) == 51)
        #expect(limiter.acquire("192.0.2.1", now: 10) == 51)
        #expect(limiter.acquire("198.51.100.1", now: 61) == nil, "it takes 192.0.2.1's place")
        #expect(limiter.acquire("198.51.100.1", now: 61) == nil, "and is limited in turn")
        #expect(limiter.acquire("192.0.2.2", now: 61) == 1, "the others stay limited")
        #expect(limiter.acquire("198.51.100.2", now: 61.5) == 1)
        #expect(limiter.acquire("198.51.100.2", now: 62) == nil)
        #expect(limiter.trackedClients == 4)
    }

    /// Workers read the clock before they take the shard's lock, so a request may arrive "earlier" than the last
    /// one counted: it is counted at the later time, not taken for one from a window ago.
    @Test func aClockReadJustBeforeTheLastRequestCountsAsNow() {
        let limiter = RateLimiter(limit: 2, window: 60)
        #expect(limiter.acquire("192.0.2.1", now: 100.25) == nil)
        #expect(limiter.acquire("192.0.2.1", now: 100.125) == nil)
        #expect(limiter.acquire("192.0.2.1", now: 100) == 60)
    }
}
