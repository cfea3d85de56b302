import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends claims for one configuration (public key and edge), retrying as its ``RetryPolicy`` says.
final class ClaimClient: Sendable {
    let publicId: String
    /// `<base URL>/client/claims`.
    let endpoint: URL
    /// The edge's address as the app configured it, which its links use (`<edge>/a/<public key>/<code>`).
    let edge: URL
    let policy: RetryPolicy
    /// The app's first open, read from storage (or stored) off the caller's thread.
    private let firstOpen: FirstOpenLookup
    private let session: URLSession
    /// Called after each attempt that failed, before deciding whether to retry.
    private let onFailedAttempt: @Sendable () -> Void

    init(
        publicId: String, baseURL: URL, edge: URL? = nil, firstOpen: FirstOpenLookup, policy: RetryPolicy,
        onFailedAttempt: @escaping @Sendable () -> Void = {}
    ) {
        self.publicId = publicId
        self.edge = edge ?? baseURL
        self.onFailedAttempt = onFailedAttempt
        endpoint = Self.endpoint(baseURL: baseURL)
        self.firstOpen = firstOpen
        self.policy = policy
        // Ephemeral: no cookies, no cache, nothing of the claim written to disk by the URL loading system.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 15
        configuration.timeoutIntervalForResource = 30
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// The claims URL under `baseURL`, which may carry a path of its own (`https://example.com/edge`).
    static func endpoint(baseURL: URL) -> URL {
        baseURL.appendingPathComponent("client", isDirectory: true).appendingPathComponent("claims")
    }

    /// Claims `target` for `appUserId`, sending the first open as `first_seen_at`.
    func claim(_ target: ClaimTarget, appUserId: String) async throws -> ClaimResult {
        // Monotonic, unlike `Date`: a clock set while the claim waits moves no deadline.
        let started = ProcessInfo.processInfo.systemUptime
        let request = try await makeRequest(target, appUserId: appUserId, firstSeenAt: firstOpen.value)
        var attempt = 1
        while true {
            try Task.checkCancellation()
            let error: ToltError
            switch try await exchange(request) {
            case .success(let result): return result
            case .failure(let failure): error = failure
            }
            onFailedAttempt()
            let elapsed = ProcessInfo.processInfo.systemUptime - started
            guard
                let delay = policy.delay(
                    after: error, attempt: attempt, elapsed: elapsed, jitter: Double.random(in: 0..<1))
            else { throw error }
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            attempt += 1
        }
    }

    /// `POST /client/claims` with the JSON body the edge reads.
    func makeRequest(_ target: ClaimTarget, appUserId: String, firstSeenAt: Date) throws -> URLRequest {
        var body = ClaimBody(
            publicId: publicId, appUserId: appUserId, firstSeenAt: FirstOpenStorage.iso8601(firstSeenAt))
        switch target {
        case .code(let code): body.code = code
        case .click(let clickId): body.clickId = clickId
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try encoder.encode(body)
        return request
    }

    /// One attempt: the edge's answer, or the network failure, as a result. Throws only when the task was
    /// cancelled.
    private func exchange(_ request: URLRequest) async throws -> Result<ClaimResult, ToltError> {
        do {
            let (data, response) = try await send(request)
            guard let http = response as? HTTPURLResponse else {
                return .failure(.unexpectedResponse("The answer was not HTTP", httpStatus: nil))
            }
            return ClaimAnswer.interpret(
                status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"), body: data,
                now: Date())
        } catch let error as URLError {
            if Task.isCancelled { throw CancellationError() }
            return .failure(.network(error))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return .failure(.network(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)"])))
        }
    }
}

extension ClaimClient {
    /// The answer to `request`. On Linux not through `URLSession.data(for:)`: swift-corelibs-foundation's version
    /// cancels its transfer synchronously on the session's queue from inside the task's cancellation, which holds the
    /// task's status lock, while a transfer finishing on that queue resumes the task under the same lock, so a
    /// cancellation that meets an answer deadlocks both threads (a test run hung so in
    /// `ClaimRetryTests.cancellingTheTaskStopsTheRetries`; an app's cancelled claim could hang the same way). Here the
    /// cancellation only hands the transfer's cancel to another thread, and the answer resumes the task from the
    /// session's delegate queue: neither lock is taken inside the other.
    fileprivate func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            let transfer = CancellableTransfer()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let data, let response {
                            continuation.resume(returning: (data, response))
                        } else {
                            continuation.resume(throwing: URLError(.badServerResponse))
                        }
                    }
                    transfer.start(task)
                }
            } onCancel: {
                DispatchQueue.global().async { transfer.cancel() }
            }
        #else
            return try await session.data(for: request)
        #endif
    }
}

#if canImport(FoundationNetworking)
    /// A data task a cancellation may reach before it has started: it is then cancelled as soon as it starts.
    private final class CancellableTransfer: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false

        func start(_ task: URLSessionDataTask) {
            let cancelled = lock.withLock {
                self.task = task
                return self.cancelled
            }
            task.resume()
            if cancelled { task.cancel() }
        }

        func cancel() {
            let task = lock.withLock {
                cancelled = true
                return self.task
            }
            task?.cancel()
        }
    }
#endif

/// The body of `POST /client/claims`.
private struct ClaimBody: Encodable {
    var publicId: String
    var appUserId: String
    var code: String?
    var clickId: String?
    var firstSeenAt: String

    enum CodingKeys: String, CodingKey {
        case publicId = "public_id"
        case appUserId = "app_user_id"
        case code
        case clickId = "click_id"
        case firstSeenAt = "first_seen_at"
    }
}
