internal import CSQLite
import Glibc

/// One SQLite connection.
///
/// `@unchecked Sendable`: the connection (opened without SQLite's own mutex) is only ever used inside
/// ``SQLiteStore``'s `Mutex`, so one thread at a time touches it and its statement cache.
final class SQLiteConnection: StoreConnection, @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws(StoreError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let error = Self.error("cannot open \(path): \(message)", code: handle.map(sqlite3_errcode) ?? SQLITE_NOMEM)
            sqlite3_close(handle)
            throw Self.permissionProblem(path).map { StoreError.database("cannot open \(path): \($0)") } ?? error
        }
        // Another process (tolt-edge import) may hold the write lock for a moment; wait instead of failing.
        sqlite3_busy_timeout(handle, 5_000)
        do {
            // The first statement reads the file, and WAL mode opens (or makes) the write-ahead log beside it.
            try execute("PRAGMA journal_mode = WAL")
        } catch {
            throw Self.permissionProblem(path).map { StoreError.database("cannot open \(path): \($0)") } ?? error
        }
        // NORMAL in WAL mode survives a crash of the process; only a power loss can drop the last commits,
        // and the click journal is deleted only after its clicks are committed.
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw Self.error(message, code: sqlite3_errcode(handle))
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` between `BEGIN` and `COMMIT`: a deferred transaction that takes no write lock, and in WAL mode
    /// reads one snapshot from its first read on. It only reads, so it commits even when `body` throws.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// Prepares (once, then from the cache) and runs a statement, calling `row` for each result row.
    func query(_ sql: String, _ bindings: [SQLValue], row: (SQLiteRow) throws -> Void) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let number): rc = sqlite3_bind_int64(statement, index, number)
            // With its byte count, not -1: a text holding U+0000 (JSON allows "\u0000") is stored whole rather than
            // cut at the NUL, where two different ids would become one.
            case .text(let text): rc = tolt_sqlite_bind_text(statement, index, text, Int32(text.utf8.count))
            case .bytes(let bytes):
                rc = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), tolt_sqlite_transient())
                }
            case .array: throw StoreError.database("SQLite binds no arrays, in \(sql)")
            }
            guard rc == SQLITE_OK else { throw StoreError.database(lastError) }
        }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw Self.error(lastError, code: rc) }
            try row(SQLiteRow(statement: statement!))
        }
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Why this process may not read and write the store's files, when that is why it cannot open them: a file (or
    /// its write-ahead log) made by another user, as `tolt-edge import` run as root makes it, and the service's user
    /// then opens. SQLite says only "unable to open database file", which a start took for a store out of reach for
    /// now and retried for ever, answering `503`; no retry mends an owner.
    private static func permissionProblem(_ path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let candidates = [(directory, W_OK | X_OK)] + [path, path + "-wal", path + "-shm"].map { ($0, R_OK | W_OK) }
        for (file, mode) in candidates where access(file, F_OK) == 0 && access(file, mode) != 0 && errno == EACCES {
            var status = stat()
            let owner = stat(file, &status) == 0 ? Self.described(status.st_uid) : "another user"
            let me = geteuid()
            // The directory wants its owner changed, not the files (which it may not hold yet).
            let mend = file == directory ? directory : "\(path)*"
            return "permission denied: \(file) belongs to \(owner), and this process runs as \(Self.described(me)): "
                + "give it to the user that runs tolt-edge (chown \(Self.name(me) ?? "\(me)") \(mend)), or run "
                + "tolt-edge as its owner"
        }
        return nil
    }

    private static func name(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    private static func described(_ uid: uid_t) -> String {
        name(uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    }

    /// The store's error for a failed call: ``StoreError/unavailable(_:)`` when the file is locked by another
    /// connection past the busy timeout, or cannot be opened (another process holds it, it is out of reach for now),
    /// so a node starts without it and retries; ``StoreError/database(_:)`` for the rest (a file that is not a
    /// database, a broken statement), which stops a start.
    private static func error(_ message: String, code: Int32) -> StoreError {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN, SQLITE_PERM: return .unavailable(message)
        default: return .database(message)
        }
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer? {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Self.error("\(lastError) in \(sql)", code: sqlite3_errcode(handle))
        }
        statements[sql] = statement
        return statement
    }
}

/// The current row of a running statement.
struct SQLiteRow: StoreRow {
    let statement: OpaquePointer

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(statement, column) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
