import Foundation
import TestSupport
import Testing

/// README, on SQLite: another process can hold the file's write lock (a `sqlite3` shell inside a transaction). A
/// claim then waits for it up to SQLite's busy timeout, 5 seconds, and gets `503 unavailable` with `Retry-After: 2`,
/// having stored nothing; the lists, which only read, answer meanwhile; the same claim once the lock is gone is
/// claimed. The README used to say "at once" for PostgreSQL only, and nothing for SQLite.
@Suite struct ClaimStoreLockTests {
    @Test func aClaimWhileTheWriteLockIsHeldWaitsFiveSecondsThenGets503() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let key = [("Authorization", "Bearer sk_acme_secret")]
        let lock = try ExclusiveStoreLock(dataDirectory: server.directory, readersToo: false)
        let started = WallClock.milliseconds()
        let refused = try client.claim(ClaimBody.recent(user: "locked"))
        let waited = WallClock.milliseconds() - started
        let listed = try client.request("GET", "/v1/customers", headers: key)
        lock.release()
        #expect(refused.isError(503, "unavailable"), "\(refused.status) \(refused.text)")
        #expect(refused.header("retry-after") == "2")
        #expect((4_500..<9_000).contains(waited), "waited \(waited) ms")
        #expect(listed.status == 200, "\(listed.status) \(listed.text)")
        #expect(try client.customers().isEmpty, "nothing was stored")
        let claimed = try client.claim(ClaimBody.recent(user: "locked"))
        #expect(claimed.isClaim("claimed", user: "locked"), "\(claimed.text)")
    }
}
