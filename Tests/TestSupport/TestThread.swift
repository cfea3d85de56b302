import Foundation

/// Runs a body on a thread of its own, for tests that need real parallelism (load, racing requests, a
/// background loop) rather than Swift concurrency's cooperative pool, which a blocking body would starve.
package enum TestThread {
    /// Starts a detached thread named `name` (visible in `top -H` and a debugger) that runs `body` once.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
