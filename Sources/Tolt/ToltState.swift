import Foundation

/// What ``Tolt``'s static calls act on: the configuration, and where the first open is kept.
///
/// Apps have one, ``shared``. Code in this package (tests, tools) may run a piece of work against a state of
/// its own with ``scoped``, without changing the documented calls:
///
/// ```swift
/// let state = ToltState(storage: .directory(temporary), defaultBaseURL: localEdge)
/// try await ToltState.$scoped.withValue(state) {
///     Tolt.configure(publicId: "pk_test")  // configures `state`, not the app's shared state
///     _ = try await Tolt.claim(code: "SAM20", appUserId: "user-1")
/// }
/// ```
///
/// Every `Task` created inside inherits the scope (task-local values are copied into unstructured tasks), so
/// a claim started from an `onOpenURL` handler run there acts on the same state.
package final class ToltState: @unchecked Sendable {
    // @unchecked: `client`, `firstOpen` and `failures` are read and written only while holding `lock`; the rest is
    // immutable.
    private let lock = NSLock()
    private var client: ClaimClient?
    private var firstOpen: FirstOpenLookup?
    private var failures = 0

    /// Where the first open is kept.
    package let storage: FirstOpenStorage
    /// When failed claims are tried again.
    package let retryPolicy: RetryPolicy
    /// The edge that ``Tolt/configure(publicId:)`` points at.
    package let defaultBaseURL: URL
    /// Where every configure points when set, whatever base URL it is given: for tests that run the docs' snippet,
    /// whose `baseURL` names an example host, against a local edge. `nil` for apps.
    package let baseURLOverride: URL?
    /// Whether the first open is looked up at the first claim rather than at `configure`: in a process that
    /// Apple's prewarming launched (see `FirstOpenLookup`).
    package let defersFirstOpen: Bool

    /// A state with nothing configured yet.
    package init(
        storage: FirstOpenStorage = .platformDefault, retryPolicy: RetryPolicy = .standard,
        defaultBaseURL: URL = Tolt.defaultBaseURL, baseURLOverride: URL? = nil,
        defersFirstOpen: Bool = ToltState.isPrewarmed
    ) {
        self.storage = storage
        self.retryPolicy = retryPolicy
        self.defaultBaseURL = defaultBaseURL
        self.baseURLOverride = baseURLOverride
        self.defersFirstOpen = defersFirstOpen
    }

    /// The app's state.
    package static let shared = ToltState()

    /// Whether Apple's prewarming launched this process before the user opened the app (`ActivePrewarm=1` in its
    /// environment, which stays for the life of the process). Always `false` off Apple platforms.
    package static var isPrewarmed: Bool {
        #if canImport(Darwin)
            return ProcessInfo.processInfo.environment["ActivePrewarm"] == "1"
        #else
            return false
        #endif
    }

    /// A state that replaces ``shared`` for the work run inside `ToltState.$scoped.withValue(_:operation:)`.
    @TaskLocal package static var scoped: ToltState?

    /// ``scoped`` when set, else ``shared``.
    static var current: ToltState { scoped ?? shared }

    /// Points claims at `publicId` and `baseURL` (``defaultBaseURL`` when `nil`; ``baseURLOverride`` when set). The first call also starts
    /// reading the first open (at the first claim when ``defersFirstOpen``), storing this moment when none is
    /// stored; later calls keep that reading.
    func configure(publicId: String, baseURL: URL?) {
        let now = Date()
        lock.lock()
        defer { lock.unlock() }
        let firstOpen: FirstOpenLookup
        if let started = self.firstOpen {
            firstOpen = started
        } else {
            firstOpen = FirstOpenLookup(storage: storage, launch: now, deferred: defersFirstOpen)
            self.firstOpen = firstOpen
        }
        client = ClaimClient(
            publicId: publicId, baseURL: baseURLOverride ?? baseURL ?? defaultBaseURL,
            edge: baseURL ?? defaultBaseURL, firstOpen: firstOpen,
            policy: retryPolicy,
            onFailedAttempt: { [weak self] in self?.countFailedAttempt() })
    }

    /// Records an earlier first open the app knows of (``Tolt/recordFirstOpen(_:)``): on the lookup ``configure``
    /// starts, started here (as ``configure`` would, this launch's time stored when none is) when there is none yet.
    /// A time from a clock not yet set (before ``FirstOpenStorage/earliestPlausible``) or after now is no first open
    /// and is ignored.
    func recordFirstOpen(_ date: Date) {
        let now = Date()
        guard date >= FirstOpenStorage.earliestPlausible, date <= now else { return }
        lock.lock()
        defer { lock.unlock() }
        let firstOpen = self.firstOpen ?? FirstOpenLookup(storage: storage, launch: now, deferred: defersFirstOpen)
        self.firstOpen = firstOpen
        firstOpen.record(date)
    }

    /// The attempts of this state's claims that failed (a refused connection, a `5xx`, a refusal), retried or not:
    /// for tests that must show a failure happened, which a claim that succeeded in the end does not show.
    package var failedAttempts: Int {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }

    private func countFailedAttempt() {
        lock.lock()
        defer { lock.unlock() }
        failures += 1
    }

    /// The client of the latest ``configure(publicId:baseURL:)``.
    func configuredClient() throws -> ClaimClient {
        lock.lock()
        defer { lock.unlock() }
        guard let client else { throw ToltError.notConfigured }
        return client
    }

    /// The first open that claims send, once ``configure(publicId:baseURL:)`` has been called (looked up now when
    /// it was deferred).
    package var firstOpenDate: Date? {
        get async { await startedFirstOpen()?.value }
    }

    private func startedFirstOpen() -> FirstOpenLookup? {
        lock.lock()
        defer { lock.unlock() }
        return firstOpen
    }
}
