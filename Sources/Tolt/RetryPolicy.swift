import Foundation

/// When a failed claim is tried again: network failures, `5xx` and `429`, with bounded exponential backoff and
/// jitter, honouring the edge's `Retry-After`, within a deadline. Other refusals (`4xx`) are final and never retried.
///
/// Retrying a claim is always safe: the edge decides first-code-wins, so a claim that reached it before the
/// connection broke answers `already_claimed` the second time, with ``ClaimResult/isSameClaim`` set (the user's
/// partner came from this claim's own code or click), and changes nothing.
///
/// How long a claim can take: no wait is begun that would end more than ``deadline`` after the claim began, so the
/// last attempt starts within it; an attempt itself lasts at most 30 s (the claim session's resource timeout). With
/// ``standard``, a claim therefore ends within 90 s, and within about a minute unless an attempt hangs.
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
    /// The most added at random to a `Retry-After` (and to ``minimumRateLimitedDelay``), in seconds, so that apps
    /// the edge told to come back at one moment do not all come back at once.
    package var retryAfterJitter: TimeInterval
    /// The shortest wait after a `429` without `Retry-After`, in seconds: the edge's claim limit counts a minute,
    /// so coming back within the backoff's first second or two would only meet the limit again.
    package var minimumRateLimitedDelay: TimeInterval
    /// Seconds from a claim's start after which no wait ends: a wait that would end later is not begun, and the
    /// last error is thrown instead.
    package var deadline: TimeInterval

    /// A policy with these bounds; each defaults to ``standard``'s.
    package init(
        maximumAttempts: Int = 4, initialDelay: TimeInterval = 1, maximumDelay: TimeInterval = 8,
        maximumRetryAfter: TimeInterval = 60, retryAfterJitter: TimeInterval = 1,
        minimumRateLimitedDelay: TimeInterval = 5, deadline: TimeInterval = 60
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.retryAfterJitter = retryAfterJitter
        self.minimumRateLimitedDelay = minimumRateLimitedDelay
        self.deadline = deadline
    }

    /// What apps get: 4 attempts, waiting about 1, 2 and 4 s between them (each between half and all of that); a
    /// `Retry-After` of up to 60 s waited out, plus up to 1 s; at least 5–6 s after a `429` without one; and no wait
    /// that ends more than 60 s after the claim began.
    package static let standard = RetryPolicy()

    /// How long to wait before trying again after `error` ended attempt number `attempt` (1 for the first),
    /// `elapsed` seconds after the claim began, or `nil` to give up and throw it. `jitter` is a random number in
    /// `0..<1`: the backoff is scaled by `0.5 + jitter / 2`, and `jitter` × ``retryAfterJitter`` is added to a
    /// `Retry-After`, so apps that failed together do not all come back at once.
    package func delay(after error: ToltError, attempt: Int, elapsed: TimeInterval, jitter: Double) -> TimeInterval? {
        guard error.isTransient, attempt < maximumAttempts else { return nil }
        let jitter = min(max(jitter, 0), 1)
        let exponent = Double(min(max(attempt - 1, 0), 62))
        let backoff = min(maximumDelay, initialDelay * pow(2, exponent)) * (0.5 + jitter / 2)
        let wait: TimeInterval
        if let retryAfter = error.retryAfter {
            guard retryAfter <= maximumRetryAfter else { return nil }
            wait = max(retryAfter + jitter * retryAfterJitter, backoff)
        } else if error == .rateLimited {
            wait = max(minimumRateLimitedDelay + jitter * retryAfterJitter, backoff)
        } else {
            wait = backoff
        }
        return elapsed + wait <= deadline ? wait : nil
    }
}
