import Synchronization
import TestSupport
import Testing

@testable import EdgeStore

/// A watcher started without a configuration (its store down at start-up): empty and not loaded, generation 0, until
/// a load succeeds; then it serves and follows the store as usual. Preparation (migrating) runs before every attempt
/// until one succeeds, and never again after.
@Suite struct ConfigWatcherStartTests {
    @Test func aWatcherStartedWithoutItsStoreLoadsOnceTheStoreIsReachable() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let reachable = Atomic<Bool>(false)
        let preparations = Atomic<Int>(0)
        let directory = fixture.directory
        let store = DeferredStore {
            guard reachable.load(ordering: .relaxed) else { throw StoreError.unavailable("the database is down") }
            return try SQLiteStore(directory: directory)
        }
        let log = LogLines()
        let watcher = ConfigWatcher(
            store: store, preparing: { preparations.wrappingAdd(1, ordering: .relaxed) }, log: log.append)
        #expect(!watcher.isLoaded && watcher.generation == 0)
        #expect(watcher.table.organizations.isEmpty)

        #expect(!watcher.loadFirst())
        #expect(!watcher.loadFirst())
        #expect(!watcher.isLoaded && watcher.generation == 0)
        #expect(log.lines.count == 1, "the first failure is logged, not each: \(log.lines)")
        #expect(log.lines.first?.contains("no configuration yet") == true)
        #expect(log.lines.first?.contains("the database is down") == true)

        reachable.store(true, ordering: .relaxed)
        #expect(watcher.loadFirst())
        #expect(watcher.isLoaded && watcher.generation == 1)
        #expect(watcher.table.organizations.count == 2)
        #expect(preparations.load(ordering: .relaxed) == 3)
        #expect(watcher.loadFirst(), "loaded stays loaded")
        #expect(preparations.load(ordering: .relaxed) == 3, "no preparation once loaded")

        // From now on it follows the store like any watcher.
        try fixture.importJSON(ConfigFixtures.standard.replacingOccurrences(of: "\"Sam\"", with: "\"Samantha\""))
        #expect(try watcher.refresh())
        #expect(watcher.generation == 2)
    }

    @Test func aWatcherLoadedAtInitIsLoadedFromItsFirstGeneration() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let watcher = try ConfigWatcher(store: try fixture.reopen())
        #expect(watcher.isLoaded && watcher.generation != 0)
    }
}

/// ``ConfigWatcher/install(_:)``, which the partner API calls with what its writer read back after an import: a newer
/// configuration is put in force at once, an older one never, and the watcher's own check goes on from there.
@Suite struct ConfigWatcherInstallTests {
    @Test func aNewerConfigurationIsInstalledAndAnOlderOneNever() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let watcher = try ConfigWatcher(store: fixture.store)
        let first = watcher.table.revision
        let older = try fixture.store.configRecords()
        #expect(!watcher.install(older), "the revision in force")

        try fixture.importJSON(ConfigFixtures.standard.replacingOccurrences(of: "\"Sam\"", with: "\"Samantha\""))
        let newer = try fixture.store.configRecords()
        #expect(newer.revision > first)
        #expect(watcher.install(newer))
        #expect(watcher.table.revision == newer.revision && watcher.generation == 2)
        #expect(!watcher.install(older), "never an older table back")
        #expect(watcher.table.revision == newer.revision)
        #expect(try !watcher.refresh(), "the check finds it current")

        try fixture.importJSON(ConfigFixtures.standard.replacingOccurrences(of: "\"Sam\"", with: "\"Sammy\""))
        #expect(try watcher.refresh())
        #expect(watcher.table.revision > newer.revision && watcher.generation == 3)
    }
}
