#if canImport(Glibc)
    import Glibc
#endif

/// A tmpfs of a few hundred KiB mounted on a directory: a real file system a test can fill, so that writes fail with
/// `ENOSPC` as they do on a full disk (a file-size limit fails with `EFBIG` instead, and only for one file).
///
/// Mounting needs root (`CAP_SYS_ADMIN`), which the tests have here and in CI; ``isMountable`` says whether this
/// process may, so that a test can be skipped with a visible reason where it may not. Call ``remove()`` in a `defer`:
/// it unmounts (lazily, so that a file a server still holds open cannot keep the mount).
package final class SmallVolume {
    /// Where the volume is mounted.
    package let path: String
    private let created: TemporaryDirectory?
    private var fillCount = 0

    /// Mounts a tmpfs of `bytes` (whole pages) on `path`, created if missing, or on a new temporary directory.
    package init(bytes: Int, at path: String? = nil) throws {
        created = path == nil ? try TemporaryDirectory() : nil
        self.path = path ?? created!.path
        if path != nil && mkdir(self.path, 0o755) != 0 && errno != EEXIST {
            throw TestError("cannot create \(self.path): \(String(cString: strerror(errno)))")
        }
        guard mount("tmpfs", self.path, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else {
            let reason = String(cString: strerror(errno))
            created?.remove()
            throw TestError("cannot mount a tmpfs on \(self.path): \(reason)")
        }
    }

    /// Whether this process may mount a tmpfs: tried once, on a volume of its own.
    package static let isMountable: Bool = {
        guard let volume = try? SmallVolume(bytes: 64 << 10) else { return false }
        volume.remove()
        return true
    }()

    /// Fills every free byte with a file of its own, written until the volume refuses.
    package func fill() throws {
        fillCount += 1
        let descriptor = open(path + "/.fill-\(fillCount)", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TestError("cannot create a file on \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x46, count: 4096)
        for size in [chunk.count, 1] {
            while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, size) }) > 0 {}
            guard errno == ENOSPC else {
                throw TestError("filling \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Deletes what ``fill()`` wrote: the volume has room again.
    package func free() {
        for index in 0...fillCount { unlink(path + "/.fill-\(index)") }
        fillCount = 0
    }

    /// Unmounts the volume, and removes the directory when it made one.
    package func remove() {
        umount2(path, Int32(MNT_DETACH))
        created?.remove()
    }
}
