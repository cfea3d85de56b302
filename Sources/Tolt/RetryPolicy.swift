import Foundation

/// When a failed claim is tried again: network failures, `5xx` and `429`, with bounded exponential backoff and
/// jitter, honouring the edge's `Retry-After`. Other refusals (`4xx`) are final and never retried.
///
/// Retrying a claim is always safe: the edge decides first-code-wins, so a claim that reached it before the
/// connection broke answers `already_claimed` the second time and changes nothing.
package struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included.
    package var maximumAttempts: Int
    /// The wait after the first failure, in seconds; it doubles after each further one.
    package var initialDelay: TimeInterval
    /// The longest backoff wait, in seconds.
    package var maximumDelay: TimeInterval
    /// The longest `Retry-After` the SDK waits out by itself, in seconds; a longer one ends the claim with the
    /// error (``ToltError/retryAfter`` says how long), so an app is never kept waiting for minutes unawares.
    package var maximumRetryAfter: TimeInterval

    /// A policy with these bounds.
    package init(
        maximumAttempts: Int, initialDelay: TimeInterval, maximumDelay: TimeInterval,
        maximumRetryAfter: TimeInterval
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// What apps get: 4 attempts, waiting about 1, 2 and 4 s between them (each between half and all of that),
    /// and a `Retry-After` of up to 60 s (the edge's claim limit counts a minute).
    package static let standard = RetryPolicy(
        maximumAttempts: 4, initialDelay: 1, maximumDelay: 8, maximumRetryAfter: 60)

    /// How long to wait before trying again after `error` ended attempt number `attempt` (1 for the first), or
    /// `nil` to give up and throw it. `jitter` is a random number in `0..<1`: the backoff is scaled by
    /// `0.5 + jitter / 2`, so apps that failed together do not all come back at once.
    package func delay(after error: ToltError, attempt: Int, jitter: Double) -> TimeInterval? {
        guard error.isTransient, attempt < maximumAttempts else { return nil }
        let exponent = Double(min(max(attempt - 1, 0), 62))
        let backoff = min(maximumDelay, initialDelay * pow(2, exponent)) * (0.5 + min(max(jitter, 0), 1) / 2)
        guard let retryAfter = error.retryAfter else { return backoff }
        return retryAfter <= maximumRetryAfter ? max(retryAfter, backoff) : nil
    }
}
