import Foundation
import TestSupport
import Testing

/// A configuration change made by another connection or process reaches the link path within 2 seconds,
/// without a restart.
@Suite struct LinkReloadTests {
    /// The status and `Location` of an iPhone tap on `path`.
    static func tap(_ client: HTTPClient, _ path: String) throws -> (status: Int, location: String?) {
        let response = try client.request("GET", path, headers: [("User-Agent", Agents.iPhone)])
        return (response.status, response.header("location"))
    }

    @Test func aNewTemplateIsUsedWithin2Seconds() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try Self.tap(client, "/a/pk_acme/SAM20").location?.hasPrefix("myapp://claim?") == true)
        try server.importConfig(
            """
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme",
              "app_links":{"deep_link_template":"https://acme.example/claim/{code}?c={click_id}"}}]}]}
            """)
        #expect(
            try eventually(within: 2) {
                try Self.tap(client, "/a/pk_acme/SAM20").location?.hasPrefix("https://acme.example/claim/SAM20?c=clk_")
                    == true
            })
        // The other app links of the program were left as they were.
        #expect(try server.store.configRecords().programs.first { $0.id == "prg_acme" }?.googlePlayURL != nil)
    }

    @Test func removingTheTemplateFallsBackToPlayForAndroid() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","app_links":{"deep_link_template":null}}]}]}"#
        )
        let client = server.client()
        #expect(
            try eventually(within: 2) {
                let response = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.android)])
                return response.header("location")?.hasPrefix(
                    "https://play.google.com/store/apps/details?id=com.acme&referrer=tolt_code%3DSAM20%26tolt_click%3Dclk_"
                ) == true
            })
        #expect(try Self.tap(client, "/a/pk_acme/SAM20").status == 200, "an iPhone now gets the fallback page")
    }

    @Test func deactivatingACodeOrItsPartnerTakesTheLinkDownWithin2Seconds() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try Self.tap(client, "/a/pk_acme/SAM20").status == 302)
        #expect(try Self.tap(client, "/a/pk_acme/LEE").status == 200)
        try server.importConfig(
            """
            {"organizations":[{"id":"org_acme","programs":[
              {"id":"prg_acme","partners":[{"id":"part_sam","codes":[{"code":"sam20","active":false}]}]},
              {"id":"prg_play","partners":[{"id":"part_lee","status":"inactive"}]}]}]}
            """)
        #expect(try eventually(within: 2) { try Self.tap(client, "/a/pk_acme/SAM20").status == 404 })
        #expect(try Self.tap(client, "/a/pk_acme/LEE").status == 404)
        // Reactivating brings the link back, with the stored spelling of the code.
        try server.importConfig(
            """
            {"organizations":[{"id":"org_acme","programs":[
              {"id":"prg_acme","partners":[{"id":"part_sam","codes":[{"code":"SAM20","active":true}]}]}]}]}
            """)
        #expect(
            try eventually(within: 2) {
                try Self.tap(client, "/a/pk_acme/sam20").location?.hasPrefix("myapp://claim?tolt_code=SAM20&") == true
            })
    }

    @Test func aNewCodeAndANewPartnerWorkWithin2Seconds() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try Self.tap(client, "/a/pk_acme/NEW30").status == 404)
        try server.importConfig(
            """
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":[
              {"id":"part_sam","codes":[{"code":"NEW30","active":true}]},
              {"id":"part_kim","name":"Kim","status":"active","codes":[{"code":"KIM5","active":true}]}]}]}]}
            """)
        #expect(try eventually(within: 2) { try Self.tap(client, "/a/pk_acme/new30").status == 302 })
        let kim = try Self.tap(client, "/a/pk_acme/KIM5")
        #expect(kim.location?.hasPrefix("myapp://claim?tolt_code=KIM5&tolt_click=clk_") == true)
        #expect(try Self.tap(client, "/a/pk_acme/SAM20").status == 302, "codes not in the file still work")
        #expect(
            try eventually(within: 2) {
                Set(try server.storedClicks().map(\.partnerID)) == ["part_sam", "part_kim"]
            })
    }

    @Test func theImportCommandOfAnotherProcessReachesTheRunningServer() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let file = server.directory + "/change.json"
        try """
        {"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme",
          "app_links":{"deep_link_template":"https://cli.example/c/{code}/{click_id}"},
          "partners":[{"id":"part_sam","codes":[{"code":"CLI1","active":true},{"code":"SAM20","active":false}]}]}]}]}
        """.write(toFile: file, atomically: true, encoding: .utf8)

        let result = try ChildProcess.run(["import", file, "--data", server.directory], outputIn: server.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("created code CLI1 of part_sam"))

        #expect(
            try eventually(within: 2) {
                try Self.tap(client, "/a/pk_acme/cli1").location?.hasPrefix("https://cli.example/c/CLI1/clk_") == true
            })
        #expect(try Self.tap(client, "/a/pk_acme/SAM20").status == 404)
        #expect(try Self.tap(client, "/a/pk_acme/LEE").status == 200, "other programs are untouched")
    }

    @Test func aRejectedImportCommandChangesNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let file = server.directory + "/bad.json"
        try """
        {"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme",
          "partners":[{"id":"part_sam","codes":[{"code":"GOOD1","active":true}]}],
          "app_links":{"deep_link_template":"no scheme {code}"}}]}]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let revision = try server.store.configRevision()

        let result = try ChildProcess.run(["import", file, "--data", server.directory], outputIn: server.directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("organizations[0].programs[0].app_links.deep_link_template"), "\(result.stderr)")
        #expect(try server.store.configRevision() == revision)
        usleep(600_000)  // more than two polls of the watcher
        #expect(try Self.tap(server.client(), "/a/pk_acme/GOOD1").status == 404)
        #expect(try Self.tap(server.client(), "/a/pk_acme/SAM20").location?.hasPrefix("myapp://claim?") == true)
    }
}
