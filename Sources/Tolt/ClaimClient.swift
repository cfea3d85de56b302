import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends claims for one configuration (public key and edge), retrying as its ``RetryPolicy`` says.
final class ClaimClient: Sendable {
    let publicId: String
    /// `<base URL>/client/claims`.
    let endpoint: URL
    let policy: RetryPolicy
    /// The app's first open, read from storage (or stored) off the caller's thread.
    private let firstOpen: FirstOpenLookup
    private let session: URLSession
    /// Called after each attempt that failed, before deciding whether to retry.
    private let onFailedAttempt: @Sendable () -> Void

    init(
        publicId: String, baseURL: URL, firstOpen: FirstOpenLookup, policy: RetryPolicy,
        onFailedAttempt: @escaping @Sendable () -> Void = {}
    ) {
        self.publicId = publicId
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
            let (data, response) = try await session.data(for: request)
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
