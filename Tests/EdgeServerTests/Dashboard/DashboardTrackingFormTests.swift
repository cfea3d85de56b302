import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// The tracking form over real sockets: what it shows before anything is saved (the commission's `recurring`
/// default), the template placeholders it accepts, and every invalid field marked at once.
@Suite struct DashboardTrackingFormTests {
    /// The `commission_recurring` checkbox's tag in `page`.
    static func recurringCheckbox(_ page: String) throws -> String {
        let start = try #require(page.range(of: #"<input type="checkbox" name="commission_recurring""#))
        return String(page[start.lowerBound...].prefix { $0 != ">" })
    }

    /// A program without a commission rule shows `recurring` ticked, as an import's `recurring` defaults to true, so
    /// choosing a percentage and saving makes a recurring rule; a stored rule shows its own value.
    @Test func recurringIsTickedWithoutARuleAndShowsAStoredRule() throws {
        let server = try TestServer(config: TestServer.webhookConfig)
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        func checkbox(_ program: String) throws -> String {
            try Self.recurringCheckbox(
                try client.dashboardPage("/dashboard/programs/\(program)/tracking", session: session).text)
        }
        let bare = try checkbox("prg_bare")
        #expect(bare.hasSuffix(" checked"), "no rule: \(bare)")
        #expect(try checkbox("prg_acme").hasSuffix(" checked"), "a recurring rule")
        #expect(!(try checkbox("prg_play").contains("checked")), "a first-purchase rule")

        // A post the form cannot read (a NUL) with the box unticked shows it again unticked, not as it starts.
        let unreadable = try client.dashboardPost(
            "/dashboard/programs/prg_bare/tracking", session: session,
            fields: [
                ("csrf_token", token), ("commission_type", "percent"), ("commission_percent", "20"),
                ("app_name", "a\u{0}b"),
            ])
        #expect(unreadable.status == 400)
        #expect(!(try Self.recurringCheckbox(unreadable.text).contains("checked")))

        // What a browser sends after choosing "A percentage of revenue" and typing 20, the box left as shown.
        let page = try client.dashboardPage("/dashboard/programs/prg_bare/tracking", session: session).text
        var fields = [("csrf_token", token), ("commission_type", "percent"), ("commission_percent", "20")]
        if try Self.recurringCheckbox(page).contains(" checked") { fields.append(("commission_recurring", "on")) }
        let saved = try client.dashboardPost("/dashboard/programs/prg_bare/tracking", session: session, fields: fields)
        #expect(saved.status == 303, "\(saved.text)")
        let rule = try server.store.configRecords().programs.first { $0.id == "prg_bare" }?.commission
        #expect(rule == CommissionRule(amount: .percent(basisPoints: 2000), recurring: true, durationMonths: nil))
    }

    /// The form's fields as a browser sends them for `prg_play`, every value valid.
    static func validFields(_ token: String) -> [(String, String)] {
        [
            ("csrf_token", token), ("deep_link_template", "lite://c/{code}?k={click_id}"),
            ("google_play_url", "https://play.google.com/store/apps/details?id=com.acme.lite"),
            ("app_store_url", ""), ("claim_window_days", "14"), ("commission_type", "percent"),
            ("commission_percent", "12.5"), ("commission_recurring", "on"), ("commission_duration_months", "6"),
            ("app_name", "Acme Lite"), ("app_icon_url", ""), ("brand_color", "#112233"), ("og_image_url", ""),
            ("og_description", "Join now"),
        ]
    }

    /// `fields` with each of `changes` in place of the field of its name.
    static func replacing(_ fields: [(String, String)], _ changes: [(String, String)]) -> [(String, String)] {
        fields.filter { field in !changes.contains { $0.0 == field.0 } } + changes
    }

    /// The text of the error beside the template field of `page`, if any.
    static func templateError(_ page: String) -> String? {
        page.range(of: #"<p class="error" id="field-deep_link_template-error">"#).map {
            String(page[$0.upperBound...].prefix { $0 != "<" })
        }
    }

    /// A template with a `{…}` other than `{code}` and `{click_id}` would be sent as it is in every redirect, and one
    /// with a `%` that two hex digits do not follow is no valid URL: refused beside its field, naming the placeholder
    /// or the escape, with nothing saved.
    @Test func aTemplateWithAnUnknownPlaceholderOrABrokenEscapeIsRefusedBesideItsField() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/programs/prg_play/tracking"
        let before = try server.store.configRecords().programs
        func placeholder(_ name: String) -> String {
            "has an unknown placeholder \(name): only {code} and {click_id} are filled in"
        }
        func escape(_ text: String) -> String {
            "has a % that starts no escape (\(text)): a % must be followed by two hex digits (write a percent sign as %25)"
        }
        for (template, expected) in [
            ("myapp://x?{nope}", placeholder("{nope}")), ("myapp://x?c={code}&k={clickid}", placeholder("{clickid}")),
            ("myapp://x?c={Code}", placeholder("{Code}")), ("https://good.example/%zz{code}", escape("%zz")),
            ("lite://c/{code}%", escape("%")),
        ] {
            let refused = try client.dashboardPost(
                path, session: session,
                fields: Self.replacing(Self.validFields(token), [("deep_link_template", template)]))
            #expect(refused.status == 400, "\(template)")
            let error = try #require(Self.templateError(refused.text), "\(template): \(refused.text)")
            #expect(error == expected, "\(template)")
            #expect(refused.text.contains(#"value="\#(HTMLText.escape(template))""#), "the value is kept")
        }
        #expect(try server.store.configRecords().programs == before)
        let saved = try client.dashboardPost(path, session: session, fields: Self.validFields(token))
        #expect(saved.status == 303, "\(saved.text)")
    }

    /// Before: the form saved a store URL with text above ASCII (or a `%` that starts no escape), which the Android
    /// redirect then sent in its `Location` as raw UTF-8. The form saves through the import, which refuses it beside
    /// its field now, with nothing saved.
    @Test func aStoreURLAboveASCIIOrWithABrokenEscapeIsRefusedBesideItsField() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/programs/prg_play/tracking"
        let before = try server.store.configRecords().programs
        for (field, url, expected) in [
            ("google_play_url", "https://play.google.com/store/apps/details?id=a&hl=fr-é", "found U+00E9"),
            ("app_store_url", "https://apps.apple.com/app/id1%zz", "has a % that starts no escape (%zz)"),
        ] {
            let refused = try client.dashboardPost(
                path, session: session, fields: Self.replacing(Self.validFields(token), [(field, url)]))
            #expect(refused.status == 400, "\(field)")
            let marker = #"<p class="error" id="field-\#(field)-error">"#
            let error = try #require(
                refused.text.range(of: marker).map { String(refused.text[$0.upperBound...].prefix { $0 != "<" }) },
                "\(field): \(refused.text)")
            #expect(error.contains(expected), "\(field): \(error)")
        }
        #expect(try server.store.configRecords().programs == before)
    }

    /// The recurring checkbox sends "on" when ticked and nothing when not. A script that posted `true` or `1` had it
    /// read as unticked, saving `recurring: false`; any value but "on" or empty is now refused beside the box.
    @Test func aRecurringValueOtherThanOnIsRefusedNotReadAsUnticked() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/programs/prg_play/tracking"
        let before = try server.store.configRecords().programs
        for value in ["true", "1", "off", "ON"] {
            let refused = try client.dashboardPost(
                path, session: session,
                fields: Self.replacing(Self.validFields(token), [("commission_recurring", value)]))
            #expect(refused.status == 400, "\(value): \(refused.status)")
            #expect(refused.text.contains("must be on (ticked) or left out (unticked)"), "\(value)")
        }
        #expect(try server.store.configRecords().programs == before, "nothing saved")
        let saved = try client.dashboardPost(path, session: session, fields: Self.validFields(token))
        #expect(saved.status == 303, "\(saved.text)")
        let program = try #require(try server.store.configRecords().programs.first { $0.id == "prg_play" })
        #expect(program.commission?.recurring == true)
    }

    /// A template stored before the placeholder rule (or by another tool) is still served as it was, braces and all.
    @Test func aStoredTemplateWithAnUnknownPlaceholderIsStillServed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var program = try #require(try server.store.configRecords().programs.first { $0.id == "prg_acme" })
        program.deepLinkTemplate = "myapp://claim?c={code}&k={clickid}"
        var changes = ConfigChanges()
        changes.programs = [program]
        try server.store.applyConfig(changes, expectedRevision: try server.store.configRevision())
        let client = server.client()
        let served = eventually(within: 2) {
            (try? client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)]))?
                .header("location") == "myapp://claim?c=SAM20&k={clickid}"
        }
        #expect(served)
        // The form posts every field, the stored template as it is: a change to another field is saved, and the
        // template is left as it was (the rule is for a template written now).
        let (formClient, session, token) = try DashboardFormTests.signedIn(server)
        let saved = try formClient.dashboardPost(
            "/dashboard/programs/prg_acme/tracking", session: session,
            fields: Self.replacing(
                Self.validFields(token),
                [("deep_link_template", "myapp://claim?c={code}&k={clickid}"), ("claim_window_days", "9")]))
        #expect(saved.status == 303, "\(saved.status) \(saved.text)")
        let after = try #require(try server.store.configRecords().programs.first { $0.id == "prg_acme" })
        #expect(after.claimWindowDays == 9)
        #expect(after.deepLinkTemplate == "myapp://claim?c={code}&k={clickid}")
        // The page says the stored template is sent as it is, as an import warns.
        let page = try formClient.dashboardPage("/dashboard/programs/prg_acme/tracking", session: session).text
        #expect(page.contains(#"id="template-warning""#) && page.contains("unknown placeholder {clickid}"), "\(page)")
        let clean = try formClient.dashboardPage("/dashboard/programs/prg_play/tracking", session: session).text
        #expect(!clean.contains(#"id="template-warning""#))
    }

    /// An unknown placeholder is quoted as errors quote input: a brace could enclose most of a 2,048-byte template,
    /// shown whole beside the field; now its first 100 scalars, and "…".
    @Test func aLongUnknownPlaceholderIsQuotedCut() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let name = "{" + String(repeating: "x", count: 1_500) + "}"
        let refused = try client.dashboardPost(
            "/dashboard/programs/prg_play/tracking", session: session,
            fields: Self.replacing(Self.validFields(token), [("deep_link_template", "myapp://c/\(name)/{code}")]))
        #expect(refused.status == 400)
        let error = try #require(Self.templateError(refused.text), "\(refused.text)")
        #expect(
            error == "has an unknown placeholder {" + String(repeating: "x", count: 99)
                + "…: only {code} and {click_id} are filled in")
    }

    /// README: "an invalid value is shown beside its field". Every invalid field of one post is marked at once, each
    /// with its own reason, the values kept, and nothing saved.
    @Test func everyInvalidFieldIsMarkedInOnePost() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let path = "/dashboard/programs/prg_play/tracking"
        let before = try server.store.configRecords().programs
        let bad = [
            ("brand_color", "red"), ("claim_window_days", "0"), ("commission_percent", "500"),
            ("deep_link_template", "javascript:alert(1)"), ("google_play_url", "ftp://x"),
            ("og_image_url", "http://cdn.example/card.png"), ("commission_duration_months", "0"),
        ]
        let refused = try client.dashboardPost(
            path, session: session, fields: Self.replacing(Self.validFields(token), bad))
        #expect(refused.status == 400)
        for (name, value) in bad {
            #expect(refused.text.contains(#"id="field-\#(name)-error""#), "\(name) is not marked: \(refused.text)")
            #expect(refused.text.contains(#"value="\#(HTMLText.escape(value))""#), "\(name) keeps its value")
        }
        let marked = refused.text.components(separatedBy: #"aria-invalid="true""#).count - 1
        #expect(marked == bad.count, "only the invalid fields are marked")
        #expect(refused.text.contains("fix the 7 fields marked below"), "\(refused.text)")
        #expect(try server.store.configRecords().programs == before)

        // A colour, a claim window and a percentage, all invalid in one post: three fields, three marks.
        let three = try client.dashboardPost(
            path, session: session,
            fields: Self.replacing(
                Self.validFields(token),
                [("brand_color", "red"), ("claim_window_days", "0"), ("commission_percent", "500")]))
        for name in ["brand_color", "claim_window_days", "commission_percent"] {
            #expect(three.text.contains(#"id="field-\#(name)-error""#), "\(name) is not marked")
        }
        #expect(try server.store.configRecords().programs == before)
    }
}
