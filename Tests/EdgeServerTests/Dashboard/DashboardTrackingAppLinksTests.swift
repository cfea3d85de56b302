import LinkCore
import TestSupport
import Testing

/// The Tracking page shows a program's `ios_app_ids` and `android_apps` but has no field for them, and its save leaves
/// them as they are: its import document names only the app links it has, and a field left out keeps its value.
@Suite struct DashboardTrackingAppLinksTests {
    @Test func savingTheTrackingFormKeepsTheApps() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(
            ConfigValidationProgram.play(
                #""app_links":{"ios_app_ids":["ABCDE12345.com.acme.lite"],"#
                    + #""android_apps":[{"package_name":"com.acme.lite","sha256_cert_fingerprints":["\#(AppAssociationTests.fingerprint)"]}]}"#
            ))
        let before = try #require(try server.store.configRecords().programs.first { $0.id == "prg_play" })
        #expect(before.iosAppIDs == ["ABCDE12345.com.acme.lite"] && before.androidApps.count == 1)

        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/programs/prg_play/tracking"
        // What a browser sends: every field of the form as loaded (`loaded_` values included), two of them changed.
        let page = try client.dashboardPage(path, session: session).text
        // Shown, not as fields of the form.
        #expect(page.contains("<li>iOS: <code>ABCDE12345.com.acme.lite</code></li>"), "\(page)")
        #expect(page.contains("<li>Android: <code>com.acme.lite</code> (1 certificate fingerprint)</li>"))
        let fields = try DashboardForms.browserFields(in: page, form: #"action="\#(path)""#)
        let saved = try client.dashboardPost(
            path, session: session,
            fields: DashboardForms.changing(
                fields, ["deep_link_template": "lite://c/{code}?k={click_id}", "app_store_url": ""]))
        #expect(saved.status == 303, "\(saved.text)")
        // A script's post, without the `loaded_` values, sets every field it carries: the apps are not among them.
        let scripted = try client.dashboardPost(
            path, session: session, fields: DashboardTrackingFormTests.validFields(token))
        #expect(scripted.status == 303, "\(scripted.text)")
        let after = try #require(try server.store.configRecords().programs.first { $0.id == "prg_play" })
        #expect(after.deepLinkTemplate == "lite://c/{code}?k={click_id}", "the form's values were saved")
        #expect(after.appStoreURL == nil, "an emptied field was cleared")
        #expect(after.iosAppIDs == before.iosAppIDs)
        #expect(after.androidApps == before.androidApps)
        #expect(
            try client.dashboardPage(path, session: session).text.contains("<li>iOS: <code>ABCDE12345.com.acme.lite"))
        let bare = try client.dashboardPage("/dashboard/programs/prg_bare/tracking", session: session).text
        #expect(bare.contains(#"id="direct-apps">No app opens these links directly"#), "\(bare)")
        #expect(
            try eventually(within: 2) {
                try client.request("GET", "/.well-known/assetlinks.json").text.contains(#""com.acme.lite""#)
            })
    }
}

/// A program document for `prg_play` of the standard server fixture.
enum ConfigValidationProgram {
    static func play(_ body: String) -> String {
        #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play",\#(body)}]}]}"#
    }
}
