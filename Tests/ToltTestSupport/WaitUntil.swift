import Foundation

/// Waits until `condition` holds, checking every 20 ms without blocking a thread, for at most `seconds`;
/// returns whether it held (generous by default: it returns as soon as it holds, and a full test run loads the
/// machine). For what an app's unstructured `Task` does in the background: TestSupport's
/// `eventually` sleeps its thread, which here would be one of the few threads that task needs to run on.
package func waitUntil(within seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(nanoseconds: 20_000_000)
    }
    return try await condition()
}
