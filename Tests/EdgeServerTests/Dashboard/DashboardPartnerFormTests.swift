import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// The partner forms over real sockets: adding a code the partner (or another partner) already holds, the code
/// hint, and the list's order.
@Suite struct DashboardPartnerFormTests {
    /// The text of the error beside the code field of `page`, if any.
    static func codeError(_ page: String) -> String? {
        page.range(of: #"<p class="error" id="field-code-error">"#).map {
            String(page[$0.upperBound...].prefix { $0 != "<" })
        }
    }

    /// Sam holds SAM20 (active) and OLD10 (inactive). Adding either again, in any case, would rename the stored code
    /// (its deactivate address and `{code}` in templates change with it): refused beside the field, nothing written.
    @Test func addingACodeThePartnerAlreadyHoldsInAnyCaseIsRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        for (code, stored, state) in [
            ("sam20", "SAM20", ""), ("SAM20", "SAM20", ""), ("Sam20", "SAM20", ""),
            ("old10", "OLD10", " (inactive: reactivate it above)"),
            (" OLD10 ", "OLD10", " (inactive: reactivate it above)"),
        ] {
            let refused = try client.dashboardPost(
                "/dashboard/partners/part_sam/codes", session: session, fields: [("csrf_token", token), ("code", code)])
            #expect(refused.status == 400, "\(code): \(refused.status)")
            #expect(
                Self.codeError(refused.text) == "Sam already has the code \(stored)\(state)",
                "\(code): \(Self.codeError(refused.text) ?? refused.text)")
            #expect(refused.text.contains(#"aria-invalid="true""#))
        }
        #expect(try server.store.configRecords() == before)
        // The old addresses still work.
        let deactivated = try client.dashboardPost(
            "/dashboard/partners/part_sam/codes/SAM20/deactivate", session: session, fields: [("csrf_token", token)])
        #expect(deactivated.status == 303)
        #expect(
            try server.store.configRecords().codes.first { $0.partnerID == "part_sam" && $0.code == "SAM20" }?.active
                == false)
    }

    /// Another active partner's active code, in any case, is refused beside the field (the shared-code rule); a
    /// code only an inactive partner holds may be taken (the existing rule: it works for the new holder alone).
    @Test func addingAnotherActivePartnersCodeIsRefusedBesideTheField() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        for code in ["LEE", "lee", "SAM20"] {
            let refused = try client.dashboardPost(
                "/dashboard/partners/part_bo/codes", session: session, fields: [("csrf_token", token), ("code", code)])
            #expect(refused.status == 400, "\(code)")
            let error = Self.codeError(refused.text) ?? ""
            let holder = code == "SAM20" ? "Sam" : "Lee"
            #expect(
                error
                    == "\(code) is already a code of \(holder); a code two active partners share stops working for both",
                "\(code): \(error) \(refused.text)")
        }
        #expect(try server.store.configRecords() == before)
        // Idle is inactive: its IDLE5 stops nobody.
        let taken = try client.dashboardPost(
            "/dashboard/partners/part_bo/codes", session: session, fields: [("csrf_token", token), ("code", "idle5")])
        #expect(taken.status == 303, "\(taken.text)")
    }

    /// The hint under a code field says what a code may be (the importer's rule), not "Letters, digits, - and _",
    /// and how codes match; a code it allows is accepted.
    @Test func theCodeHintSaysWhatIsAccepted() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let hint =
            "Up to 64 bytes: no spaces, control characters, invisible characters or / ? # %, and not . or .. alone"
            + " (browsers drop them from a link). Links match it without case for A–Z only (SAM20 is sam20; É is"
            + " not é)."
        for path in ["/dashboard/partners", "/dashboard/partners/part_sam"] {
            let page = try client.dashboardPage(path, session: session).text
            #expect(page.contains(#"<p class="hint" id="field-code-hint">\#(hint)</p>"#), "\(path): \(page)")
            #expect(page.contains(#"aria-describedby="field-code-hint""#), "\(path)")
            #expect(!page.contains("Letters, digits, - and _."))
        }
        // What the old hint forbade: accepted.
        let added = try client.dashboardPost(
            "/dashboard/partners/part_sam/codes", session: session,
            fields: [("csrf_token", token), ("code", "ÉTÉ+20!")])
        #expect(added.status == 303, "\(added.text)")
    }

    /// `.` and `..` can never be a link's last segment (browsers and messengers remove dot segments): refused beside
    /// the field, naming the code, with nothing written; dots beside other characters are codes like any other.
    @Test func addingADotSegmentCodeIsRefusedBesideTheField() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        for code in [".", ".."] {
            let refused = try client.dashboardPost(
                "/dashboard/partners/part_sam/codes", session: session, fields: [("csrf_token", token), ("code", code)])
            #expect(refused.status == 400, "\(code)")
            let error = Self.codeError(refused.text) ?? refused.text
            #expect(error.hasPrefix("\(code) is a dot segment, which browsers and messengers remove"), "\(error)")
            #expect(refused.text.contains(#"aria-invalid="true""#))
        }
        let first = try client.dashboardPost(
            "/dashboard/partners", session: session,
            fields: [("csrf_token", token), ("program_id", "prg_bare"), ("name", "Dot"), ("code", "..")])
        #expect(first.status == 400, "the first code of a new partner: \(first.status)")
        #expect(first.text.contains(".. is a dot segment"), "\(first.text)")
        #expect(try server.store.configRecords() == before)
        let dots = try client.dashboardPost(
            "/dashboard/partners/part_sam/codes", session: session, fields: [("csrf_token", token), ("code", "...")])
        #expect(dots.status == 303, "\(dots.text)")
    }

    /// Partners are listed by name (without case), then id, and paged in that order.
    @Test func partnersAreListedByNameThenIdAndPagedInThatOrder() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        // Ids in the reverse of the names' order, and one name twice.
        let names = (0..<55).map { "Partner \($0 < 10 ? "0" : "")\($0)" }
        let partners = names.enumerated().map { index, name in
            #"{"id":"part_z\#(99 - index)","name":"\#(name)","status":"active"}"#
        }
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_bare","partners":["#
                + partners.joined(separator: ",")
                + #",{"id":"part_aa","name":"partner 00","status":"active"},{"id":"part_ab","name":"Partner 00","status":"active"}]}]}]}"#
        )
        let (client, session, _) = try DashboardFormTests.signedIn(server)
        func listed(_ page: String) -> [String] {
            page.components(separatedBy: #"<tr><td><a href="/dashboard/partners/"#).dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
        }
        let first = try client.dashboardPage("/dashboard/partners", session: session).text
        let next = try #require(
            first.range(of: #"<a rel="next" href=""#).map { first[$0.upperBound...].prefix { $0 != "\"" } })
        let second = try client.dashboardPage(String(next), session: session).text
        let ids = listed(first) + listed(second)
        #expect(listed(first).count == 50)
        // Names without case first, then the exact name, then the id; every partner of the organization once.
        let records = try server.store.configRecords()
        let expected = records.partners.filter { ["prg_acme", "prg_play", "prg_bare"].contains($0.programID) }
            .sorted { ($0.name.lowercased(), $0.name, $0.id) < ($1.name.lowercased(), $1.name, $1.id) }.map(\.id)
        #expect(ids == expected, "\(ids)")
        #expect(
            Array(ids.prefix(8)) == [
                "part_a", "part_b", "part_bo", "part_idle", "part_lee", "part_ab", "part_z99", "part_aa",
            ])
        #expect(ids.last == "part_sam")
        #expect(ids.firstIndex(of: "part_z99")! < ids.firstIndex(of: "part_z98")!, "by name, not by id")
    }
}

extension DashboardPartnerFormTests {
    /// The add-partner and add-code forms saved a post with a field they do not have (`admin=1`) as if it were not
    /// there; as the tracking and integrations forms do, they refuse it now, naming it, with nothing saved.
    @Test func theAddFormsRefuseAFieldTheyDoNotHave() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let (client, session, token) = try DashboardFormTests.signedIn(server)
        let before = try server.store.configRecords()
        let partner = try client.dashboardPost(
            "/dashboard/partners", session: session,
            fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", "Extra"), ("admin", "1")])
        #expect(partner.status == 400, "\(partner.status)")
        #expect(
            partner.text.contains("This form has no field admin; nothing was saved."), "\(partner.text.suffix(2000))")
        let code = try client.dashboardPost(
            "/dashboard/partners/part_sam/codes", session: session,
            fields: [("csrf_token", token), ("code", "EXTRA1"), ("active", "false")])
        #expect(code.status == 400, "\(code.status)")
        #expect(code.text.contains("This form has no field active; nothing was saved."), "\(code.text.suffix(2000))")
        #expect(try server.store.configRecords() == before)
        let added = try client.dashboardPost(
            "/dashboard/partners", session: session,
            fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", "Extra")])
        #expect(added.status == 303, "the form's own fields still save: \(added.status)")
    }
}
