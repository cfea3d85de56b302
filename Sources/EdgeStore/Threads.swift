#if canImport(Glibc)
    import Glibc
#endif

/// Starts a detached thread running `body`: for loops and background work that must own a thread (a
/// priority of its own, a blocking loop) rather than borrow one from Dispatch's shared pool. The thread
/// carries `name` (its first 15 bytes, Linux's limit), so `top -H` and `perf` tell the threads apart.
public func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let box = Unmanaged.passRetained(Box(String(decoding: name.utf8.prefix(15), as: UTF8.self), body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { argument in
            let box = Unmanaged<AnyObject>.fromOpaque(argument!).takeRetainedValue() as! Box
            nameThisThread(box.name)
            box.body()
            return nil
        }, box)
    guard rc == 0 else { fatalError("cannot start thread \(name): error \(rc)") }
    pthread_detach(thread)
}

/// Names the calling thread through procfs: Glibc's `pthread_setname_np` does not import into Swift.
private func nameThisThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = Array(name.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
}
