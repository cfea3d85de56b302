import EdgeStore
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `tolt-edge serve` as a child process: killed with SIGKILL under load it loses no answered click
/// and doubles none; stopped with SIGTERM it drains its journal and exits 0.
@Suite(.serialized) struct CrashRecoveryTests {
    /// A data directory with the standard configuration imported, as `tolt-edge import` would leave it (the
    /// test's store connection closed again, as that process's would be).
    static func dataDirectory() throws -> TemporaryDirectory {
        try StoreFixture(importing: ConfigFixtures.standard).temporaryDirectory
    }

    /// Every click id in the store of `directory`, as the file holds them.
    static func storedIDs(_ directory: String) throws -> [String] {
        try SQLiteStore(directory: directory).allClicks().map(\.id)
    }

    /// Journal segments that hold at least one record: more than the 16-byte segment header.
    static func segmentsWithRecords(_ directory: String) -> [String] {
        let journal = directory + "/journal"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? []
        return names.filter { name in
            guard name.hasSuffix(".journal"),
                let size = try? FileManager.default.attributesOfItem(atPath: journal + "/" + name)[.size] as? Int
            else { return false }
            return size > 16
        }
    }

    @Test func aServerKilledUnderLoadLosesNoAnsweredClickAndDoublesNone() throws {
        let data = try Self.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        // Repeat taps off: every answered tap must be a stored click of its own (one visitor's taps would share ids).
        let first = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "first", arguments: ["--dedupe-window", "0"])
        defer { first.kill() }
        let connections = 8
        let load = LoadResults()
        let finished = DispatchGroup()
        let port = first.port
        for _ in 0..<connections {
            finished.enter()
            TestThread.start(name: "crash-load") {
                defer { finished.leave() }
                let client = HTTPClient(port: port)
                while true {
                    guard
                        let response = try? client.request(
                            "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
                    else { return }  // the server is gone
                    guard response.status == 302, let id = LinkResponses.clickID(in: response) else {
                        load.malformed.add(1, ordering: .relaxed)
                        continue
                    }
                    load.ids.withLock { $0.append(id) }
                }
            }
        }
        // Load for a while, with at least some hundreds of answered clicks, then kill without warning.
        let loadStart = TestClock.now()
        while TestClock.now() - loadStart < 1.5 || load.ids.withLock({ $0.count }) < 300 {
            guard TestClock.now() - loadStart < 10 else { break }
            usleep(50_000)
        }
        first.child.signal(SIGKILL)
        #expect(finished.wait(timeout: .now() + 15) == .success, "every load thread saw the server go")
        let exit = try #require(first.child.waitForExit(within: 5))
        #expect(exit.signaled && exit.status == SIGKILL)
        let received = load.ids.withLock { $0 }
        #expect(load.malformed.load(ordering: .relaxed) == 0)
        #expect(received.count >= 300, "enough load reached the server: \(received.count)")
        #expect(Set(received).count == received.count, "no click id was handed out twice")

        // A second run dies too, just after it starts moving the first run's journal into the store.
        // The restarted servers ingest the journal with their own window: off too, or the ingester would count one
        // visitor's taps on two loops as repeats (and not list them).
        let second = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "second", arguments: ["--dedupe-window", "0"])
        defer { second.kill() }
        usleep(30_000)
        second.kill()

        // A third run settles: the journal of both earlier runs is ingested and deleted.
        let third = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "third", arguments: ["--dedupe-window", "0"])
        defer { third.kill() }
        let settled = eventually(within: 20) { Self.segmentsWithRecords(directory).isEmpty }
        #expect(settled, "the journal was ingested: \(Self.segmentsWithRecords(directory)) \(third.child.stderr)")
        let stored = try Self.storedIDs(directory)
        let storedSet = Set(stored)
        #expect(storedSet.count == stored.count, "no click is stored twice")
        let lost = Set(received).subtracting(storedSet)
        #expect(lost.isEmpty, "\(lost.count) answered clicks were lost, e.g. \(lost.prefix(3))")
        // Requests journaled whose responses the kill cut off: at most one in flight per connection.
        #expect(stored.count - received.count <= connections, "stored \(stored.count), answered \(received.count)")

        #expect(third.stop()?.status == 0)
    }

    @Test func sigtermDrainsTheJournalAndExitsZero() throws {
        let data = try Self.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        // Repeat taps off: the 90 taps are three visitors' repeats otherwise.
        let server = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "serve", arguments: ["--dedupe-window", "0"])
        defer { server.kill() }
        let client = server.client()
        var ids: [String] = []
        for index in 0..<90 {
            let (path, agent) = [
                ("/a/pk_acme/SAM20", Agents.iPhone), ("/a/pk_acme/LEE", Agents.android),
                ("/a/pk_acme/LEE", Agents.desktop),
            ][index % 3]
            let response = try client.request("GET", path, headers: [("User-Agent", agent)])
            if let id = LinkResponses.clickID(in: response) { ids.append(id) } else { #expect(response.status == 200) }
        }
        #expect(ids.count == 60)
        // SIGTERM with a kept-alive connection still open.
        let exit = server.stop()
        #expect(exit?.status == 0 && exit?.signaled == false, "\(server.child.stderr)")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/journal")) ?? []
        #expect(leftovers.filter { $0.hasSuffix(".journal") }.isEmpty, "journal segments left: \(leftovers)")
        let stored = try Self.storedIDs(directory)
        #expect(stored.count == 90, "every click, the fallback page's included")
        #expect(Set(ids).isSubset(of: Set(stored)))
        withExtendedLifetime(client) {}
    }
}

extension CrashRecoveryTests {
    /// A journal write that fails (here: a file-size limit, as a full disk would) answers the taps it held
    /// with 503, never as recorded; the server keeps going on a new segment; and after a restart the store
    /// holds exactly the clicks that were answered with a redirect: none lost, none from a 503.
    @Test func aJournalWriteThatFailsAnswers503AndStoresExactlyTheAnsweredClicks() throws {
        let data = try Self.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        // About 250 clicks fit in 64 KiB, so each segment fills up and its next write fails.
        // Repeat taps off: every answered tap must be a stored click of its own.
        let limited = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "limited", arguments: ["--dedupe-window", "0"],
            fileSizeLimit: 64 << 10)
        defer { limited.kill() }
        let client = limited.client()
        var answered: [String] = []
        var refused = 0
        for _ in 0..<1500 {
            let response = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
            if response.status == 503 {
                refused += 1
                #expect(response.header("content-type")?.hasPrefix("application/json") == true)
                #expect(response.text.contains("\"unavailable\""), "\(response.text)")
                #expect(response.header("location") == nil)
                continue
            }
            #expect(response.status == 302)
            answered.append(try #require(LinkResponses.clickID(in: response)))
        }
        #expect(refused >= 2, "the file-size limit made journal writes fail: \(refused) refused")
        #expect(answered.count >= 1400, "the server went on after each failure: \(answered.count) answered")
        #expect(limited.child.process.isRunning, "SIGXFSZ did not kill the server")
        limited.kill()

        let settled = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "settled", arguments: ["--dedupe-window", "0"])
        defer { settled.kill() }
        var stored: [String] = []
        let complete = eventually(within: 20) {
            stored = (try? Self.storedIDs(directory)) ?? []
            return stored.count >= answered.count
        }
        #expect(complete, "stored \(stored.count) of \(answered.count): \(settled.child.stderr)")
        #expect(stored.count == answered.count && Set(stored) == Set(answered), "no refused tap became a click")
        #expect(settled.stop()?.status == 0)
    }
}

/// What the load threads saw: the click id of every answered request, and answers that were not a redirect.
final class LoadResults: Sendable {
    let ids = Mutex<[String]>([])
    let malformed = Atomic<Int>(0)
}
