#if canImport(Glibc)
    import Glibc
#endif

/// Starts a detached thread running `body`: for loops and background work that must own a thread (a
/// priority of its own, a blocking loop) rather than borrow one from Dispatch's shared pool.
public func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { argument in
            let box = Unmanaged<AnyObject>.fromOpaque(argument!).takeRetainedValue() as! Box
            box.body()
            return nil
        }, box)
    guard rc == 0 else { fatalError("cannot start thread \(name): error \(rc)") }
    pthread_detach(thread)
}
