#if canImport(Glibc)
    import Glibc
#endif

/// The process's two clocks, read through `clock_gettime` without Foundation, so that every target reads time
/// the same way and none carries its own copy of the conversion.
public enum Clock {
    /// Wall-clock time in milliseconds since 1970 (`CLOCK_REALTIME`): for times that are stored or shown. It can
    /// jump when the system clock is set, so never measure a duration with it.
    public static func epochMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec / 1_000_000)
    }

    /// Seconds since an arbitrary fixed point (`CLOCK_MONOTONIC`): for durations and rates, since it never goes
    /// back when the system clock is set. Only differences between two readings mean anything.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Nanoseconds since the same fixed point as ``monotonicSeconds()``: for durations of microseconds (a request's
    /// time in the server), where a `Double` of seconds would round and cost a conversion per reading.
    @inline(__always)
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}
