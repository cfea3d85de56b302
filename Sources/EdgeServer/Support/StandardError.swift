internal import CH2O

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error, shared by the server's own log lines and whatever the C libraries it links write there.
///
/// libh2o writes some lines of its own to the C `stderr` stream, one per event a client can cause: version 2.2 prints
/// `skipping frame (type:N)` for every HTTP/2 frame of a type it does not know. Nine bytes from a client bought a
/// line in the log, so one connection could fill a disk (an attacker measured 35-48 MB a second) or, with a log pipe
/// that pushes back, hold every loop in its writes. ``captureLibraryOutput()`` points the C `stderr` stream at a
/// line-buffered stream (`tolt_capture_library_stderr`, in C: `fopencookie` does not import into Swift) that passes
/// each line on to descriptor 2, marked `library:` and cut to ``maximumLineLength`` bytes, at most
/// ``linesPerSecond`` a second, and says once a second how many it dropped. Descriptor 2 itself is not moved, so what
/// is written to it directly, the server's own lines and the Swift runtime's fatal errors and backtraces, goes out
/// whole, also at a crash.
public enum StandardError {
    /// Library lines passed on per second; the rest are counted and dropped.
    public static let linesPerSecond = 10
    /// The bytes of a library line passed on; the rest of the line is dropped.
    public static let maximumLineLength = 512

    /// Moves what the C libraries write to their `stderr` stream behind the bounded relay described above. Call once,
    /// before any loop starts (`tolt-edge serve` does). Returns `false`, changing nothing, when the stream cannot be
    /// made.
    @discardableResult
    public static func captureLibraryOutput() -> Bool {
        tolt_capture_library_stderr(Int32(linesPerSecond), maximumLineLength) == 0
    }

    /// Opens `/dev/null` on whichever of descriptors 0, 1 and 2 is closed (a server started with `2>&-`), so that no
    /// file the process opens later (the data directory's lock, the store, a listener) gets one of those numbers and
    /// is written to as standard output or error.
    public static func openMissingStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 {
            let opened = open("/dev/null", O_RDWR)
            // The lowest free number is the closed one; anything else means it was not free after all.
            if opened >= 0 && opened != descriptor { close(opened) }
        }
    }
}
