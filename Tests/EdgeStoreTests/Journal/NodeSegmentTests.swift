import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Nodes sharing one store: each data directory has its own node id, every segment's name carries it, and the store
/// never takes one node's segment for another's, even with the same loop and sequence numbers in one millisecond.
@Suite struct NodeSegmentTests {
    @Test func twoNodesSharingOneStoreNeverConfuseTheirSegments() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let other = try TemporaryDirectory()
        defer { other.remove() }
        // Two nodes of one process: same pid, and very likely the same millisecond, loop 0 and segment 1 each.
        let first = try ClickJournal(dataDirectory: fixture.directory)
        let second = try ClickJournal(dataDirectory: other.path)
        #expect(first.nodeID != second.nodeID)
        let writers = [first.makeWriter(stream: 0), second.makeWriter(stream: 0)]
        var expected: [ClickRecord] = []
        for number in 0..<40 { expected.append(ClickJournalTests.append(number, to: writers[number % 2])) }
        for writer in writers { writer.close() }

        let firstNames = first.segmentNames()
        let secondNames = second.segmentNames()
        #expect(firstNames.count == 1 && secondNames.count == 1)
        let (firstName, secondName) = (try #require(firstNames.first), try #require(secondNames.first))
        #expect(firstName != secondName)
        #expect(firstName.contains("-" + first.nodeID + "-") && secondName.contains("-" + second.nodeID + "-"))
        // Both end alike (sequence 1 of loop 0): the node id alone tells them apart.
        #expect(firstName.hasSuffix("-00000001-0.journal") && secondName.hasSuffix("-00000001-0.journal"))

        // Both nodes ingest into the one store, each with its own connection, twice over.
        for _ in 0..<2 {
            try ClickIngester(journal: first, store: try fixture.reopen()).pass()
            try ClickIngester(journal: second, store: try fixture.reopen()).pass()
        }
        let stored = try ClickJournalTests.stored(fixture.store)
        #expect(stored == expected.sorted { $0.id < $1.id }, "every click of both nodes, each once")
        #expect(first.segmentNames().isEmpty && second.segmentNames().isEmpty, "both segments consumed")
        #expect(try fixture.store.journalOffset(segment: first.checkpointKey(firstName)) == 0, "checkpoint forgotten")
    }

    @Test func aSegmentNamedBeforeNodeIDsIsStillIngested() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let writer = journal.makeWriter(stream: 1)
        let expected = (0..<5).map { ClickJournalTests.append($0, to: writer) }
        writer.close()
        // Renamed as builds before node ids named segments: <epoch-ms>-<pid>-<sequence>-<loop>.journal.
        let name = try #require(journal.segmentNames().first)
        let oldName = "1767225600000-4242-00000001-1.journal"
        try FileManager.default.moveItem(
            atPath: journal.directory + "/" + name, toPath: journal.directory + "/" + oldName)
        journal.release()  // the process ends
        let restarted = try ClickJournal.reopened(dataDirectory: fixture.directory)
        #expect(restarted.segmentNames() == [oldName])
        try ClickIngester(journal: restarted, store: try fixture.reopen()).pass()
        #expect(try ClickJournalTests.stored(fixture.store) == expected)
        #expect(restarted.segmentNames().isEmpty)
    }

    @Test func theNodeIDIsKeptPrivateAndCheckedWhenTheJournalOpens() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let journal = try ClickJournal(dataDirectory: data.path)
        let path = data.path + "/node-id"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(ClickJournal.isNodeID(journal.nodeID))
        journal.release()  // the process ends: the journals below are the next starts
        #expect(try ClickJournal.reopened(dataDirectory: data.path).nodeID == journal.nodeID, "made once")

        // An older build left it 0644: made private at the next start.
        chmod(path, 0o644)
        _ = try ClickJournal.reopened(dataDirectory: data.path)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)

        // Text that is not a node id (a path separator would make a checkpoint key ambiguous) stops the open.
        try "../other node\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try ClickJournal.reopened(dataDirectory: data.path)
        } throws: { error in
            "\(error)".contains("node-id does not hold a node id")
        }
    }

    /// A `node-id` file that is there but holds nothing (a restore or copy cut short) is not a missing one: taking a new
    /// id would start this node's segments over under new checkpoint keys, ingesting their clicks again (the copies
    /// are refused by id, but each still counts as a click in the stats). The open stops and leaves the file alone.
    @Test func anEmptyOrDanglingNodeIDFileStopsTheOpenAndIsLeftAlone() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let path = data.path + "/node-id"
        for text in ["", "\n", " \r\n\t\n"] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect {
                _ = try ClickJournal.reopened(dataDirectory: data.path)
            } throws: { error in
                "\(error)".contains("node-id does not hold a node id")
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "left as it was")
        }

        // A symbolic link to nothing (a volume not mounted yet) cannot be read: an error, and the link stays.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: data.path + "/elsewhere/node-id")
        #expect {
            _ = try ClickJournal.reopened(dataDirectory: data.path)
        } throws: { error in
            "\(error)".contains("cannot read \(path)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == data.path + "/elsewhere/node-id")
    }
}
