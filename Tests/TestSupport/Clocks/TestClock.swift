import EdgeStore

/// Seconds on the monotonic clock (EdgeStore's ``Clock``), for deadlines and timeouts: unlike the wall clock it
/// never jumps.
package enum TestClock {
    package static func now() -> Double { Clock.monotonicSeconds() }
}
