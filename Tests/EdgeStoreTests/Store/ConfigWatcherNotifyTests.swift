import EdgeStore
import LinkCore
import Synchronization
import TestSupport
import Testing

/// A change another process imports reaches a watcher's table within 2 seconds: on PostgreSQL through
/// `NOTIFY tolt_config` (the revision fallback is set to an hour here, so only the notification can bring it), on
/// SQLite through the revision poll.
@Suite struct ConfigWatcherNotifyTests {
    @Test(arguments: StoreKind.allCases) func anImportThroughAnotherConnectionReachesTheWatcherWithinTwoSeconds(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let watcher = try ConfigWatcher(store: try fixture.reopen())
        let finished = Mutex(false)
        TestThread.start(name: "config-watcher") {
            watcher.run(interval: 0.25, fallbackInterval: 3600)
            finished.withLock { $0 = true }
        }
        defer {
            watcher.stop()
            _ = eventually(within: 5) { finished.withLock { $0 } }
        }
        for round in 1...3 {
            let before = watcher.generation
            try fixture.importJSON(
                """
                {"organizations":[{"id":"org_acme","name":"Acme \(round)","public_key":"pk_acme"}]}
                """, into: try fixture.reopen())
            #expect(eventually(within: 2) { watcher.generation > before }, "round \(round)")
            #expect(watcher.table.revision == (try fixture.store.configRevision()))
        }
    }
}
