import TestSupport
import Testing

@testable import EdgeStore

/// The shared value type (`SQLValue`) has a case only PostgreSQL can bind: a batch as one array parameter.
@Suite struct SQLiteBindingTests {
    /// SQLite refuses an array binding with a `database` error before the statement runs, so nothing is written.
    @Test func anArrayBindingIsRefusedAndWritesNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let error = #expect(throws: StoreError.self) {
            try fixture.sqliteStore.withConnection { db in
                try db.query(
                    "INSERT INTO journal_checkpoints (segment, byte_offset) VALUES (?, ?)",
                    [.text("node/a"), .array([.integer(1), .integer(2)])])
            }
        }
        #expect(error?.code == "database")
        #expect(try fixture.store.journalOffset(segment: "node/a") == 0)
    }
}
