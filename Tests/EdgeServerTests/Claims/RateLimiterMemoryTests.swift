import Foundation
import TestSupport
import Testing

@testable import EdgeServer

#if canImport(Glibc)
    import Glibc
#endif

/// The claim limiter's memory stays bounded whatever the number of addresses: a million distinct clients in one
/// window (half IPv4 addresses, half IPv6 /64s) fill its table once and then only replace its oldest idle entries.
@Suite struct RateLimiterMemoryTests {
    /// Runs ``RateLimiterMemoryProbe`` in a test process of its own: tests running in parallel in this process
    /// allocate all the time, which would move the resident size it measures.
    @Test func aMillionDistinctAddressesTakeBoundedMemory() throws {
        let run = try IsolatedTestRun(filter: RateLimiterMemoryProbe.name)
        let report = run.line(startingWith: "rate limiter:")
        #expect(report != nil, "the probe printed no report:\n\(run.output.suffix(4000))")
        #expect(run.succeeded, "the probe failed:\n\(run.output.suffix(4000))")
        #expect(run.ranOneTestThatPassed, "\(run.output.suffix(2000))")
        if let report { print(report) }
    }
}

/// Feeds a limiter of the default size (30 a minute, 131,072 clients) one claim from each of a million distinct
/// clients within one window, and measures the process's resident memory before, once the table is full, and after.
///
/// It runs only when a filter names it (``RateLimiterMemoryTests`` does so in a process of its own).
@Suite(.enabled(if: CommandLine.arguments.contains("RateLimiterMemoryProbe")))
struct RateLimiterMemoryProbe {
    static let name = "RateLimiterMemoryProbe"
    static let clients = 1_000_000

    /// The `index`th client: an IPv4 address for even indexes, an address in an IPv6 /64 of its own for odd ones.
    static func address(_ index: Int) -> String {
        let half = index / 2
        if index % 2 == 0 { return "10.\(half >> 16 & 255).\(half >> 8 & 255).\(half & 255)" }
        return "2001:db8:\(String(half >> 16, radix: 16)):\(String(half & 0xFFFF, radix: 16))::\(index % 4)"
    }

    @Test func aMillionDistinctClients() {
        let limiter = RateLimiter(limit: 30, window: 60)
        let before = Self.residentBytes()
        var atFull = 0
        var refused = 0
        let start = Self.now()
        var fullAt = 0.0
        for index in 0..<Self.clients {
            if limiter.acquire(Self.address(index), now: 1000 + Double(index) / 20_000) != nil { refused += 1 }
            if index == 250_000 {
                atFull = Self.residentBytes()
                fullAt = Self.now()
            }
        }
        let elapsed = Self.now() - start
        let after = Self.residentBytes()
        let tracked = limiter.trackedClients
        let perRequest = elapsed / Double(Self.clients) * 1e9
        let whenFull = (Self.now() - fullAt) / Double(Self.clients - 250_000) * 1e9
        print(
            "rate limiter: \(Self.clients) distinct clients in 50 s of clock, \(tracked) tracked, \(refused) refused; "
                + "resident memory +\(Self.mebibytes(atFull - before)) MiB at 250,000 clients, "
                + "+\(Self.mebibytes(after - before)) MiB at 1,000,000 (\(after / 1_048_576) MiB in all); "
                + "\(Int(perRequest)) ns a claim (address built and parsed), \(Int(whenFull)) ns with the table full"
                + " (debug build)"
        )
        #expect(refused == 0, "each fresh client gets its first claim")
        #expect(tracked == RateLimiter.defaultMaximumClients)
        // The table's full size: 131,072 × (40 B entry + 120 B of times + ~40 B of index): 27 MiB measured.
        #expect(after - before < 40 << 20, "grew by \(Self.mebibytes(after - before)) MiB")
        #expect(after - atFull < 4 << 20, "grew by \(Self.mebibytes(after - atFull)) MiB once full")
        // O(1) a request: scanning a shard per request would take hours here, not seconds.
        #expect(elapsed < 120, "took \(elapsed) s")
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(Double(bytes * 10 / 1_048_576) / 10)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}
