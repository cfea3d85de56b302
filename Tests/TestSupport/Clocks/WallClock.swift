import EdgeStore
import LinkCore

/// Milliseconds since 1970 on the real-time clock (EdgeStore's ``Clock``): the time the server stamps clicks and
/// claims with, so tests can build `first_seen_at` values relative to the server's now.
package enum WallClock {
    package static func milliseconds() -> Int64 { Clock.epochMilliseconds() }

    /// `first_seen_at` text (ISO 8601, as `Timestamp.format` writes it) for `offset` milliseconds from now.
    package static func iso(offset: Int64) -> String { Timestamp.format(milliseconds() + offset) }
}
