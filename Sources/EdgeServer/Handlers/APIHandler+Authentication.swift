import EdgeStore
import LinkCore

/// The limit on failed authentications: `/v1`'s wrong keys and the dashboard's failed sign-ins (and, in a limiter of
/// their own per organization, ``APIHandler/webhookFailures``, the webhook's wrong authorizations), per client (an IPv4
/// address or an IPv6 /64, as the claims' limit counts them: ``ClientNetwork``, from the address ``ClientAddress``
/// and `--trusted-proxy` give), in one ``RateLimiter`` of the claims' kind, so its memory has the same bound.
///
/// An imported secret key may be as short as 6 characters, so a key alone does not stop guessing; 10 failures in any
/// 60 seconds make guessing useless (14,400 guesses a day from an address, against 64^6 keys of 6 characters) while
/// a script with a wrong key waits at most a minute once it is mended. A client whose last 10 failures all fall in
/// the last minute is refused (`429`, `Retry-After`) before its key is read, a right key too, until the oldest of
/// them leaves the window. Only failures are counted (``RateLimiter/wait(_:now:)`` asks without counting): a right
/// key neither counts nor frees a failure, and a refused request does not count either, so retrying does not
/// lengthen the wait. Requests that race on several workers are checked before any of them is counted, so a burst
/// can fail a few times more than 10, at most once per worker running at that moment.
extension APIHandler {
    /// The failed authentications a client may make in any 60 seconds.
    static let authenticationFailureLimit = 10

    /// The seconds `client` must wait before its key is read again (its last ``authenticationFailureLimit`` failed
    /// authentications all fall in the last minute), or `nil`.
    func authenticationWait(_ client: ClientNetwork) -> Int? {
        authenticationFailures.wait(client, now: Clock.monotonicSeconds())
    }

    /// Counts a failed authentication of `client`.
    func countFailedAuthentication(_ client: ClientNetwork) {
        _ = authenticationFailures.acquire(client, now: Clock.monotonicSeconds())
    }

    /// `429 rate_limited` with `Retry-After` for a client that failed too often (``authenticationWait(_:)``, or in
    /// `limiter` when given: the webhook's, per organization).
    func refuseIfFailingTooOften(_ client: ClientNetwork, in limiter: RateLimiter? = nil) throws(APIError) {
        guard let wait = (limiter ?? authenticationFailures).wait(client, now: Clock.monotonicSeconds()) else { return }
        throw APIError(
            status: 429, code: "rate_limited",
            message: "\(Self.authenticationFailureLimit) failed authentications from this address in the last minute;"
                + " retry in \(wait) s",
            headers: [("retry-after", String(wait))], tally: .authentication(.rateLimited))
    }

    /// `error`, the answer to a failed authentication of `client`, which it counts (in `limiter` when given).
    func failedAuthentication(_ client: ClientNetwork, _ error: APIError, in limiter: RateLimiter? = nil) -> APIError {
        _ = (limiter ?? authenticationFailures).acquire(client, now: Clock.monotonicSeconds())
        var error = error
        error.tally = .authentication(.wrongKey)
        return error
    }
}
