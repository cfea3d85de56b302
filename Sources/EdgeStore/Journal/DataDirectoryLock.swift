import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One journal's claim on its data directory: an exclusive `flock` on `<data>/journal.lock`, so that a second
/// server on the same directory is refused at start-up instead of taking the first one's open segments for a
/// crashed process's leftovers (and deleting them under its writers).
///
/// The kernel drops the lock when its descriptor closes: at ``release()``, when the lock is freed, or when the process
/// ends, SIGKILL included, so a crashed server's directory is free again at once. The file holds the holder's pid, for
/// the message a refused start shows and for people; the lock alone decides, so a pid left behind by a crash stops
/// nothing. Only the journal takes it: the commands that read or write the store (`import`, `clicks`, `prune`, …)
/// work beside a running server, as they always have.
final class DataDirectoryLock: Sendable {
    /// `<data>/journal.lock`.
    let path: String
    /// The locked descriptor; -1 once released.
    private let descriptor: Mutex<Int32>

    /// Takes the lock on `dataDirectory` (which must exist), or throws at once, naming the pid of the process that
    /// holds it. Never waits.
    init(dataDirectory: String) throws {
        path = dataDirectory + "/journal.lock"
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else {
            throw StoreError.io("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        // The file is written (the pid) and emptied: it must be this directory's own, not a link (O_NOFOLLOW refuses
        // a symbolic one) to a file of another name, which it would overwrite.
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
            close(opened)
            throw StoreError.io("\(path) is not a plain file of its own (a hard link, or not a file): remove it")
        }
        // Private like the node id: a descriptor of any other user's, even read-only, could take the lock.
        _ = fchmod(opened, 0o600)
        // A lock of an open file description: a second journal of this same process, on a descriptor of its own,
        // is refused like another process.
        while flock(opened, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            if reason == EINTR { continue }
            let holder = Self.recordedPID(opened)
            close(opened)
            guard reason == EWOULDBLOCK else {
                throw StoreError.io("cannot lock \(path): \(String(cString: strerror(reason)))")
            }
            throw StoreError.io(
                "data directory \(dataDirectory) is in use by another tolt-edge serve"
                    + (holder.map { " (pid \($0))" } ?? "")
                    + ": stop that one first, or give this one a data directory of its own (--data); the lock is "
                    + path)
        }
        let text = Array((String(getpid()) + "\n").utf8)
        // The pid is for people; a lock whose pid could not be written still holds.
        if ftruncate(opened, 0) == 0 { _ = text.withUnsafeBytes { pwrite(opened, $0.baseAddress, $0.count, 0) } }
        descriptor = Mutex(opened)
    }

    deinit { release() }

    /// Gives the directory up: another journal may take it from now on. The pid is removed first, so a directory
    /// left by a clean stop names nobody. Calling it again does nothing.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = ftruncate(descriptor, 0)
            close(descriptor)
            descriptor = -1
        }
    }

    /// The pid the lock's holder wrote into the file, if it has written one yet.
    private static func recordedPID(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = bytes[0..<count].prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, digits.count < 11 else { return nil }
        return Int32(String(decoding: digits, as: UTF8.self))
    }
}
