internal import CPostgreSQL
import LinkCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where libpq's notices go: a line of the process's log, never libpq's own bare print.
///
/// libpq reports what the server sends outside an answer through a notice processor, whose default prints it to
/// standard error as it came: a PostgreSQL that shuts down sends every idle connection
/// `FATAL:  terminating connection due to administrator command`, which then stood in the log without the
/// `tolt-edge:` prefix and over two lines. Every ``PostgresConnection`` installs ``processor`` instead, which writes
/// the notice as one line (``PostgresMessage``) naming the database, to the log ``route(to:)`` set: standard error
/// with the prefix until then (the CLI commands), the server's log once `serve` starts. Notices are rare (the
/// connection asks for warnings and worse only: `client_min_messages=warning`), so the lock is never contended.
public enum PostgresNotices {
    /// Boxed: read at every notice (see ``Boxed``).
    private static let sink = Mutex<Boxed<@Sendable (String) -> Void>>(Boxed(standardError))

    /// Writes `tolt-edge: <line>` to standard error (``FileDescriptor/logToStandardError(_:)``).
    public static let standardError: @Sendable (String) -> Void = { line in FileDescriptor.logToStandardError(line) }

    /// Sends every later notice, of every connection, to `log` (the process has one log).
    public static func route(to log: @escaping @Sendable (String) -> Void) {
        let routed = Boxed(log)
        sink.withLock { $0 = routed }
    }

    /// Logs one notice of the database `target` names.
    static func emit(_ message: String, target: String) {
        let line = "PostgreSQL at \(target) says: \(PostgresMessage.oneLine(message))"
        let log = sink.withLock { $0 }.value
        log(line)
    }

    /// What a connection's notices name: its database, masked. Kept alive by the connection it belongs to, which
    /// passes it to libpq unretained.
    final class Context: Sendable {
        let target: String
        init(target: String) { self.target = target }
    }

    /// The notice processor every connection installs (`PQsetNoticeProcessor`), with its ``Context`` as argument.
    static let processor: PQnoticeProcessor = { argument, message in
        guard let argument, let message else { return }
        let context = Unmanaged<Context>.fromOpaque(argument).takeUnretainedValue()
        PostgresNotices.emit(String(cString: message), target: context.target)
    }
}
