import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// Milliseconds since 1970 on the real-time clock: the time the server stamps clicks and claims with, so tests
/// can build `first_seen_at` values relative to the server's now.
package enum WallClock {
    package static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec / 1_000_000)
    }

    /// `first_seen_at` text (ISO 8601, as `Timestamp.format` writes it) for `offset` milliseconds from now.
    package static func iso(offset: Int64) -> String { Timestamp.format(milliseconds() + offset) }
}
