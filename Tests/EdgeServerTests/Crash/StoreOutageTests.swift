import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Holds an SQLite store locked against every other connection, readers included, as a shared database that is
/// down would refuse them: `locking_mode = EXCLUSIVE` keeps the exclusive lock a write transaction took until the
/// connection closes (``release()``). Another process's connections get `SQLITE_BUSY` after their busy timeout.
///
/// With `readersToo: false` it holds an open write transaction instead (`BEGIN EXCLUSIVE`, which WAL lets readers
/// pass): a store that reads but takes no clicks. That is also the only lock to be had while a server has the file
/// open, since WAL's exclusive locking mode needs every other connection closed.
final class ExclusiveStoreLock {
    private var store: SQLiteStore?

    init(dataDirectory: String, readersToo: Bool = true) throws {
        let store = try SQLiteStore(directory: dataDirectory)
        try store.withConnection { db in
            if readersToo { try db.execute("PRAGMA locking_mode = EXCLUSIVE") }
            try db.execute("BEGIN EXCLUSIVE")
            if readersToo { try db.execute("COMMIT") }
        }
        self.store = store
    }

    /// Closes the connection, and with it the lock.
    func release() { store = nil }
}

/// The real `tolt-edge serve` while its store cannot be reached: a node that starts without it answers `503` on
/// links and claims until its first configuration loads, then serves; a node whose store stops taking clicks keeps
/// redirecting until its journal reaches `--journal-max-bytes`, then answers `503` (logged, counted), and once the
/// store is back the journal drains and every redirected click is stored exactly once.
@Suite(.serialized) struct StoreOutageTests {
    static func tap(_ client: HTTPClient) throws -> HTTPResponse {
        try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
    }

    @Test func aNodeStartsWithoutItsStoreAnswers503AndServesOnceTheStoreIsBack() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let lock = try ExclusiveStoreLock(dataDirectory: data.path)
        defer { lock.release() }
        let server = try ChildServer(dataDirectory: data.path, outputIn: data.path, label: "nostore", within: 40)
        defer { server.kill() }
        let client = server.client()
        #expect(server.child.stderr.contains("no configuration yet"), "\(server.child.stderr)")
        let link = try Self.tap(client)
        #expect(link.status == 503 && link.header("location") == nil)
        #expect(link.header("retry-after") == "5")
        #expect(link.text.contains(#""error":"unavailable""#) && link.text.contains(#""success":false"#))
        let claim = try client.claim(#"{"public_id":"pk_acme","app_user_id":"user-1","code":"SAM20"}"#)
        #expect(claim.status == 503 && claim.text.contains(#""error":"unavailable""#), "\(claim.text)")
        #expect(claim.header("retry-after") == "5")
        #expect(try client.request("GET", "/healthz").status == 200, "the node itself is up")

        lock.release()
        let served = eventually(within: 30) { (try? Self.tap(client))?.status == 302 }
        #expect(served, "links redirect once the first configuration loads: \(server.child.stderr)")
        let answered = try Self.tap(client)
        let id = try #require(LinkResponses.clickID(in: answered))
        // A claim by click id: the signing key, read late from the store, verifies the id the node minted.
        let claimed = try client.claim(
            ClaimBody.make(
                user: "user-1", clickID: id, firstSeenAt: Timestamp.format(WallClock.milliseconds() - 60_000)))
        #expect(claimed.status == 200 && claimed.text.contains("claimed"), "\(claimed.status) \(claimed.text)")
        #expect(server.child.stderr.contains("first configuration loaded"), "\(server.child.stderr)")
        #expect(server.stop(within: 20)?.status == 0, "\(server.child.stderr)")
    }

    @Test func aPlainlyBrokenStoreIsStillAStartUpError() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        // Not a database: no reason to wait for it.
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: data.path + "/tolt-edge.sqlite"))
        let child = try ChildProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--data", data.path], outputIn: data.path, label: "notadb")
        let exit = child.waitForExit(within: 20)
        #expect(exit != nil && exit?.status != 0, "\(child.stdout) \(child.stderr)")
        #expect(child.stderr.contains("not a database"), "\(child.stderr)")

        // A file where the data directory should be.
        let file = data.path + "/plain-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let second = try ChildProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--data", file], outputIn: data.path, label: "notadir")
        let secondExit = second.waitForExit(within: 20)
        #expect(secondExit != nil && secondExit?.status != 0)
        #expect(second.stderr.contains("cannot create"), "\(second.stderr)")
    }

    @Test func aFullJournalRefusesTapsWhileTheStoreIsDownAndDrainsWhenItIsBack() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        // Repeat taps off: every redirected tap must be a stored click of its own.
        let server = try ChildServer(
            dataDirectory: data.path, outputIn: data.path, label: "bound",
            arguments: ["--dedupe-window", "0", "--journal-max-bytes", "32KiB"])
        defer { server.kill() }
        let client = server.client()
        var answered: [String] = []
        for _ in 0..<5 {
            let response = try Self.tap(client)
            #expect(response.status == 302)
            answered.append(try #require(LinkResponses.clickID(in: response)))
        }

        let lock = try ExclusiveStoreLock(dataDirectory: data.path, readersToo: false)
        defer { lock.release() }
        var refused = 0
        var taps = 0
        var full = false
        // About 130 clicks fit in 32 KiB; keep tapping until the bound has refused a good number and the gauge says
        // the journal is full. The gauge is "a loop has no room for a click now": each refresh (ten a second) shares
        // the room left out among the loops, so while the loop these taps reach has used its share and an idle loop
        // still holds its own, a refresh gives the busy one half of what is left and the gauge reads 0 until that
        // is used too. Taps halve the room that way until it no longer covers a click per loop.
        while !full && taps < 5_000 {
            let response = try Self.tap(client)
            taps += 1
            if response.status == 503 {
                refused += 1
                #expect(response.header("location") == nil && response.text.contains(#""error":"unavailable""#))
            } else {
                #expect(response.status == 302)
                answered.append(try #require(LinkResponses.clickID(in: response)))
            }
            if refused >= 50 { full = try MetricsTests.scrape(client).value("tolt_edge_journal_full") == 1 }
        }
        #expect(full && refused >= 50, "the bound refused taps: \(refused) of \(taps)")
        #expect(answered.count < 400, "the bound held: \(answered.count) redirected")
        let scrape = try MetricsTests.scrape(client)
        #expect(scrape.value("tolt_edge_clicks_refused_total", ["reason": "journal_full"]) == Double(refused))
        #expect(scrape.value("tolt_edge_clicks_refused_total", ["reason": "write_failed"]) == 0)
        #expect(scrape.value("tolt_edge_journal_max_bytes") == Double(32 << 10))
        #expect(scrape.value("tolt_edge_journal_backlog_bytes") <= Double(32 << 10))
        let logged = eventually(within: 20) { server.child.stderr.contains("journal full") }
        #expect(logged, "the log says so: \(server.child.stderr)")
        let reports = server.child.stderr.split(separator: "\n").filter { $0.contains("journal full") }
        #expect(reports.count <= 5, "about once a second, not per tap: \(reports.count)")

        lock.release()
        let recovered = eventually(within: 30) {
            guard let response = try? Self.tap(client), response.status == 302,
                let id = LinkResponses.clickID(in: response)
            else { return false }
            answered.append(id)
            return true
        }
        #expect(recovered, "links redirect again once the store is back: \(server.child.stderr)")
        let drained = eventually(within: 30) {
            (try? MetricsTests.scrape(client).value("tolt_edge_journal_full")) == 0
        }
        #expect(drained)
        #expect(server.stop(within: 20)?.status == 0, "\(server.child.stderr)")
        let stored = try CrashRecoveryTests.storedIDs(data.path)
        #expect(stored.count == Set(stored).count, "no click stored twice")
        #expect(Set(stored) == Set(answered), "every redirected click stored: \(stored.count) of \(answered.count)")
    }
}
