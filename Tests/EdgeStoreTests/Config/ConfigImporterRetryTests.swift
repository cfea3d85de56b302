import EdgeStore
import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

/// An import another writer keeps getting ahead of: planned again after each conflict, ``ConfigImporter/
/// maximumRetries`` times with a jittered wait before each, then given up with the conflict, nothing written.
@Suite struct ConfigImporterRetryTests {
    @Test(arguments: StoreKind.allCases) func anImportThatLosesEveryRetryThrowsTheConflictAndWritesNothing(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let other = try fixture.reopen()
        let document = try ConfigDocument(
            json: Array(#"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","app_name":"Lost"}]}]}"#.utf8)
        )
        let plans = Mutex(0)
        let started = ContinuousClock.now
        #expect {
            // Every plan is followed by another writer's commit, before this import can write.
            try ConfigImporter.importDocument(document, into: fixture.store) { _ in
                plans.withLock { $0 += 1 }
                try other.applyConfig(ConfigChanges(), expectedRevision: try other.configRevision())
            }
        } throws: { ($0 as? StoreError)?.isConflict == true }
        #expect(plans.withLock { $0 } == ConfigImporter.maximumRetries + 1)
        #expect(ContinuousClock.now - started < .seconds(2), "the waits stay short")
        #expect(try fixture.store.configRecords().programs.first { $0.id == "prg_acme" }?.appName == nil)
        // Once the other writer stops, the same import goes through.
        try ConfigImporter.importDocument(document, into: fixture.store)
        #expect(try fixture.store.configRecords().programs.first { $0.id == "prg_acme" }?.appName == "Lost")
    }
}
