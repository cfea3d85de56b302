import Testing

/// The trait the SDK's suites carry does what they count on.
@Suite(.highPriority) struct HighPriorityTests {
    @Test func aTestOfTheSuiteRunsAtHighPriority() {
        #expect(Task.currentPriority >= .high, "\(Task.currentPriority)")
    }

    @Test(arguments: [1, 2]) func soDoesEachCaseOfAParameterizedTest(_ argument: Int) {
        #expect(Task.currentPriority >= .high, "case \(argument): \(Task.currentPriority)")
    }

    /// After a sleep, and in its child tasks. (An unstructured `Task { }` starts at the test's base priority: a
    /// test that starts one says `.high` itself.)
    @Test func soDoItsChildTasksAndItAfterASleep() async throws {
        try await Task.sleep(nanoseconds: 1_000_000)
        #expect(Task.currentPriority >= .high)
        let child = await withTaskGroup(of: TaskPriority.self) { group in
            group.addTask { Task.currentPriority }
            return await group.next()!
        }
        #expect(child >= .high)
    }
}
