import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A one-way signal for background loops: they sleep on it between passes, and ``signal()`` ends both the sleep and
/// the loop, so a stop takes effect at once instead of after the current sleep.
///
/// A pipe that `poll` waits on: its read end is readable for good once signalled (nothing ever reads it).
public final class StopSignal: Sendable {
    private let descriptor: Int32
    private let writeDescriptor: Int32
    private let signalled = Atomic<Bool>(false)

    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        } else {
            ends = [-1, -1]
        }
        descriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    /// Whether ``signal()`` was called.
    public var isSignalled: Bool { signalled.load(ordering: .acquiring) }

    /// Signals every present and future ``wait(seconds:)``.
    public func signal() {
        guard !signalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        if writeDescriptor >= 0 { _ = write(writeDescriptor, &byte, 1) }
    }

    /// Sleeps up to `seconds`, less when signalled; returns whether the signal came.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        guard !isSignalled else { return true }
        // At most a day per call, so no interval overflows the system calls' arguments.
        let milliseconds = Int32(max(0, min(seconds, 86_400)) * 1000)
        guard descriptor >= 0 else {
            usleep(UInt32(min(milliseconds, 4_000_000)) * 1000)
            return isSignalled
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, milliseconds)
        return isSignalled
    }
}
