#if canImport(Glibc)
    import Glibc
#endif

/// Waits until `condition` holds, polling every 20 ms, for at most `seconds`; returns whether it held.
///
/// For what the server does in the background (a click reaching the store, a reload, a child process
/// starting): a test states the outcome and the longest it may take, never a fixed sleep.
package func eventually(within seconds: Double = 3, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = TestClock.now() + seconds
    while TestClock.now() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
