import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// What the log says while PostgreSQL is away, read from the real `tolt-edge`'s standard error: libpq's notice of a
/// shutdown is a `tolt-edge:` line naming the database (never libpq's bare print), libpq's multi-line messages are
/// one clean line (no tab, no line break), and a node that starts while a migrated database is down says it has not
/// opened the store, not that the store is not migrated.
@Suite struct PostgresOutageLogTests {
    /// Starts `cluster`, migrates it and imports the standard configuration; returns its URL.
    static func migratedCluster(_ cluster: PostgresCluster) throws -> PostgresURL {
        let url = try cluster.start()
        let store = PostgresStore(url: url)
        try store.migrate()
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(ConfigFixtures.standard.utf8)), into: store)
        return url
    }

    /// Every line of `output` that is not a line of the log (`tolt-edge: …`).
    static func strayLines(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("tolt-edge: ") }
    }

    @Test func theNoticeOfAShutdownIsOneLineOfTheServersLog() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try Self.migratedCluster(cluster)
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let server = try ChildServer(
            dataDirectory: data.path + "/data", outputIn: data.path, label: "pgnotice",
            arguments: ["--store", url.unmasked])
        defer { server.kill() }
        let client = server.client()
        let secret = [("Authorization", "Bearer sk_acme_secret")]
        #expect(eventually(within: 20) { (try? client.request("GET", "/v1/clicks", headers: secret))?.status == 200 })

        // A fast shutdown sends every connection, the idle ones included, FATAL 57P01.
        try cluster.stop()
        let noticed = eventually(within: 20) {
            server.child.stderr.contains("says: FATAL: terminating connection due to administrator command")
        }
        #expect(noticed, "the notice, as a line of the log: \(server.child.stderr)")
        let notice = server.child.stderr.split(separator: "\n").first { $0.contains("says: FATAL:") } ?? ""
        #expect(notice.hasPrefix("tolt-edge: PostgreSQL at postgres://"), "\(notice)")
        #expect(Self.strayLines(server.child.stderr).isEmpty, "every line is the log's: \(server.child.stderr)")
        #expect(!server.child.stderr.contains("\t"), "\(server.child.stderr)")
    }

    @Test func aNodeStartedWhileAMigratedDatabaseIsDownSaysItHasNotOpenedTheStore() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try Self.migratedCluster(cluster)
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let secret = [("Authorization", "Bearer sk_acme_secret")]
        // A first node journals a click while the database is down, and is killed: its journal waits for the next.
        let first = try ChildServer(
            dataDirectory: data.path + "/data", outputIn: data.path, label: "pgfirst",
            arguments: ["--store", url.unmasked])
        defer { first.kill() }
        let firstClient = first.client()
        #expect(
            eventually(within: 20) { (try? firstClient.request("GET", "/v1/clicks", headers: secret))?.status == 200 })
        try cluster.stop()
        let tap = try firstClient.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        #expect(tap.status == 302)
        #expect(eventually(within: 20) { first.child.stderr.contains("store unavailable") }, "\(first.child.stderr)")
        first.kill(within: 10)

        // The next node starts while the (migrated) database is still down, and finds that click in the journal.
        let server = try ChildServer(
            dataDirectory: data.path + "/data", outputIn: data.path, label: "pgdown",
            arguments: ["--store", url.unmasked], within: 40)
        defer { server.kill() }
        let said = eventually(within: 20) {
            server.child.stderr.contains("store unavailable") && server.child.stderr.contains("no configuration yet")
        }
        #expect(said, "\(server.child.stderr)")
        let stderr = server.child.stderr
        #expect(!stderr.contains("not migrated"), "the database is migrated: \(stderr)")
        #expect(stderr.contains("this node has not opened the store since it started (last attempt: "), "\(stderr)")
        #expect(stderr.contains("Connection refused. Is the server running"), "libpq's hint, one line: \(stderr)")
        #expect(Self.strayLines(stderr).isEmpty && !stderr.contains("\t"), "\(stderr)")

        try cluster.start()
        let client = server.client()
        let stored = eventually(within: 30) {
            let list = try? client.request("GET", "/v1/clicks", headers: secret)
            return list?.status == 200 && (list?.jsonObject?["data"] as? [[String: Any]])?.count == 1
        }
        #expect(stored, "the click the first node journaled is stored: \(server.child.stderr)")
        #expect(server.stop(within: 20)?.status == 0, "\(server.child.stderr)")
    }

    @Test func aCommandsConnectionErrorIsOneCleanLine() throws {
        let output = try TemporaryDirectory()
        defer { output.remove() }
        // Port 1: nothing listens, so libpq's two-line "Connection refused" and its hint.
        let result = try ChildProcess.run(
            ["clicks", "--store", "postgres://tolt@127.0.0.1:1/tolt"], outputIn: output.path)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("\t"), "\(result.stderr)")
        #expect(result.stderr.contains("Connection refused. Is the server running on that host"), "\(result.stderr)")
    }
}
