#if canImport(Glibc)
    import Glibc
#endif

/// What `open` makes (a journal, a server) on a data directory that this process has just given up: retried for up
/// to 5 s while it fails because the directory looks taken ("… is in use …").
///
/// The directory's lock is its open file's, and a child process another test forks at that moment holds a copy of
/// every descriptor from its fork to its exec, the lock's too: the directory can look taken for that moment. A lock
/// never given up still fails, after 5 s, and any other error at once.
package func afterTheDirectoryIsFree<Value>(_ open: () throws -> Value) throws -> Value {
    let deadline = TestClock.now() + 5
    while true {
        do {
            return try open()
        } catch  where "\(error)".contains("is in use") && TestClock.now() < deadline {
            usleep(10_000)
        }
    }
}
