#if canImport(Glibc)
    import Glibc
#endif

/// The few file operations the store needs, over POSIX calls.
enum FileSystem {
    /// Creates `path` as a directory unless it exists; `false` on failure.
    static func makeDirectory(_ path: String, mode: mode_t = 0o755) -> Bool {
        mkdir(path, mode) == 0 || errno == EEXIST
    }

    /// Makes the file at `path` readable and writable by its owner only (0600), creating it empty with that mode
    /// first when `create` is set and it is missing. Best effort: a file that cannot be made or changed is left to
    /// whoever opens it next to report.
    ///
    /// An existing file is changed by its path and never opened: closing any descriptor of a file drops every POSIX
    /// lock this process holds on it, and SQLite's connections in this process hold theirs on the database and its
    /// `-shm` (SQLite's own opens share one descriptor per file to avoid that). A file this call creates
    /// (`O_EXCL`) is new, so no lock on it can be held yet.
    static func makePrivate(_ path: String, create: Bool) {
        if create {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 { close(descriptor) }
        }
        _ = chmod(path, 0o600)
    }

    /// The names in a directory, without `.` and `..`.
    static func list(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The file's text, trimmed (empty when it holds only whitespace); when there is no file, `make()` is written to
    /// it first (atomically, by rename), with `mode`. Only a missing file is made: one that is there and empty, or
    /// cannot be read (a link to nothing, no permission), is an error or the caller's to judge, never replaced.
    static func readOrCreate(
        _ path: String, mode: mode_t = 0o644, limit: Int = 4096, make: () -> String
    ) throws -> String {
        var info = stat()
        if lstat(path, &info) == 0 || errno != ENOENT {
            guard let bytes = readBytes(path, limit: limit) else {
                throw StoreError.io("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            return String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        }
        let value = make()
        let temporary = path + ".tmp-" + String(getpid())
        guard write(temporary, Array((value + "\n").utf8), mode: mode), rename(temporary, path) == 0 else {
            throw StoreError.io("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return read(path) ?? value
    }

    static func read(_ path: String) -> String? {
        guard let bytes = readBytes(path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    static func readBytes(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return readBytes(descriptor: descriptor, limit: limit)
    }

    /// Reads an open descriptor to its end (or just past `limit`), leaving it open: standard input is read this way,
    /// not by opening `/dev/stdin`, which opens the file or pipe behind it anew, with the permissions of the user now
    /// running (`sudo -u tolt-edge tolt-edge import - < acme.json` with a root-owned `acme.json` got "Permission
    /// denied", though the shell had opened it).
    static func readBytes(descriptor: Int32, limit: Int = 64 << 20) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Whether `path` is a directory (symbolic links followed).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `path` is a regular file (symbolic links followed).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { (try? FileDescriptor.writeAll(descriptor, $0)) != nil }
    }
}

extension String {
    var trimmingWhitespace: String {
        let bytes = Array(utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = bytes.lastIndex(where: { !isSpace($0) })!
        return String(decoding: bytes[start...end], as: UTF8.self)
    }
}
