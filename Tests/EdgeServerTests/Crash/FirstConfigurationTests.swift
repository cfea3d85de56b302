import Foundation
import LinkCore
import TestSupport
import Testing

/// README: a node that has not loaded its first configuration answers `/v1/*` and the association files `503
/// unavailable` (`Retry-After: 5`) and a dashboard sign-in `503`, as it answers links and claims (``StoreOutageTests``), and both work once the store
/// is back. The real `tolt-edge serve`, started while its SQLite store is locked by another connection.
@Suite(.serialized) struct FirstConfigurationTests {
    @Test func beforeItsFirstConfigurationANodeAnswersTheAPIAndSignIn503() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let lock = try ExclusiveStoreLock(dataDirectory: data.path)
        defer { lock.release() }
        let server = try ChildServer(dataDirectory: data.path, outputIn: data.path, label: "noconfig", within: 40)
        defer { server.kill() }
        let client = server.client()
        #expect(server.child.stderr.contains("no configuration yet"), "\(server.child.stderr)")
        let key = [("Authorization", "Bearer sk_acme_secret")]
        for path in ["/v1/clicks", "/v1/customers", "/v1/commissions", "/v1/webhook_events", "/v1/stats/clicks"] {
            let response = try client.request("GET", path, headers: key)
            #expect(response.status == 503, "\(path): \(response.status) \(response.text)")
            #expect(response.header("retry-after") == "5", "\(path)")
            #expect(response.text.contains(#""error":"unavailable""#), "\(path): \(response.text)")
        }
        // The association files are built from the configuration: none yet is a 503 as a link's, never a 404 that a
        // phone's system would take for "no app".
        for path in ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"] {
            let response = try client.request("GET", path)
            #expect(response.status == 503, "\(path): \(response.status) \(response.text)")
            #expect(response.header("retry-after") == "5", "\(path)")
            #expect(response.text.contains(#""error":"unavailable""#), "\(path): \(response.text)")
        }
        let signIn = try client.dashboardSignIn("sk_acme_secret")
        #expect(signIn.status == 503, "\(signIn.status) \(signIn.text)")
        #expect(signIn.header("set-cookie")?.hasPrefix("tolt_session=") != true, "no session without a configuration")
        #expect(signIn.text.contains("has not loaded its configuration yet"))

        lock.release()
        let loaded = eventually(within: 30) {
            (try? client.request("GET", "/v1/clicks", headers: key))?.status == 200
        }
        #expect(loaded, "the API answers once the first configuration loads: \(server.child.stderr)")
        #expect(try client.dashboardSignIn("sk_acme_secret").status == 303)
        #expect(try client.request("GET", "/.well-known/assetlinks.json").status == 404, "no app in this configuration")
        #expect(server.stop(within: 20)?.status == 0, "\(server.child.stderr)")
    }
}
