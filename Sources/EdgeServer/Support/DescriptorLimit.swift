#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open descriptors (`RLIMIT_NOFILE`), and how many of them client connections may take.
///
/// Many hosts start a process with a soft limit of 1,024 and a far higher hard limit; at 1,024 about a thousand slow
/// clients would take every descriptor. The server raises the soft limit to the hard one at start, and keeps
/// ``reserved(threads:)`` descriptors out of the connections' reach for everything else it opens: journal segments
/// (each loop's and the ingester's), the SQLite connections with their WAL and shared-memory files, listeners, event
/// loops and their wake-up pipes.
enum DescriptorLimit {
    /// The soft and hard limits (`UInt64.max`, `RLIM_INFINITY`, for unlimited).
    struct Limits: Equatable {
        var soft: UInt64
        var hard: UInt64
    }

    /// The limits in force.
    static func current() -> Limits {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Limits(soft: 1024, hard: 1024) }
        return Limits(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard limit (to `nr_open`, the kernel's ceiling, when the hard limit is unlimited).
    /// Returns the limits before and after.
    @discardableResult
    static func raise() -> (before: Limits, after: Limits) {
        let before = current()
        var target = before.hard
        if target == UInt64.max { target = kernelCeiling() }  // RLIM_INFINITY
        if target > before.soft {
            var limit = rlimit(rlim_cur: rlim_t(target), rlim_max: rlim_t(before.hard))
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return (before, current())
    }

    /// Descriptors kept for everything but client connections: 7 SQLite connections of 3 files each, the journal
    /// (a segment per loop and one the ingester reads, the directory), standard streams, the stop pipe, Dispatch's
    /// own, and per loop a listener, an epoll descriptor and two wake-up queues; with room to spare.
    static func reserved(threads: Int) -> Int { 64 + 8 * threads }

    /// The most connections the limit `soft` leaves room for, at least one per loop.
    static func maximumConnections(soft: UInt64, threads: Int) -> Int {
        let soft = Int(min(soft, UInt64(Int32.max)))
        return max(threads, soft - reserved(threads: threads))
    }

    private static func kernelCeiling() -> UInt64 {
        let descriptor = open("/proc/sys/fs/nr_open", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 1 << 20 }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return 1 << 20 }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingSpaces
        return UInt64(text.filter(\.isNumber)).flatMap { $0 > 0 ? $0 : nil } ?? 1 << 20
    }
}
