import LinkCore
import TestSupport
import Testing

extension StoreFixture {
    /// The stored program `id`, which the test must have imported.
    func program(_ id: String) throws -> ProgramRecord {
        try #require(try store.configRecords().programs.first { $0.id == id })
    }
}
