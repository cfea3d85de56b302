#if canImport(Glibc)
    import Glibc
#endif

/// What `/proc` says about this process, read at scrape time: open descriptors and resident memory. `nil` where
/// `/proc` is not mounted or cannot be read.
enum ProcessStats {
    /// The entries of `/proc/self/fd`, less the one the listing itself opens.
    static func openDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        // `.`, `..` and the descriptor of the listing.
        return max(0, count - 3)
    }

    /// The soft descriptor limit.
    static func descriptorLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur == rlim_t.max ? nil : Int(limit.rlim_cur)
    }

    /// Resident memory in bytes: the second field of `/proc/self/statm` (pages) times the page size.
    static func residentBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
