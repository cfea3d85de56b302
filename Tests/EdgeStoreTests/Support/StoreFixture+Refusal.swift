import EdgeStore
import TestSupport
import Testing

extension StoreFixture {
    /// Imports `json`, which must be refused as `invalid_config` with a message that starts with `path` (the field
    /// it names), having written nothing: the records and the revision as they were. What the suites of the
    /// importer's rules check of each invalid value, after importing the documents their values are measured against.
    func expectRefusal(of json: String, naming path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try store.configRecords()
        let revision = try store.configRevision()
        let error = try #require(throws: StoreError.self, sourceLocation: sourceLocation) { try importJSON(json) }
        #expect(error.code == "invalid_config", sourceLocation: sourceLocation)
        #expect(error.message.hasPrefix(path), "\(error.message)", sourceLocation: sourceLocation)
        #expect(try store.configRecords() == before, sourceLocation: sourceLocation)
        #expect(try store.configRevision() == revision, sourceLocation: sourceLocation)
    }
}
