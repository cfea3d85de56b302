import EdgeStore
import Foundation
import TestSupport
import Testing

/// A dashboard save while the store takes no writes (another connection holds SQLite's write lock past the busy
/// timeout, as a shared database that is down would refuse it): a `503` page that says nothing was saved, with the
/// page security headers, and nothing written; the same post once the lock is gone saves.
@Suite struct DashboardStoreOutageTests {
    @Test func aSaveWhileTheStoreTakesNoWritesIsA503PageAndSavesNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        let fields = [("csrf_token", token), ("program_id", "prg_acme"), ("name", "Dana"), ("code", "DANA10")]
        let lock = try ExclusiveStoreLock(dataDirectory: server.directory, readersToo: false)
        let refused = try client.dashboardPost("/dashboard/partners", session: session, fields: fields)
        lock.release()
        #expect(refused.status == 503, "\(refused.status) \(refused.text)")
        #expect(refused.text.contains("The store cannot be reached now; try again in a moment."), "\(refused.text)")
        #expect(refused.header("content-type")?.hasPrefix("text/html") == true)
        #expect(refused.header("content-security-policy") != nil)
        #expect(try server.store.configRecords() == before)

        let saved = try client.dashboardPost("/dashboard/partners", session: session, fields: fields)
        #expect(saved.status == 303, "\(saved.status) \(saved.text)")
        #expect(try server.store.configRecords().partners.contains { $0.name == "Dana" })
    }
}
