import Testing

@testable import EdgeServer

/// The failed-authentication limit's window on a synthetic clock: ``RateLimiter/wait(_:now:)`` asks without counting,
/// and only failures (``RateLimiter/acquire(_:now:)``) count.
@Suite struct AuthenticationLimiterUnitTests {
    static let client = ClientNetwork(address: "192.0.2.1")

    @Test func askingCountsNothingAndTheWaitEndsWhenTheOldestFailureLeavesTheWindow() {
        let limiter = RateLimiter(limit: 10, window: 60)
        for _ in 0..<1_000 { #expect(limiter.wait(Self.client, now: 1000) == nil) }
        for second in 0..<9 { #expect(limiter.acquire(Self.client, now: 1000 + Double(second)) == nil) }
        #expect(limiter.wait(Self.client, now: 1009) == nil, "9 failures leave room")
        #expect(limiter.acquire(Self.client, now: 1009) == nil)
        // The oldest failure (t=1000) leaves the window at t=1060.
        #expect(limiter.wait(Self.client, now: 1009) == 51)
        #expect(limiter.wait(Self.client, now: 1059.5) == 1)
        #expect(limiter.wait(Self.client, now: 1060) == nil)
        // One failure more at 1060 fills it again, until the next oldest (t=1001) leaves.
        #expect(limiter.acquire(Self.client, now: 1060) == nil)
        #expect(limiter.wait(Self.client, now: 1060.5) == 1)
        #expect(limiter.wait(Self.client, now: 1061) == nil)
        // Long after, nothing is left of them.
        #expect(limiter.wait(Self.client, now: 100_000) == nil)
        #expect(limiter.wait(ClientNetwork(address: "192.0.2.2"), now: 1060.5) == nil, "another client has room")
    }

    @Test func anIPv6ClientIsItsSlash64() {
        let limiter = RateLimiter(limit: 10, window: 60)
        for index in 0..<10 { _ = limiter.acquire("2001:db8:0:1::\(index + 1)", now: 0) }
        #expect(limiter.wait(ClientNetwork(address: "2001:db8:0:1:ffff::9"), now: 1) == 59)
        #expect(limiter.wait(ClientNetwork(address: "2001:db8:0:2::1"), now: 1) == nil)
    }

    /// When every client a shard tracks is limited, a new client's failure cannot be counted: it is refused as its
    /// first failure would be, rather than let through unlimited (the table filled with 131,072 limited networks made
    /// every fresh one free to guess).
    @Test func aFullTableOfLimitedClientsFailsClosedForNewOnes() {
        let limiter = RateLimiter(limit: 2, window: 60, maximumClients: 4, shardCount: 1)
        for index in 0..<4 {
            let client = ClientNetwork(address: "192.0.2.\(index + 1)")
            #expect(limiter.acquire(client, now: 100) == nil && limiter.acquire(client, now: 100) == nil)
        }
        let fresh = ClientNetwork(address: "198.51.100.7")
        #expect(limiter.wait(fresh, now: 110) == 50)
        #expect(limiter.acquire(fresh, now: 110) == 50, "and its failure is not counted")
        // Once the window has passed, the fresh client takes a freed place.
        #expect(limiter.wait(fresh, now: 161) == nil)
        // A table with room never refuses a client it does not track.
        #expect(RateLimiter(limit: 2, window: 60).wait(fresh, now: 110) == nil)
    }

    /// An organization's webhook budget is the network's own, scoped: apart from the network's other budgets and
    /// from other organizations', the same for every spelling of the address.
    @Test func aScopedNetworkIsItsOwnClient() {
        let limiter = RateLimiter(limit: 2, window: 60)
        let acme = Self.client.scoped(to: "org_acme")
        _ = limiter.acquire(acme, now: 0)
        _ = limiter.acquire(acme, now: 0)
        #expect(limiter.wait(ClientNetwork(address: "::ffff:192.0.2.1").scoped(to: "org_acme"), now: 1) == 59)
        #expect(limiter.wait(Self.client.scoped(to: "org_other"), now: 1) == nil)
        #expect(limiter.wait(Self.client, now: 1) == nil)
    }
}
