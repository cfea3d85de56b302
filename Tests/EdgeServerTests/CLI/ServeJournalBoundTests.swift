import EdgeStore
import Foundation
import TestSupport
import Testing

/// `serve --journal-max-bytes`: a size that does not parse is a usage error (exit 2) that starts nothing; a valid one
/// is the bound the start-up log and `/metrics` show, beside the node's id.
@Suite struct ServeJournalBoundTests {
    @Test func aSizeThatDoesNotParseIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for size in ["5MB", "0", "1.5GiB", "-1"] {
            let result = try ChildProcess.run(
                ["serve", "--port", "0", "--data", directory.path + "/data", "--journal-max-bytes", size],
                outputIn: directory.path)
            #expect(result.status == 2, "\(size)")
            #expect(result.stderr.contains("--journal-max-bytes must be bytes"), "\(size): \(result.stderr)")
        }
    }

    /// A bound that parses but cannot hold one click of the largest size per loop would answer every tap 503 with a
    /// healthy store, logging "journal full … the store is not taking clicks fast enough": a usage error instead.
    @Test func aBoundTooSmallForOneClickPerLoopIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let least = JournalRoom.minimumBytes(writers: 2)
        for size in ["1", "1KiB", String(least - 1)] {
            let result = try ChildProcess.run(
                [
                    "serve", "--port", "0", "--threads", "2", "--data", directory.path + "/data",
                    "--journal-max-bytes", size,
                ],
                outputIn: directory.path)
            #expect(result.status == 2, "\(size)")
            #expect(
                result.stderr.contains("--journal-max-bytes \(size) is too small for 2 threads: at least \(least)"),
                "\(size): \(result.stderr)")
        }
        #expect(least == 2 * JournalRoom.minimumBytes(writers: 1) && least < 32 << 10, "the outage test's 32KiB fits")
    }

    @Test func theBoundAndTheNodeIDAreInTheStartUpLogAndTheMetrics() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let server = try ChildServer(
            dataDirectory: data.path, outputIn: data.path, label: "bound-log",
            arguments: ["--journal-max-bytes", "3GiB"])
        defer { server.kill() }
        let nodeID = try String(contentsOfFile: data.path + "/node-id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(nodeID.count == 32)
        #expect(server.child.stderr.contains("node \(nodeID) "), "\(server.child.stderr)")
        #expect(server.child.stderr.contains("at most 3 GiB not yet in the store"), "\(server.child.stderr)")
        let scrape = try MetricsTests.scrape(server.client())
        #expect(scrape.value("tolt_edge_journal_max_bytes") == Double(3 << 30))
        #expect(scrape.value("tolt_edge_journal_full") == 0)
    }
}
