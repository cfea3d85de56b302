import Foundation
import TestSupport
import Testing

@testable import EdgeStore

/// A node that started while PostgreSQL was down, whose store a newer build migrated meanwhile (a rolling upgrade
/// the node was not part of): once the store is back, the node is refused as it would have been at start-up, and
/// `serve` exits 1 saying why, rather than answer `503` for good.
@Suite struct PostgresRefusalTests {
    @Test func aNodeThatFindsANewerSchemaOnceTheStoreIsBackExits1() throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try PostgresOutageLogTests.migratedCluster(cluster)
        let newer = PostgresMigrations.steps.count + 1
        try PostgresStore(url: url).withConnection { db in
            try db.execute("INSERT INTO schema_migrations (version) VALUES (\(newer))")
            try db.execute("UPDATE meta SET value = '\(newer)' WHERE key = 'compatible_schema_version'")
        }
        try cluster.stop()
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let server = try ChildServer(
            dataDirectory: data.path + "/data", outputIn: data.path, label: "pgrefused",
            arguments: ["--store", url.unmasked], within: 40)
        defer { server.kill() }
        #expect(
            eventually(within: 20) { server.child.stderr.contains("no configuration yet") }, "\(server.child.stderr)")

        try cluster.start()
        let exit = server.child.waitForExit(within: 60)
        #expect(exit?.status == 1 && exit?.signaled == false, "\(String(describing: exit)) \(server.child.stderr)")
        let stderr = server.child.stderr
        #expect(stderr.contains("the store refuses this build: the PostgreSQL store at "), "\(stderr)")
        #expect(stderr.contains("is at schema version \(newer), from a newer tolt-edge"), "\(stderr)")
        #expect(stderr.contains("stopping: "), "\(stderr)")
    }
}
