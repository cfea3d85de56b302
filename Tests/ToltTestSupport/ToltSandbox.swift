import Foundation
import TestSupport
import Tolt

/// The SDK's state for one test: the documented calls (`Tolt.configure`, `Tolt.claim`) run inside ``run(_:)``
/// act on a ``ToltState`` of the test's own, which keeps the first open in the test's temporary directory and
/// points `configure(publicId:)` at a local edge. Tests therefore run in parallel without sharing the SDK's
/// state, and none touches the machine's real storage.
package final class ToltSandbox: Sendable {
    /// Where the first open is kept: a directory of this test's.
    package let directory: TemporaryDirectory
    /// The state the documented calls act on inside ``run(_:)``.
    package let state: ToltState

    /// Quick retries for tests: 4 attempts, 50, 100 and 200 ms apart (each between half and all of that); a
    /// `Retry-After` of up to 2 s waited out, plus up to 100 ms; at least 300 ms after a `429` without one. The
    /// deadline is far off (5 minutes): in a full `swift test` on two cores, CPU-bound tests hold the cooperative
    /// threads for tens of seconds, and a claim waiting for one would miss a short deadline before its first retry.
    /// The deadline's own tests set theirs.
    package static let quickRetries = RetryPolicy(
        maximumAttempts: 4, initialDelay: 0.05, maximumDelay: 0.2, maximumRetryAfter: 2, retryAfterJitter: 0.1,
        minimumRateLimitedDelay: 0.3, deadline: 300)

    /// A sandbox whose `configure(publicId:)` points at `defaultBaseURL`, and with `redirectsEveryBaseURL`
    /// `configure(publicId:baseURL:)` too (the docs' snippet names an example host); `defersFirstOpen` plays a
    /// process that Apple's prewarming launched (never the case on Linux by itself).
    package init(
        defaultBaseURL: URL, redirectsEveryBaseURL: Bool = false, retryPolicy: RetryPolicy = ToltSandbox.quickRetries,
        defersFirstOpen: Bool = false
    ) throws {
        directory = try TemporaryDirectory()
        state = ToltState(
            storage: .directory(URL(fileURLWithPath: directory.path, isDirectory: true)), retryPolicy: retryPolicy,
            defaultBaseURL: defaultBaseURL, baseURLOverride: redirectsEveryBaseURL ? defaultBaseURL : nil,
            defersFirstOpen: defersFirstOpen)
    }

    /// Where this sandbox keeps the first open.
    package var storage: FirstOpenStorage { state.storage }

    /// A new state on the same storage: the app launched again, nothing configured yet.
    package func relaunched() -> ToltState {
        ToltState(
            storage: state.storage, retryPolicy: state.retryPolicy, defaultBaseURL: state.defaultBaseURL,
            baseURLOverride: state.baseURLOverride, defersFirstOpen: state.defersFirstOpen)
    }

    /// Runs `body` with the documented calls acting on `state` (this sandbox's when `nil`).
    ///
    /// `throws`, not `rethrows`: a closure whose only `try`s sit inside `#expect` would count as not throwing.
    package func run<Result>(
        in state: ToltState? = nil, _ body: () async throws -> Result
    ) async throws -> Result {
        try await ToltState.$scoped.withValue(state ?? self.state, operation: body)
    }

    /// Removes the directory.
    package func remove() { directory.remove() }
}
