import Testing

/// Runs each test of a suite at high priority.
///
/// On Linux each task priority has a global queue of its own, as wide as the machine has cores. In a full
/// `swift test` the default queue is held by blocking tests (the fuzz tests run for minutes) with hundreds more
/// waiting, and an SDK test resumes on it after every connection, sleep and retry: on 2 cores a claim's first
/// attempt waited over 120 s, and 31 claims outlasted the rate limit's minute. These tests block nothing; at high
/// priority their resumptions do not queue behind the blocking ones. The test's own task is escalated (a task
/// group's child asked for `.high` runs at its parent's priority here), so its task locals, its `#expect`s and its
/// child tasks go with it.
struct HighPriority: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        withUnsafeCurrentTask { $0?.escalatePriority(to: .high) }
        try await function()
    }
}

extension Trait where Self == HighPriority {
    /// ``HighPriority``: the suite's tests run at high priority.
    static var highPriority: Self { HighPriority() }
}
