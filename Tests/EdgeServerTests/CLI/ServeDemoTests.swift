import Foundation
import LinkCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a new user tries first: `tolt-edge serve --demo`, an iPhone and an Android tap on the demo link, and
/// both clicks listed with the demo secret key.
@Suite struct ServeDemoTests {
    @Test func theDemoLinkWorksAsTheReadmeSays() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "demo", arguments: ["--demo"])
        defer { server.stop() }
        #expect(server.child.stdout.contains("/a/pk_demo/sam20"), "it prints a link to try")
        #expect(
            server.child.stdout.contains(":\(server.port)/dashboard (sign in with the demo secret key sk_demo)"),
            "it prints the dashboard and how to sign in")
        let client = server.client()
        // The key it prints signs in.
        let signIn = try client.dashboardSignIn("sk_demo")
        #expect(signIn.status == 303 && signIn.header("location") == "/dashboard", "\(signIn.status)")

        let page = try client.request("GET", "/a/pk_demo/sam20", headers: [("User-Agent", Agents.iPhone)])
        #expect(page.status == 200)
        #expect(page.text.contains(#"<div class="code" id="code">SAM20</div>"#))
        #expect(page.text.contains(#"href="https://apps.apple.com/app/id000000000""#))

        // Click ids sort by their millisecond; two taps within one millisecond have no order between them.
        usleep(3_000)
        let play = try client.request("GET", "/a/pk_demo/sam20", headers: [("User-Agent", Agents.android)])
        #expect(play.status == 302)
        let id = try #require(LinkResponses.clickID(in: play))
        #expect(
            play.header("location")
                == "https://play.google.com/store/apps/details?id=com.example.demo"
                + "&referrer=tolt_code%3DSAM20%26tolt_click%3D\(id)")

        var listed: [JSONValue] = []
        #expect(
            try eventually(within: 2) {
                let response = try client.request("GET", "/v1/clicks", headers: [("Authorization", "Bearer sk_demo")])
                listed = try response.json["data"]?.arrayValue ?? []
                return listed.count == 2
            })
        #expect(listed.compactMap { $0["platform"]?.stringValue } == ["android", "ios"], "newest first")
        #expect(listed.first?["id"]?.stringValue == id)
    }

    /// `serve --demo` runs at every start (every `make serve`): a demo organization already stored keeps the key the
    /// user rotated and the code they deactivated, rather than getting `sk_demo` and an active `SAM20` back.
    @Test func aSecondStartKeepsTheDemoOrganizationAsTheUserLeftIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.path + "/data"
        let first = try ChildServer(
            dataDirectory: data, outputIn: directory.path, label: "first", arguments: ["--demo"])
        defer { first.stop() }
        #expect(first.child.stdout.contains("demo program stored (public key pk_demo, secret key sk_demo"))
        #expect(first.stop()?.status == 0)

        let changes = directory.path + "/changes.json"
        try #"""
        {"organizations":[{"id":"org_demo","secret_key":"my-new-secret-123","programs":[{"id":"prg_demo",
          "partners":[{"id":"part_demo","codes":[{"code":"SAM20","active":false}]}]}]}]}
        """#.write(toFile: changes, atomically: true, encoding: .utf8)
        let imported = try ChildProcess.run(["import", changes, "--data", data], outputIn: directory.path)
        #expect(imported.status == 0, "\(imported.stderr)")

        let second = try ChildServer(
            dataDirectory: data, outputIn: directory.path, label: "second", arguments: ["--demo"])
        defer { second.stop() }
        #expect(second.child.stdout.contains("demo program already stored, kept as it is"), "\(second.child.stdout)")
        let client = second.client()
        func clicks(_ key: String) throws -> Int {
            try client.request("GET", "/v1/clicks", headers: [("Authorization", "Bearer \(key)")]).status
        }
        #expect(try clicks("my-new-secret-123") == 200)
        #expect(try clicks("sk_demo") == 401)
        let link = try client.request("GET", "/a/pk_demo/SAM20", headers: [("User-Agent", Agents.android)])
        #expect(link.status == 404, "SAM20 stays inactive")
    }
}
