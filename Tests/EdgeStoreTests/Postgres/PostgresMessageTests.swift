import Testing

@testable import EdgeStore

/// libpq's multi-line messages as one line: the messages libpq 15 writes, as it writes them.
@Suite struct PostgresMessageTests {
    @Test(arguments: [
        (
            "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running on that "
                + "host and accepting TCP/IP connections?\n",
            "connection to server at \"127.0.0.1\", port 1 failed: Connection refused. Is the server running on that "
                + "host and accepting TCP/IP connections?"
        ),
        (
            "FATAL:  terminating connection due to administrator command\n",
            "FATAL: terminating connection due to administrator command"
        ),
        (
            "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n"
                + "\tbefore or while processing the request.\n",
            "server closed the connection unexpectedly. This probably means the server terminated abnormally before or "
                + "while processing the request."
        ),
        (
            "ERROR:  relation \"x\" does not exist\nLINE 1: SELECT * FROM x\n",
            "ERROR: relation \"x\" does not exist. LINE 1: SELECT * FROM x"
        ),
        ("a line ended by a colon:\n\tContinued\n", "a line ended by a colon: Continued"),
        ("", ""), ("\n\t \n", ""), ("one line", "one line"),
    ])
    func aMessageIsOneLineWithoutTabs(message: String, expected: String) {
        let line = PostgresMessage.oneLine(message)
        #expect(line == expected)
        #expect(!line.contains("\n") && !line.contains("\t") && !line.contains("  "))
    }
}

extension PostgresMessageTests {
    /// The notice sink was a closure held in a `Mutex` itself, which grew a reabstraction thunk at every notice
    /// (see `MetricsTextTests.readingTheRefusedClaimsCountManyTimesGrowsNothing`); 300,000 notices then a new sink
    /// now release nothing but the closure that was set, where the old code crashes on the chain. (The sink is the
    /// process's: a server started by another test meanwhile may take the notices, so they are not counted here.)
    @Test func manyNoticesGrowNothingInTheSink() {
        let quiet: @Sendable (String) -> Void = { _ in }
        PostgresNotices.route(to: quiet)
        for _ in 0..<300_000 { PostgresNotices.emit("NOTICE: x", target: "db") }
        PostgresNotices.route(to: PostgresNotices.standardError)
    }
}
