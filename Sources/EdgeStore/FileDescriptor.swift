#if canImport(Glibc)
    import Glibc
#endif

/// Whole writes to a file descriptor. `write(2)` may write less than it was given, or be interrupted by a
/// signal before writing anything (`EINTR`); the loop that handles both lives here once, not in every caller.
public enum FileDescriptor {
    /// Why ``writeAll(_:_:)`` stopped before the end.
    public struct WriteError: Error, Equatable, CustomStringConvertible {
        /// The `errno` of the write that failed; `EIO` for a write that wrote nothing and set no `errno`.
        public let code: Int32
        /// The bytes written before the failure: they are in the file, so it may end in a partial record.
        public let written: Int

        public init(code: Int32, written: Int) {
            self.code = code
            self.written = written
        }

        /// The system's message for ``code``, as `strerror` gives it.
        public var description: String { String(cString: strerror(code)) }
    }

    /// Writes all of `bytes` to `descriptor`: after a short write it writes the rest, after `EINTR` it tries
    /// again, and it stops at any other failure. Allocates nothing, so a loop thread can call it.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(WriteError) {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count > 0 {
                written += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                throw WriteError(code: count < 0 ? errno : EIO, written: written)
            }
        }
    }

    /// Writes `text` whole to standard error (descriptor 2), as a log line or a command's message is written; a
    /// failed write drops the rest (output going to a closed or full destination is no reason to fail).
    public static func writeToStandardError(_ text: String) {
        Array(text.utf8).withUnsafeBytes { _ = try? writeAll(2, $0) }
    }

    /// Writes one line of the process's log to standard error: `tolt-edge: <line>`.
    public static func logToStandardError(_ line: String) { writeToStandardError("tolt-edge: \(line)\n") }
}
