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
    // @unchecked: `client` and `firstOpen` are read and written only while holding `lock`; the rest is immutable.
    private let lock = NSLock()
    private var client: ClaimClient?
    private var firstOpen: Task<Date, Never>?

    /// Where the first open is kept.
    package let storage: FirstOpenStorage
    /// When failed claims are tried again.
    package let retryPolicy: RetryPolicy
    /// The edge that ``Tolt/configure(publicId:)`` points at.
    package let defaultBaseURL: URL

    /// A state with nothing configured yet.
    package init(
        storage: FirstOpenStorage = .platformDefault, retryPolicy: RetryPolicy = .standard,
        defaultBaseURL: URL = Tolt.defaultBaseURL
    ) {
        self.storage = storage
        self.retryPolicy = retryPolicy
        self.defaultBaseURL = defaultBaseURL
    }

    /// The app's state.
    package static let shared = ToltState()

    /// A state that replaces ``shared`` for the work run inside `ToltState.$scoped.withValue(_:operation:)`.
    @TaskLocal package static var scoped: ToltState?

    /// ``scoped`` when set, else ``shared``.
    static var current: ToltState { scoped ?? shared }

    /// Points claims at `publicId` and `baseURL` (``defaultBaseURL`` when `nil`). The first call also starts
    /// reading the first open, storing this moment when none is stored; later calls keep that reading.
    func configure(publicId: String, baseURL: URL?) {
        let now = Date()
        lock.lock()
        defer { lock.unlock() }
        let firstOpen: Task<Date, Never>
        if let started = self.firstOpen {
            firstOpen = started
        } else {
            let storage = storage
            // Off the caller's thread: configure runs at launch, often on the main thread, and storage is I/O.
            firstOpen = Task.detached { storage.firstOpen(storingIfAbsent: now) }
            self.firstOpen = firstOpen
        }
        client = ClaimClient(
            publicId: publicId, baseURL: baseURL ?? defaultBaseURL, firstOpen: firstOpen, policy: retryPolicy)
    }

    /// The client of the latest ``configure(publicId:baseURL:)``.
    func configuredClient() throws -> ClaimClient {
        lock.lock()
        defer { lock.unlock() }
        guard let client else { throw ToltError.notConfigured }
        return client
    }

    /// The first open that claims send, once ``configure(publicId:baseURL:)`` has been called.
    package var firstOpenDate: Date? {
        get async { await startedFirstOpen()?.value }
    }

    private func startedFirstOpen() -> Task<Date, Never>? {
        lock.lock()
        defer { lock.unlock() }
        return firstOpen
    }
}
