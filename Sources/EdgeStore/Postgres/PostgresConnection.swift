internal import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection that re-establishes itself.
///
/// A lost connection (the server restarted, the network dropped) is noticed when a statement fails with the
/// connection gone; the next call connects again, at most once per back-off step (50 ms doubling to 2 s), and
/// until it succeeds every call throws ``StoreError/unavailable(_:)`` at once instead of waiting: the API answers
/// `503`, the ingester keeps the journal. Statements are prepared once per connection (`PQprepare`) and run with
/// their parameters in text format (`PQexecPrepared`); a new connection prepares them again.
///
/// `@unchecked Sendable`: the connection is only ever used inside ``PostgresStore``'s `Mutex`, so one thread at a
/// time touches it and its statement cache.
final class PostgresConnection: StoreConnection, @unchecked Sendable {
    private let target: PostgresURL
    private var handle: OpaquePointer?
    /// Statement names by SQL text, for this connection only.
    private var statements: [String: String] = [:]
    /// What this connection's notices name (``PostgresNotices``); outlives `handle`, which holds it unretained.
    private let noticeContext: PostgresNotices.Context
    /// Channels to `LISTEN` on, again after every reconnect.
    private var channels: [String] = []
    private var retryDelay = 0.0
    private var nextAttempt = 0.0
    private var lastFailure = ""
    private var inTransaction = false
    /// Rows changed by the last statement (`PQcmdTuples`).
    private(set) var changes = 0
    /// The SQLSTATE of the last failed statement, for callers that retry (serialization failures, deadlocks).
    private(set) var lastSQLState = ""

    /// The longest wait between two connection attempts.
    static let maximumRetryDelay = 2.0

    /// Connects now when it can; when the server cannot be reached the first call throws `unavailable` and the
    /// calls after it try again, so a node can start while the database is down.
    init(url: PostgresURL) {
        target = url
        noticeContext = PostgresNotices.Context(target: url.masked)
        _ = try? ensureConnected()
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is up now (without trying to connect).
    var isConnected: Bool { handle != nil && PQstatus(handle) == CONNECTION_OK }

    /// Connects when the connection is down and the back-off allows a new attempt; throws `unavailable` otherwise.
    func ensureConnected() throws(StoreError) {
        if isConnected {
            guard !inTransaction, isClosedByServer else { return }
            dropConnection("the server closed the connection")
        }
        let now = Clock.monotonicSeconds()
        guard now >= nextAttempt else {
            throw .unavailable("PostgreSQL at \(target.masked) cannot be reached: \(lastFailure)")
        }
        PQfinish(handle)
        statements = [:]
        inTransaction = false
        handle = target.withConnectionParameters { keywords, values in PQconnectdbParams(keywords, values, 1) }
        guard isConnected else {
            lastFailure = handle.map { Self.oneLine(PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(handle)
            handle = nil
            retryDelay = retryDelay == 0 ? 0.05 : min(retryDelay * 2, Self.maximumRetryDelay)
            nextAttempt = now + retryDelay
            throw .unavailable("PostgreSQL at \(target.masked) cannot be reached: \(lastFailure)")
        }
        retryDelay = 0
        nextAttempt = 0
        // The server's notices (a shutdown's FATAL to idle connections) go to the log as one line, not to stderr bare.
        _ = PQsetNoticeProcessor(
            handle, PostgresNotices.processor, Unmanaged.passUnretained(noticeContext).toOpaque())
        for channel in channels { try execute("LISTEN \(channel)") }
    }

    /// Whether an idle connection was closed by the server (a restart sends a last error and closes the socket):
    /// then the next statement reconnects first instead of failing once on the dead socket. A zero-timeout `poll`;
    /// what it reads (a notification, say) stays queued for `PQnotifies`.
    private var isClosedByServer: Bool {
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return PQconsumeInput(handle) == 0 || PQstatus(handle) != CONNECTION_OK
    }

    /// Runs statements without parameters and without rows (DDL, `BEGIN`, `LISTEN`): the simple query protocol,
    /// which takes several statements at once. Waits at most ``answerTimeout`` for the answer.
    func execute(_ sql: String) throws(StoreError) {
        try execute(sql, patient: false)
    }

    /// ``execute(_:)``; `patient`: wait for the answer however long it takes (a migration's DDL, or its advisory lock
    /// held by another node migrating).
    func execute(_ sql: String, patient: Bool) throws(StoreError) {
        try retryingOnLostConnection { () throws(StoreError) in
            try ensureConnected()
            guard PQsendQuery(handle, sql) == 1 else { throw sendFailed(sql) }
            let result = try awaitAnswer(patient: patient)
            defer { PQclear(result) }
            try check(result, sql: sql)
        }
    }

    /// The longest a statement's answer is awaited. A server that stopped answering without closing its connections
    /// (a frozen process, a partition that sends no reset) is noticed here: the connection is dropped and the call
    /// throws `unavailable`, so an API request gets its `503` in seconds, not when the server wakes up. Every statement
    /// the store runs outside migrations is a short one (the server's own `statement_timeout` is 30 s).
    static let answerTimeout = 5.0

    /// The result of the query sent last (the last one of several statements), read without blocking longer than
    /// ``answerTimeout`` in all (unless `patient`); a connection that gives no answer in time is dropped.
    private func awaitAnswer(patient: Bool = false) throws(StoreError) -> OpaquePointer? {
        let deadline = Clock.monotonicSeconds() + Self.answerTimeout
        func wait(for events: Int32) throws(StoreError) {
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(events), revents: 0)
            while true {
                let left = patient ? 1.0 : deadline - Clock.monotonicSeconds()
                guard left > 0 else {
                    dropConnection("no answer within \(Int(Self.answerTimeout)) s")
                    // Not again at once: a frozen server would hold the next call as long (a connect waits 3 s).
                    nextAttempt = Clock.monotonicSeconds() + Self.maximumRetryDelay
                    throw .unavailable(
                        "PostgreSQL at \(target.masked) gave no answer within \(Int(Self.answerTimeout)) s")
                }
                let ready = poll(&descriptor, 1, Int32(min(left, 1.0) * 1000) + 1)
                if ready > 0 { return }
                if ready < 0 && errno != EINTR { break }
            }
            try markBrokenIfDown(message: "poll failed: errno \(errno)")
        }
        func consume() throws(StoreError) {
            guard PQconsumeInput(handle) == 1 else {
                let message = Self.oneLine(PQerrorMessage(handle))
                dropConnection(message)
                throw .unavailable("PostgreSQL at \(target.masked) was lost: \(message)")
            }
        }
        // The query may not have gone out whole (a large batch): flush first.
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            if flushed < 0 { try consume() }
            try wait(for: POLLIN | POLLOUT)
            try consume()
        }
        var last: OpaquePointer?
        while true {
            while PQisBusy(handle) == 1 {
                try wait(for: POLLIN)
                try consume()
            }
            guard let result = PQgetResult(handle) else { return last }
            PQclear(last)
            last = result
        }
    }

    /// The error for a query libpq would not send: the connection is gone (then `unavailable`) or broken.
    private func sendFailed(_ sql: String) -> StoreError {
        let message = Self.oneLine(PQerrorMessage(handle))
        if handle == nil || PQstatus(handle) == CONNECTION_BAD {
            dropConnection(message)
            return .unavailable("PostgreSQL at \(target.masked) was lost: \(message)")
        }
        return .database(message.isEmpty ? "PostgreSQL refused \(sql)" : message)
    }

    /// Runs `body` again, once, on a new connection when it failed because the connection was lost, unless a
    /// transaction was open (its work is gone: the caller's transaction fails as a whole). Outside a transaction
    /// every statement this store runs is `BEGIN`, a read, or idempotent (an upsert, a delete by key, a bounded
    /// delete of old clicks), so running it again is safe; and a server that restarted fails the first statement
    /// on the old connection before running it. Without this, the first request after a restart would get a 503.
    private func retryingOnLostConnection<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let wasInTransaction = inTransaction
        do {
            return try body()
        } catch  where error.isUnavailable && !wasInTransaction && handle == nil && nextAttempt == 0 {
            return try body()
        }
    }

    /// Runs `body` inside `BEGIN … COMMIT`, rolling back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        lastSQLState = ""
        try execute("BEGIN")
        inTransaction = true
        defer { inTransaction = false }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction: one snapshot for every statement. (Through
    /// ``transaction(_:)``, so that the connection knows one is open and never retries a read inside it on a new
    /// connection, which would mix two snapshots.)
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction {
            try execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return try body()
        }
    }

    /// Runs `body` in a transaction, again (up to `attempts` times) when PostgreSQL aborted it for a serialization
    /// failure or a deadlock, which retrying resolves.
    func retryingTransaction<T>(attempts: Int = 5, _ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try transaction(body)
            } catch is StoreError where attempt < attempts && ["40001", "40P01"].contains(lastSQLState) {
                attempt += 1
            }
        }
    }

    /// Prepares (once per connection) and runs a statement with its parameters, calling `row` for each result row.
    /// `sql` numbers its parameters as SQLite does (`?`, `?2`); they become `$n` here.
    func query(_ sql: String, _ bindings: [SQLValue], row: (PostgresRow) throws -> Void) throws {
        var result: OpaquePointer?
        try retryingOnLostConnection { () throws(StoreError) in
            PQclear(result)
            result = nil
            try ensureConnected()
            result = try run(sql, bindings)
        }
        defer { PQclear(result) }
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        let count = PQntuples(result)
        var index: Int32 = 0
        while index < count {
            try row(PostgresRow(result: result!, row: index))
            index += 1
        }
    }

    /// Prepares (when new) and runs one statement; returns its result, which the caller clears.
    private func run(_ sql: String, _ bindings: [SQLValue]) throws(StoreError) -> OpaquePointer? {
        let name = try prepared(sql, parameterCount: bindings.count)
        var texts: [UnsafeMutablePointer<CChar>?] = []
        texts.reserveCapacity(bindings.count)
        defer { for text in texts { free(text) } }
        for value in bindings {
            guard let text = try value.postgresText else {
                texts.append(nil)
                continue
            }
            texts.append(strdup(text))
        }
        let sent = texts.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                PQsendQueryPrepared(handle, name, Int32(bindings.count), $0.baseAddress, nil, nil, 0)
            }
        }
        guard sent == 1 else { throw sendFailed(sql) }
        let result = try awaitAnswer()
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    /// Listens on `channel` (a fixed identifier, never user input) from now on and after every reconnect.
    func listen(_ channel: String) throws(StoreError) {
        guard !channels.contains(channel) else { return }
        channels.append(channel)
        try execute("LISTEN \(channel)")
    }

    /// Waits up to `seconds` for a notification on a channel ``listen(_:)`` named; returns whether one came.
    /// Throws `unavailable` when the connection is down (then the caller waits and asks again).
    func waitForNotification(seconds: Double) throws(StoreError) -> Bool {
        try ensureConnected()
        if drainNotifications() { return true }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, min(seconds, 60)) * 1000))
        guard ready > 0 else { return false }
        guard PQconsumeInput(handle) == 1 else {
            try markBrokenIfDown(message: Self.oneLine(PQerrorMessage(handle)))
            return false
        }
        return drainNotifications()
    }

    private func drainNotifications() -> Bool {
        var any = false
        while let notification = PQnotifies(handle) {
            PQfreemem(notification)
            any = true
        }
        return any
    }

    private func prepared(_ sql: String, parameterCount: Int) throws(StoreError) -> String {
        if let name = statements[sql] { return name }
        let name = "tolt_\(statements.count + 1)"
        guard PQsendPrepare(handle, name, PostgresPlaceholders.numbered(sql), Int32(parameterCount), nil) == 1 else {
            throw sendFailed(sql)
        }
        let result = try awaitAnswer()
        defer { PQclear(result) }
        try check(result, sql: sql)
        statements[sql] = name
        return name
    }

    /// Throws for a failed result: `unavailable` when the connection is gone (it reconnects on the next call) or
    /// the server is shutting down or starting, `database` otherwise.
    private func check(_ result: OpaquePointer?, sql: String) throws(StoreError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        let message = result.map { Self.oneLine(PQresultErrorMessage($0)) } ?? Self.oneLine(PQerrorMessage(handle))
        lastSQLState = result.flatMap { tolt_pq_sqlstate($0).map { String(cString: $0) } } ?? ""
        try markBrokenIfDown(message: message)
        // Class 08: connection exceptions; 57P01–57P03: the server is shutting down, crashed, or not yet up.
        if lastSQLState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(lastSQLState) {
            dropConnection(message)
            throw .unavailable("PostgreSQL at \(target.masked) is unavailable: \(message)")
        }
        throw .database(message.isEmpty ? "PostgreSQL refused \(sql)" : message)
    }

    private func markBrokenIfDown(message: String) throws(StoreError) {
        guard handle == nil || PQstatus(handle) == CONNECTION_BAD else { return }
        dropConnection(message)
        throw .unavailable("PostgreSQL at \(target.masked) was lost: \(message)")
    }

    /// Forgets a connection that failed; the next call reconnects (at once: the first retry has no delay).
    private func dropConnection(_ message: String) {
        PQfinish(handle)
        handle = nil
        statements = [:]
        lastFailure = message
        nextAttempt = 0
    }

    /// libpq's message as one line (``PostgresMessage``).
    private static func oneLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        return PostgresMessage.oneLine(String(cString: message))
    }
}

/// The current row of a result, every value in text format.
struct PostgresRow: StoreRow {
    let result: OpaquePointer
    let row: Int32

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }

    /// An integer column (bigint, integer, or a numeric sum without fraction).
    func int(_ column: Int32) -> Int64 {
        guard let pointer = PQgetvalue(result, row, column) else { return 0 }
        var value: Int64 = 0
        var negative = false
        var cursor = pointer
        if cursor.pointee == 0x2D {  // "-"
            negative = true
            cursor += 1
        }
        while cursor.pointee >= 0x30 && cursor.pointee <= 0x39 {
            value = value &* 10 &+ Int64(cursor.pointee - 0x30)
            cursor += 1
        }
        return negative ? -value : value
    }

    func text(_ column: Int32) -> String {
        guard let pointer = PQgetvalue(result, row, column) else { return "" }
        let count = Int(PQgetlength(result, row, column))
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// A bytea column, from its text form `\x<hex>`.
    func bytes(_ column: Int32) -> [UInt8]? {
        let hex = text(column)
        guard hex.hasPrefix("\\x") else { return nil }
        return Hex.decode(String(hex.dropFirst(2)))
    }
}
