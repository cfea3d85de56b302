import Foundation
import LinkCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a new user tries first: `tolt-edge serve --demo`, an iPhone and an Android tap on the demo link, both clicks
/// listed with the demo secret key, then the README's loop: a claim, a RevenueCat purchase, a commission.
@Suite struct ServeDemoTests {
    @Test func theDemoLinkWorksAsTheReadmeSays() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "demo", arguments: ["--demo"])
        defer { server.stop() }
        #expect(server.printed("/a/pk_demo/sam20"), "it prints a link to try")
        #expect(
            server.printed(":\(server.port)/dashboard (sign in with the demo secret key sk_demo)"),
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

    /// The quick start's loop on the demo data, with the README's bodies: claim `SAM20` for a user, post RevenueCat's
    /// `INITIAL_PURCHASE` for that user with the authorization `serve --demo` prints, list the commission with the
    /// demo secret key. A restart on the same data keeps the demo as it is, once, and the commission with it.
    @Test func theDemoWalksTheWholeLoopAndARestartKeepsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.path + "/data"
        let first = try ChildServer(dataDirectory: data, outputIn: directory.path, label: "loop", arguments: ["--demo"])
        defer { first.stop() }
        #expect(
            first.printed("/webhooks/revenuecat/pk_demo with 'Authorization: Bearer whsec_demo'"),
            "\(first.child.stdout)")
        #expect(
            first.printed("curl -H 'Authorization: Bearer sk_demo' http://127.0.0.1:\(first.port)/v1/commissions"))
        try Self.walkTheLoop(first.client())
        #expect(first.stop()?.status == 0)

        let second = try ChildServer(
            dataDirectory: data, outputIn: directory.path, label: "loop-again", arguments: ["--demo"])
        defer { second.stop() }
        #expect(
            second.printed(
                "demo program already stored, kept as it is (public key pk_demo; secret key sk_demo, code SAM20)"),
            "\(second.child.stdout)")
        let commissions = try second.client().request(
            "GET", "/v1/commissions", headers: [("Authorization", "Bearer sk_demo")])
        #expect(try commissions.json["data"]?.arrayValue?.count == 1)
        #expect(second.stop()?.status == 0)
        try Self.expectOneDemo(data: data, directory: directory.path)
    }

    /// A data directory whose demo an older version stored (no commission, no webhook authorization)
    /// gets the two at the next `serve --demo`, and then walks the loop; nothing of it is stored twice.
    @Test func anOlderVersionsDemoGetsTheLoopsParts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.path + "/data"
        let older = directory.path + "/older-demo.json"
        try #"""
        {"organizations":[{"id":"org_demo","name":"Demo App","public_key":"pk_demo","secret_key":"sk_demo",
          "programs":[{"id":"prg_demo","name":"Demo Program",
            "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.example.demo",
                         "app_store_url":"https://apps.apple.com/app/id000000000"},
            "partners":[{"id":"part_demo","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]}]}
        """#.write(toFile: older, atomically: true, encoding: .utf8)
        let imported = try ChildProcess.run(["import", older, "--data", data], outputIn: directory.path)
        #expect(imported.status == 0, "\(imported.stderr)")

        let server = try ChildServer(
            dataDirectory: data, outputIn: directory.path, label: "upgraded", arguments: ["--demo"])
        defer { server.stop() }
        #expect(
            server.printed("demo program of an older version given a 20% commission"),
            "\(server.child.stdout)")
        try Self.walkTheLoop(server.client())
        #expect(server.stop()?.status == 0)
        try Self.expectOneDemo(data: data, directory: directory.path)
    }

    /// The README's quick-start loop, its bodies as written there.
    static func walkTheLoop(_ client: HTTPClient) throws {
        let json = [("Content-Type", "application/json")]
        let claim = try client.request(
            "POST", "/client/claims", headers: json,
            body: Array(#"{"public_id":"pk_demo","code":"SAM20","app_user_id":"user_1"}"#.utf8))
        #expect(claim.status == 200, "\(claim.text)")
        #expect(try claim.json["data"]?["status"]?.stringValue == "claimed")
        let event = #"""
            {"api_version":"1.0","event":{"id":"evt_demo_1","type":"INITIAL_PURCHASE","environment":"PRODUCTION",\#
            "app_user_id":"user_1","product_id":"pro_monthly","transaction_id":"txn_demo_1","price":9.99}}
            """#
        let webhook = try client.request(
            "POST", "/webhooks/revenuecat/pk_demo", headers: json + [("Authorization", "Bearer whsec_demo")],
            body: Array(event.utf8))
        #expect(webhook.status == 200, "\(webhook.text)")
        #expect(try webhook.json["data"]?["outcome"]?.stringValue == "commission_created", "\(webhook.text)")
        let listed = try client.request("GET", "/v1/commissions", headers: [("Authorization", "Bearer sk_demo")])
        let commissions = try listed.json["data"]?.arrayValue ?? []
        #expect(commissions.count == 1, "\(listed.text)")
        #expect(commissions.first?["customer_id"]?.stringValue == "user_1")
        #expect(commissions.first?["partner_id"]?.stringValue == "part_demo")
        #expect(commissions.first?["amount"]?.intValue == 200, "20 % of 9.99, in cents")
    }

    /// The demo as the export shows it: one organization, program, partner and code, with the loop's parts.
    static func expectOneDemo(data: String, directory: String) throws {
        let export = try ChildProcess.run(["export", "--data", data], outputIn: directory)
        #expect(export.status == 0, "\(export.stderr)")
        let document = try JSONParser.parse(Array(export.stdout.utf8))
        let organizations = document["organizations"]?.arrayValue ?? []
        #expect(organizations.count == 1)
        let programs = organizations.first?["programs"]?.arrayValue ?? []
        #expect(programs.count == 1)
        #expect(programs.first?["app_links"]?["deep_link_template"] == .null, "phones get the page or Google Play")
        #expect(programs.first?["commission"]?["percent"] == .number("20"))
        let partners = programs.first?["partners"]?.arrayValue ?? []
        #expect(partners.count == 1)
        #expect(partners.first?["codes"]?.arrayValue?.count == 1)
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
        #expect(first.printed("demo program stored (public key pk_demo, secret key sk_demo"))
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
        // What it says of the demo is what is true of it: the key and the code the user changed are named so.
        #expect(
            second.printed(
                "demo program already stored, kept as it is (public key pk_demo; its secret key is no longer sk_demo:"
                    + " use the one you set; SAM20 is inactive, so its link answers 404 until you reactivate it on the"
                    + " dashboard's Partners page)"), "\(second.child.stdout)")
        // And the commands it prints: a placeholder for the key, no SAM20 link to try.
        #expect(second.printed("curl -H 'Authorization: Bearer <your secret key>'"), "\(second.child.stdout)")
        #expect(second.printed("(sign in with your secret key)"), "\(second.child.stdout)")
        #expect(!second.child.stdout.contains("/a/pk_demo/sam20"), "\(second.child.stdout)")
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

extension ServeDemoTests {
    /// A stored demo whose webhook authorization the user changed, or left unset (a demo with a commission, so it is
    /// kept as it is): the banner says so, and the loop it prints has a placeholder for the authorization.
    @Test func aDemoWhoseWebhookAuthorizationChangedOrIsUnsetIsNamedSo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (label, revenuecat, said) in [
            (
                "other", #","revenuecat":{"authorization":"Bearer mine-0123456789"}"#,
                "the webhook takes the authorization you set, not Bearer whsec_demo"
            ),
            ("none", "", "the webhook has no authorization, so it refuses every event until you set one"),
        ] {
            let data = directory.path + "/data-\(label)"
            let document = directory.path + "/demo-\(label).json"
            try #"""
            {"organizations":[{"id":"org_demo","name":"Demo App","public_key":"pk_demo","secret_key":"sk_demo"\#(revenuecat),
              "programs":[{"id":"prg_demo","name":"Demo Program","commission":{"percent":20},
                "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.example.demo"},
                "partners":[{"id":"part_demo","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]}]}
            """#.write(toFile: document, atomically: true, encoding: .utf8)
            let imported = try ChildProcess.run(["import", document, "--data", data], outputIn: directory.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            let server = try ChildServer(
                dataDirectory: data, outputIn: directory.path, label: "webhook-\(label)", arguments: ["--demo"])
            defer { server.stop() }
            #expect(server.printed(said), "\(label): \(server.child.stdout)")
            #expect(server.printed("'Authorization: <your RevenueCat authorization>'"), "\(label)")
            #expect(server.printed("curl -H 'Authorization: Bearer sk_demo'"), "\(label): the key is still the demo's")
            #expect(server.stop()?.status == 0)
        }
    }
}
