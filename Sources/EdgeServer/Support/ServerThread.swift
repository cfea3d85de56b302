#if canImport(Glibc)
    import Glibc
#endif

/// A thread of the server's own, for loops and background work that must own a thread (a priority of its own, a
/// blocking loop) rather than borrow one from Dispatch's shared pool. It carries a name (its first 15 bytes, Linux's
/// limit), so `top -H` and `perf` tell the threads apart, and is joined when the server stops.
final class ServerThread: Sendable {
    private let thread: pthread_t

    /// Starts `body` on a new thread named `name`.
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Start {
            let name: String
            let body: @Sendable () -> Void
            init(_ name: String, _ body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        let start = Unmanaged.passRetained(Start(String(decoding: name.utf8.prefix(15), as: UTF8.self), body))
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                let start = Unmanaged<AnyObject>.fromOpaque(argument!).takeRetainedValue() as! Start
                ServerThread.nameThisThread(start.name)
                start.body()
                return nil
            }, start.toOpaque())
        guard rc == 0 else { fatalError("cannot start thread \(name): error \(rc)") }
        self.thread = thread
    }

    /// Waits until the thread's body has returned. Call once.
    func join() {
        pthread_join(thread, nil)
    }

    /// Names the calling thread through procfs: Glibc's `pthread_setname_np` does not import into Swift.
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = Array(name.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}
