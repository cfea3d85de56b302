import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// A click's whole address and User-Agent leave the journal soon after the click is stored (README, Privacy): the
/// loop seals its idle segment and the ingester deletes it, with no further tap to drive it.
@Suite struct JournalRetentionTests {
    /// The journal files under `directory` (a server's data directory) whose bytes hold `text`.
    static func journalFiles(under directory: String, holding text: String) -> [String] {
        let journal = directory + "/journal"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? []
        let needle = Data(text.utf8)
        return names.filter { name in
            guard let bytes = FileManager.default.contents(atPath: journal + "/" + name) else { return false }
            return bytes.range(of: needle) != nil
        }
    }

    /// Journal segment files present under a server's data directory.
    static func segments(under directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/journal")) ?? [])
            .filter { $0.hasSuffix(".journal") }
    }

    /// Taps with its own User-Agent, waits until `/v1/clicks` lists the click, and returns its id.
    static func tapAndWaitForListing(_ server: TestServer, agent: String) throws -> String {
        let response = try server.client().request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", agent)])
        let id = try #require(LinkResponses.clickID(in: response), "\(response.status)")
        let listed = try eventually(within: 10) {
            try ClickListingTests.ids(try ClickListingTests.list(server)).contains(id)
        }
        try #require(listed, "the click \(id) is listed")
        return id
    }

    @Test func aStoredClicksAddressAndUserAgentLeaveTheJournalWithinSecondsOnAnIdleServer() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let agent = Agents.iPhone + " retention/\(UInt64.random(in: 0...UInt64.max))"
        let id = try Self.tapAndWaitForListing(server, agent: agent)
        // The bound the README gives: the idle pause, then a pass of the ingester (a tenth of a second when idle);
        // the slack is for a loaded test machine.
        let bound = JournalWriter.idleSealSeconds + 5
        let gone = eventually(within: bound) {
            Self.journalFiles(under: server.directory, holding: agent).isEmpty
                && Self.segments(under: server.directory).isEmpty
        }
        #expect(gone, "still in the journal: \(Self.journalFiles(under: server.directory, holding: agent))")
        #expect(Self.journalFiles(under: server.directory, holding: "127.0.0.1").isEmpty, "nor the address")

        // A tap after the seal goes to a new segment, is stored once, and leaves the journal too.
        let later = Agents.iPhone + " retention-later/\(UInt64.random(in: 0...UInt64.max))"
        let second = try Self.tapAndWaitForListing(server, agent: later)
        #expect(eventually(within: bound) { Self.segments(under: server.directory).isEmpty })
        let stored = try server.storedClicks().map(\.id)
        #expect(stored.filter { $0 == id }.count == 1 && stored.filter { $0 == second }.count == 1, "\(stored)")
    }
}
