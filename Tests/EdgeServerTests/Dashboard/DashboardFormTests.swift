import Foundation
import LinkCore
import TestSupport
import Testing

/// The dashboard's forms over real sockets: each saves through the importer (so the store holds exactly what an
/// import would), shows the importer's error beside its field with nothing written, and escapes what it shows.
@Suite struct DashboardFormTests {
    /// A signed-in client and its CSRF token.
    static func signedIn(_ server: TestServer) throws -> (client: HTTPClient, session: String, token: String) {
        let client = server.client()
        let session = try client.dashboardSession()
        let token = try #require(
            DashboardForms.csrfToken(in: try client.dashboardPage("/dashboard", session: session).text))
        return (client, session, token)
    }

    @Test func addingAPartnerACodeAndDeactivatingThemGoesThroughTheImporter() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try Self.signedIn(server)
        let added = try client.dashboardPost(
            "/dashboard/partners", session: session,
            fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", "<b>Dana</b>"), ("code", "DANA10")])
        #expect(added.status == 303, "\(added.text)")
        let location = try #require(added.header("location"))
        #expect(location.hasPrefix("/dashboard/partners/part_"))
        let partnerID = String(location.dropFirst("/dashboard/partners/".count))
        var records = try server.store.configRecords()
        #expect(records.partners.first { $0.id == partnerID }?.name == "<b>Dana</b>")
        #expect(records.codes.contains { $0.partnerID == partnerID && $0.code == "DANA10" && $0.active })
        // Shown as text, never as markup.
        let list = try client.dashboardPage("/dashboard/partners", session: session).text
        #expect(list.contains("&lt;b&gt;Dana&lt;/b&gt;"))
        #expect(!list.contains("<b>Dana</b>"))
        let redirects = eventually(within: 2) {
            (try? client.request("GET", "/a/pk_acme/DANA10", headers: [("User-Agent", Agents.iPhone)]))?.status == 302
        }
        #expect(redirects)

        // The same name again, a bad code, a program of another organization: refused, nothing written.
        let before = try server.store.configRecords()
        for (fields, message) in [
            ([("program_id", "prg_acme"), ("name", "<b>Dana</b>")], "already has a partner named"),
            ([("program_id", "prg_acme"), ("name", "Eve"), ("code", "bad code!")], "codes[0].code"),
            ([("program_id", "prg_other"), ("name", "Eve")], "Choose one of your programs."),
        ] {
            let refused = try client.dashboardPost(
                "/dashboard/partners", session: session, fields: [("csrf_token", token)] + fields)
            #expect(refused.status == 400)
            #expect(refused.text.contains(message), "\(fields): \(refused.text)")
        }
        #expect(try server.store.configRecords().partners == before.partners)

        let code = try client.dashboardPost(
            "/dashboard/partners/\(partnerID)/codes", session: session,
            fields: [("csrf_token", token), ("code", "DANA20")])
        #expect(code.status == 303)
        let badCode = try client.dashboardPost(
            "/dashboard/partners/\(partnerID)/codes", session: session,
            fields: [("csrf_token", token), ("code", "no spaces")])
        #expect(badCode.status == 400)
        #expect(badCode.text.contains(#"id="field-code-error""#))
        #expect(badCode.text.contains(#"value="no spaces""#), "the value is kept")
        // Another active partner's code (in any case) would stop working for both: refused, nothing stored.
        let codesBefore = try server.store.configRecords().codes
        for taken in ["SAM20", "sam20"] {
            let shared = try client.dashboardPost(
                "/dashboard/partners/\(partnerID)/codes", session: session,
                fields: [("csrf_token", token), ("code", taken)])
            #expect(shared.status == 400 && shared.text.contains("already a code of Sam"), "\(shared.text)")
        }
        let sharedPartner = try client.dashboardPost(
            "/dashboard/partners", session: session,
            fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", "Eve"), ("code", "Sam20")])
        #expect(sharedPartner.status == 400 && sharedPartner.text.contains("already a code of Sam"))
        #expect(try server.store.configRecords().codes == codesBefore)
        let deactivated = try client.dashboardPost(
            "/dashboard/partners/\(partnerID)/codes/DANA10/deactivate", session: session,
            fields: [("csrf_token", token)])
        #expect(deactivated.status == 303)
        records = try server.store.configRecords()
        #expect(records.codes.first { $0.partnerID == partnerID && $0.code == "DANA10" }?.active == false)
        #expect(records.codes.first { $0.partnerID == partnerID && $0.code == "DANA20" }?.active == true)
        let gone = try client.dashboardPost(
            "/dashboard/partners/\(partnerID)/deactivate", session: session, fields: [("csrf_token", token)])
        #expect(gone.status == 303)
        #expect(try server.store.configRecords().partners.first { $0.id == partnerID }?.status == "inactive")
        // Another organization's partner cannot be changed.
        let foreign = try client.dashboardPost(
            "/dashboard/partners/part_zed/deactivate", session: session, fields: [("csrf_token", token)])
        #expect(foreign.status == 404)
        #expect(try server.store.configRecords().partners.first { $0.id == "part_zed" }?.status == "active")
    }

    /// A deactivated code or partner can be made active again from its page, and its link redirects again; unless
    /// another active partner took the code meanwhile, which would make it stop working for both.
    @Test func aDeactivatedCodeOrPartnerIsReactivatedUnlessItsCodeIsTakenMeanwhile() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try Self.signedIn(server)
        func tap(_ code: String) -> Int? {
            (try? client.request("GET", "/a/pk_acme/\(code)", headers: [("User-Agent", Agents.iPhone)]))?.status
        }
        func post(_ path: String) throws -> HTTPResponse {
            try client.dashboardPost(
                "/dashboard/partners/part_sam" + path, session: session, fields: [("csrf_token", token)])
        }
        #expect(try post("/codes/SAM20/deactivate").status == 303)
        #expect(eventually(within: 2) { tap("SAM20") == 404 })
        let page = try client.dashboardPage("/dashboard/partners/part_sam", session: session).text
        #expect(page.contains(#"action="/dashboard/partners/part_sam/codes/SAM20/reactivate""#))
        // The partner's Deactivate says what a team most needs to know before it: commissions do not stop.
        #expect(page.contains("still earn it commissions by their program"), "\(page)")
        #expect(try post("/codes/SAM20/reactivate").status == 303)
        #expect(eventually(within: 2) { tap("SAM20") == 302 })
        // Only a code the partner has: reactivating another creates nothing.
        let codes = try server.store.configRecords().codes
        #expect(try post("/codes/NEW99/reactivate").status == 404)
        #expect(try server.store.configRecords().codes == codes)

        #expect(try post("/deactivate").status == 303)
        #expect(eventually(within: 2) { tap("SAM20") == 404 })
        #expect(
            try client.dashboardPage("/dashboard/partners/part_sam", session: session).text.contains(
                "Reactivate Sam"))
        // Meanwhile Lee takes SAM20 (in another case): reactivating Sam is refused, nothing written.
        let taken = try client.dashboardPost(
            "/dashboard/partners/part_lee/codes", session: session, fields: [("csrf_token", token), ("code", "sam20")])
        #expect(taken.status == 303, "\(taken.text)")
        let refused = try post("/reactivate")
        #expect(refused.status == 400 && refused.text.contains("already a code of Lee"), "\(refused.text)")
        #expect(try server.store.configRecords().partners.first { $0.id == "part_sam" }?.status == "inactive")
        // Once Lee lets it go, Sam comes back with it.
        #expect(
            try client.dashboardPost(
                "/dashboard/partners/part_lee/codes/sam20/deactivate", session: session,
                fields: [("csrf_token", token)]
            ).status == 303)
        #expect(try post("/reactivate").status == 303)
        #expect(try server.store.configRecords().partners.first { $0.id == "part_sam" }?.status == "active")
        #expect(eventually(within: 2) { tap("SAM20") == 302 })
    }

    /// Two partners holding SHARED/shared, both inactive, reactivated at the same moment: the shared-code check runs
    /// inside the importer's check of the revision, so exactly one comes back each time, never both.
    @Test func twoPartnersSharingACodeReactivatedAtOnceNeverBothBecomeActive() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try Self.signedIn(server)
        func post(_ partner: String, _ action: String, with client: HTTPClient) -> Int {
            (try? client.dashboardPost(
                "/dashboard/partners/\(partner)/\(action)", session: session, fields: [("csrf_token", token)]))?.status
                ?? -1
        }
        #expect(post("part_a", "deactivate", with: client) == 303 && post("part_b", "deactivate", with: client) == 303)
        let racers = ["part_a", "part_b"]
        for round in 0..<5 {
            // One connection per racer, connected before the start.
            let clients = racers.map { _ in server.client() }
            for racer in clients { #expect(try racer.request("GET", "/healthz").status == 200) }
            let shared = UncheckedBox(clients)
            let results = ClaimConcurrencyTests.race(2) { index in
                try shared.value[index].dashboardPost(
                    "/dashboard/partners/\(racers[index])/reactivate", session: session,
                    fields: [("csrf_token", token)]
                ).status
            }
            let statuses = try results.map { try $0.get() }
            #expect(statuses.sorted() == [303, 400], "round \(round): \(statuses)")
            let active = try server.store.configRecords().partners.filter {
                ["part_a", "part_b"].contains($0.id) && $0.isActive
            }
            #expect(active.count == 1, "round \(round): \(active.map(\.id))")
            for partner in active { #expect(post(partner.id, "deactivate", with: client) == 303) }
        }
    }

    /// A post with a commission's amount but no rule (a script's post, not the form's) is refused, not "Saved" with
    /// the amount dropped.
    @Test func aCommissionAmountWithoutItsRuleIsRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try Self.signedIn(server)
        let before = try server.store.configRecords().programs
        let refused = try client.dashboardPost(
            "/dashboard/programs/prg_acme/tracking", session: session,
            fields: [("csrf_token", token), ("commission_percent", "1e2")])
        #expect(refused.status == 400 && refused.text.contains("need its rule"), "\(refused.text)")
        #expect(try server.store.configRecords().programs == before)
    }

    @Test func theTrackingFormSavesEveryFieldAndShowsAnErrorBesideItsField() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try Self.signedIn(server)
        let path = "/dashboard/programs/prg_play/tracking"
        var fields = [
            ("csrf_token", token), ("deep_link_template", "lite://c/{code}"),
            ("google_play_url", "https://play.google.com/store/apps/details?id=com.acme.lite"),
            ("app_store_url", ""), ("claim_window_days", "14"), ("commission_type", "percent"),
            ("commission_percent", "12.5"), ("commission_recurring", "on"), ("commission_duration_months", "6"),
            ("app_name", "Acme & Lite"), ("app_icon_url", ""), ("brand_color", "#112233"), ("og_image_url", ""),
            ("og_description", "Join <now>"),
        ]
        let saved = try client.dashboardPost(path, session: session, fields: fields)
        #expect(saved.status == 303, "\(saved.text)")
        #expect(saved.header("location") == path + "?saved=1")
        let program = try #require(try server.store.configRecords().programs.first { $0.id == "prg_play" })
        #expect(program.deepLinkTemplate == "lite://c/{code}")
        #expect(program.appStoreURL == nil, "an empty field clears")
        #expect(program.claimWindowDays == 14)
        #expect(
            program.commission
                == CommissionRule(amount: .percent(basisPoints: 1250), recurring: true, durationMonths: 6))
        #expect(program.appName == "Acme & Lite")
        #expect(program.brandColor == "#112233")
        let page = try client.dashboardPage(path + "?saved=1", session: session).text
        #expect(page.contains(#"id="saved""#))
        #expect(page.contains(#"value="12.5""#))
        #expect(page.contains(#"value="Join &lt;now&gt;""#))

        for (name, value, errorID) in [
            ("brand_color", "red", "field-brand_color-error"),
            ("claim_window_days", "0", "field-claim_window_days-error"),
            ("claim_window_days", "ten", "field-claim_window_days-error"),
            ("commission_percent", "101", "field-commission_percent-error"),
            ("deep_link_template", "javascript:alert(1)", "field-deep_link_template-error"),
        ] {
            var changed = fields
            changed.removeAll { $0.0 == name }
            changed.append((name, value))
            let refused = try client.dashboardPost(path, session: session, fields: changed)
            #expect(refused.status == 400, "\(name)=\(value)")
            #expect(refused.text.contains(#"id="\#(errorID)""#), "\(name)=\(value): \(refused.text)")
            #expect(refused.text.contains(#"value="\#(HTMLText.escape(value))""#), "\(name) keeps its value")
        }
        #expect(try server.store.configRecords().programs.first { $0.id == "prg_play" } == program)
        // A post that leaves fields out keeps them; a rule the form does not offer is refused; neither clears anything.
        for partial in [[("csrf_token", token)], fields.filter { $0.0 != "app_store_url" }] {
            #expect(try client.dashboardPost(path, session: session, fields: partial).status == 303)
            #expect(try server.store.configRecords().programs.first { $0.id == "prg_play" } == program)
        }
        let bonus = fields.filter { $0.0 != "commission_type" } + [("commission_type", "bonus")]
        let refused = try client.dashboardPost(path, session: session, fields: bonus)
        #expect(refused.status == 400 && refused.text.contains("nothing was saved"), "\(refused.text)")
        #expect(try server.store.configRecords().programs.first { $0.id == "prg_play" } == program)
        fields.removeAll { $0.0 == "commission_type" }
        fields.append(("commission_type", "none"))
        #expect(try client.dashboardPost(path, session: session, fields: fields).status == 303)
        #expect(try server.store.configRecords().programs.first { $0.id == "prg_play" }?.commission == nil)
    }

    @Test func theClickListIsPagedByCursorAndFilteredByPartner() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, _) = try Self.signedIn(server)
        for index in 0..<53 {
            _ = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone + " n/\(index)")])
        }
        _ = try client.request("GET", "/a/pk_acme/LEE", headers: [("User-Agent", Agents.android)])
        #expect(try server.waitForClicks(count: 54, within: 5))
        let first = try client.dashboardPage("/dashboard/clicks", session: session).text
        #expect(first.components(separatedBy: "<tr><td>").count - 1 == 50)
        let next = try #require(
            first.range(of: #"<a rel="next" href=""#).map { first[$0.upperBound...].prefix { $0 != "\"" } })
        let second = try client.dashboardPage(next.replacingOccurrences(of: "&amp;", with: "&"), session: session).text
        #expect(second.components(separatedBy: "<tr><td>").count - 1 == 4)
        #expect(!second.contains(#"rel="next""#))
        // The first page links only onwards; a later one back to the newest too.
        #expect(!first.contains(">Newest</a>") && second.contains(#"<a href="/dashboard/clicks">Newest</a>"#))
        let lee = try client.dashboardPage("/dashboard/clicks?partner_id=part_lee", session: session).text
        #expect(lee.components(separatedBy: "<tr><td>").count - 1 == 1)
        #expect(lee.contains("<td>android</td>"))
    }

    @Test func thePartnerListIsPagedFiftyAtATime() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let partners = (0..<60).map {
            #"{"id":"part_p\#($0 < 10 ? "0" : "")\#($0)","name":"P\#($0)","status":"active"}"#
        }
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_bare","partners":["#
                + partners.joined(separator: ",") + "]}]}]}")
        let (client, session, _) = try Self.signedIn(server)
        func rows(_ page: String) -> Int {
            page.components(separatedBy: #"<tr><td><a href="/dashboard/partners/"#).count - 1
        }
        // Six partners of the fixture and sixty more: 50, then 16.
        // The page reads the store, which holds the import already.
        let first = try client.dashboardPage("/dashboard/partners", session: session).text
        #expect(rows(first) == 50)
        let next = try #require(
            first.range(of: #"<a rel="next" href=""#).map { first[$0.upperBound...].prefix { $0 != "\"" } })
        let second = try client.dashboardPage(String(next), session: session).text
        #expect(rows(second) == 16)
        #expect(!second.contains(#"rel="next""#))
        #expect(!first.contains(">First page</a>") && second.contains(">First page</a>"))
        #expect(!second.contains("part_zed"), "another organization's partner is never listed")
    }

    /// Settings → Integrations sets the webhook's authorization (never shown again) and the time zone, each in a form
    /// of its own, through the importer: saving one never touches the other; RevenueCat's events are taken with the
    /// new value only; an empty field or a bad zone is refused beside its field with nothing written.
    @Test func theIntegrationsFormsSetTheWebhookAuthorizationAndTheTimeZone() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try Self.signedIn(server)
        func organization() throws -> OrganizationRecord {
            try #require(try server.store.configRecords().organizations.first { $0.id == "org_acme" })
        }
        func post(_ fields: [(String, String)]) throws -> HTTPResponse {
            try client.dashboardPost(
                "/dashboard/settings/integrations", session: session, fields: [("csrf_token", token)] + fields)
        }
        let page = try client.dashboardPage("/dashboard/settings/integrations", session: session).text
        #expect(page.contains("Not set: the webhook refuses every event"))
        #expect(page.contains(#"type="password""#) && page.contains(#"autocomplete="new-password" required>"#))
        let secret = "Bearer rc-<set>-from-the-dashboard"
        let saved = try post([("webhook_authorization", secret)])
        #expect(saved.status == 303, "\(saved.text)")
        #expect(saved.header("location") == "/dashboard/settings/integrations?saved=1")
        let after = try client.dashboardPage("/dashboard/settings/integrations?saved=1", session: session).text
        #expect(after.contains(#"id="saved""#) && after.contains("Set (stored as a digest"))
        #expect(!after.contains("rc-&lt;set&gt;") && !after.contains("rc-<set>"), "the value is never shown")
        let digest = try #require(try organization().revenueCatAuthorizationDigest)
        #expect(try organization().timezone == "UTC")

        // The webhook takes the saved value once the link table has it, and refuses another.
        let event = RevenueCatPayload.purchase(user: "nobody", price: "1.00", transaction: "t-int-1")
        #expect(eventually(within: 2) { (try? client.webhook(event, authorization: secret))?.status == 200 })
        #expect(try client.webhook(event, authorization: "Bearer wrong").status == 401)

        // The time zone's form: saved alone, the authorization kept.
        #expect(try post([("timezone", "Europe/Berlin")]).status == 303)
        #expect(
            try organization().timezone == "Europe/Berlin" && organization().revenueCatAuthorizationDigest == digest)
        #expect(
            try client.dashboardPage("/dashboard/settings/integrations", session: session).text.contains(
                #"value="Europe/Berlin""#))

        // Refused beside the field, nothing written: an empty zone, an unknown zone, an authorization too short; and
        // a post with no field.
        for (fields, field) in [
            ([("webhook_authorization", "short")], "webhook_authorization"), ([("timezone", "")], "timezone"),
            ([("timezone", "Mars/Olympus")], "timezone"),
        ] {
            let refused = try post(fields)
            #expect(refused.status == 400, "\(fields)")
            #expect(refused.text.contains(#"id="field-\#(field)-error""#), "\(fields): \(refused.text)")
        }
        #expect(try post([]).status == 400)
        #expect(
            try organization().timezone == "Europe/Berlin" && organization().revenueCatAuthorizationDigest == digest)
        let missingToken = try client.dashboardPost(
            "/dashboard/settings/integrations", session: session, fields: [("timezone", "Asia/Tokyo")])
        #expect(missingToken.status == 403)
    }

    /// README: the authorization field "left empty keeps the stored one". With one stored, the field is not
    /// `required` and an empty (or blank) post keeps it; with none stored there is nothing to keep, so the field is
    /// `required` and an empty post is refused beside it.
    @Test func anEmptyAuthorizationKeepsTheStoredOneAndIsRequiredOnlyWithoutOne() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try Self.signedIn(server)
        func digest() throws -> String? {
            try server.store.configRecords().organizations.first { $0.id == "org_acme" }?.revenueCatAuthorizationDigest
        }
        func field(_ page: String) throws -> String {
            let start = try #require(page.range(of: #"<input id="field-webhook_authorization""#))
            return String(page[start.lowerBound...].prefix { $0 != ">" })
        }
        func post(_ value: String) throws -> HTTPResponse {
            try client.dashboardPost(
                "/dashboard/settings/integrations", session: session,
                fields: [("csrf_token", token), ("webhook_authorization", value)])
        }
        // None stored: required, and an empty post is refused beside the field.
        let unset = try client.dashboardPage("/dashboard/settings/integrations", session: session).text
        let unsetField = try field(unset)
        #expect(unsetField.hasSuffix(" required"), "\(unsetField)")
        let refused = try post("")
        #expect(refused.status == 400)
        #expect(refused.text.contains(#"id="field-webhook_authorization-error""#), "\(refused.text)")
        #expect(try digest() == nil)

        #expect(try post("Bearer first-secret-value").status == 303)
        let stored = try #require(try digest())
        let set = try client.dashboardPage("/dashboard/settings/integrations", session: session).text
        let setField = try field(set)
        #expect(!setField.contains("required"), "\(setField)")
        #expect(set.contains("Left empty, the stored one is kept."))
        for empty in ["", "   "] {
            let kept = try post(empty)
            #expect(kept.status == 303, "\(kept.text)")
            #expect(kept.header("location") == "/dashboard/settings/integrations?kept=1")
            #expect(try digest() == stored)
        }
        let page = try client.dashboardPage("/dashboard/settings/integrations?kept=1", session: session).text
        #expect(page.contains("The field was empty: the stored authorization is kept."))
        // Posted with a time zone (a script, or one form holding both): the zone is saved, the authorization kept,
        // never "is required" beside a field that has a stored value.
        let both = try client.dashboardPost(
            "/dashboard/settings/integrations", session: session,
            fields: [("csrf_token", token), ("webhook_authorization", ""), ("timezone", "Asia/Tokyo")])
        #expect(both.status == 303, "\(both.text)")
        #expect(both.header("location") == "/dashboard/settings/integrations?saved=1&kept=1")
        #expect(try digest() == stored)
        #expect(try server.store.configRecords().organizations.first { $0.id == "org_acme" }?.timezone == "Asia/Tokyo")
        // A new value still replaces it.
        #expect(try post("Bearer second-secret-value").status == 303)
        #expect(try digest() != stored)
    }

    @Test func headAnswersLikeGet() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let unsigned = try client.request("HEAD", "/dashboard")
        #expect(unsigned.status == 303)
        let session = try client.dashboardSession()
        let head = try client.request("HEAD", "/dashboard/clicks", headers: [("Cookie", "tolt_session=\(session)")])
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }
}

/// HTML escaping as the dashboard writes attribute values.
enum HTMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
