import Testing

@testable import LinkCore

@Suite struct LinkTableTests {
    static let records = ConfigRecords(
        organizations: [
            OrganizationRecord(id: "org_a", name: "A", publicKey: "pk_a", secretKeyDigest: SecretDigest.of("sk_a")),
            OrganizationRecord(id: "org_b", name: "B", publicKey: "pk_b", secretKeyDigest: SecretDigest.of("sk_b")),
        ],
        programs: [
            ProgramRecord(
                id: "prg_a", organizationID: "org_a", name: "A Pro",
                deepLinkTemplate: "myapp://c?code={code}&click={click_id}&again={code}"),
            ProgramRecord(
                id: "prg_a2", organizationID: "org_a", name: "A Lite",
                googlePlayURL: "https://play.google.com/store/apps/details?id=a#frag"),
            ProgramRecord(id: "prg_b", organizationID: "org_b", name: "B App"),
        ],
        partners: [
            PartnerRecord(id: "part_1", programID: "prg_a", name: "One", status: "active"),
            PartnerRecord(id: "part_2", programID: "prg_a2", name: "Two", status: "active"),
            PartnerRecord(id: "part_3", programID: "prg_a2", name: "Three", status: "inactive"),
            PartnerRecord(id: "part_4", programID: "prg_b", name: "Four", status: "active"),
        ],
        codes: [
            CodeRecord(reference: 1, partnerID: "part_1", code: "SAM20", active: true),
            CodeRecord(reference: 2, partnerID: "part_1", code: "SHARED", active: true),
            CodeRecord(reference: 3, partnerID: "part_2", code: "shared", active: true),
            CodeRecord(reference: 4, partnerID: "part_3", code: "SLEEP", active: true),
            CodeRecord(reference: 5, partnerID: "part_2", code: "OFF", active: false),
            CodeRecord(reference: 6, partnerID: "part_4", code: "SAM20", active: true),
            CodeRecord(reference: 7, partnerID: "part_3", code: "SHARED", active: true),
            CodeRecord(reference: 8, partnerID: "part_2", code: "A b&c", active: true),
        ])

    let table = LinkTable(records)

    func target(_ key: String, _ code: String) -> LinkTarget? {
        if case .target(let target)? = table.match(publicKey: key, code: code) { return target }
        return nil
    }

    @Test func codesMatchWithoutCaseWithinTheirOrganization() {
        #expect(target("pk_a", "sam20")?.partnerID == "part_1")
        #expect(target("pk_a", "SaM20")?.code == "SAM20")
        #expect(target("pk_b", "SAM20")?.partnerID == "part_4")
        #expect(table.match(publicKey: "pk_c", code: "SAM20") == nil)
        #expect(table.match(publicKey: "pk_a", code: "SAM2") == nil)
        #expect(table.match(publicKey: "pk_a", code: "SAM200") == nil)
    }

    @Test func inactiveCodesAndPartnersDoNotMatch() {
        #expect(table.match(publicKey: "pk_a", code: "SLEEP") == nil)
        #expect(table.match(publicKey: "pk_a", code: "OFF") == nil)
        #expect(table.target(reference: 4)?.isActive == false)
        #expect(table.target(reference: 5)?.isActive == false)
    }

    @Test func aCodeTwoActivePartnersHoldIsAConflict() {
        guard case .conflict? = table.match(publicKey: "pk_a", code: "shared") else {
            Issue.record("SHARED should be a conflict")
            return
        }
    }

    @Test func templatesArePrecomputedWithTheEncodedCode() throws {
        let chunks = try #require(target("pk_a", "sam20")?.redirectChunks)
        #expect(chunks.map { String(decoding: $0, as: UTF8.self) } == ["myapp://c?code=SAM20&click=", "&again=SAM20"])
    }

    @Test func playPrefixDropsTheFragmentAndEncodesTheCodeTwice() throws {
        let prefix = try #require(target("pk_a", "a b&c")?.playPrefix)
        #expect(
            String(decoding: prefix, as: UTF8.self)
                == "https://play.google.com/store/apps/details?id=a&referrer=tolt_code%3DA%2520b%2526c%26tolt_click%3D")
        #expect(target("pk_a", "a b&c")?.linkPath == Array("/a/pk_a/A%20b%26c".utf8))
    }

    /// Play hands the app one `referrer`: one the URL already has is merged into Tolt's, its parameters first and
    /// `tolt_click` last (the link path writes the click id at the end), without empty parameters and without a
    /// `tolt_code` or `tolt_click` of its own (the SDK reads the first `tolt_click`).
    @Test(arguments: [
        ("?id=a&referrer=utm_source%3Dnews", "?id=a&referrer=utm_source%3Dnews%26"),
        ("?referrer=utm_source%3Dnews&id=a", "?id=a&referrer=utm_source%3Dnews%26"),
        ("?id=a&referrer=utm_source=news&hl=en", "?id=a&hl=en&referrer=utm_source=news%26"),
        ("?referrer=a%3D1&id=a&referrer=b%3D2", "?id=a&referrer=a%3D1%26b%3D2%26"),
        ("?id=a&referrer=&x=1", "?id=a&x=1&referrer="),
        ("?id=a&referrer", "?id=a&referrer="),
        ("?referrer=%26%26u%3D1%26", "?referrer=u%3D1%26"),
        (
            "?id=a&referrer=tolt_code%3DOLD%26tolt_click%3Dclk_old%26u%3D1%26tolt_clicks%3D2",
            "?id=a&referrer=u%3D1%26tolt_clicks%3D2%26"
        ),
        ("?id=a&referrer=tolt_code=OLD%26tolt_click%3dx%26tolt_code", "?id=a&referrer="),
        ("?id=a&&hl=en&#frag", "?id=a&hl=en&referrer="),
        ("?id=a&xreferrer=1&referrers=2", "?id=a&xreferrer=1&referrers=2&referrer="),
        ("", "?referrer="), ("?", "?referrer="),
    ]) func aReferrerThePlayURLHasIsMergedIntoOne(_ query: String, _ expected: String) {
        let base = "https://play.google.com/store/apps/details"
        let prefix = LinkTarget.playPrefix(url: base + query, encodedCode: Array("SAM20".utf8))
        #expect(String(decoding: prefix, as: UTF8.self) == base + expected + "tolt_code%3DSAM20%26tolt_click%3D")
    }

    /// Before: a Play URL stored with text above ASCII (by an earlier version, which accepted it, or another tool)
    /// went into the redirect's `Location` as raw UTF-8. It is still served, that text percent-encoded as a browser
    /// encodes it, and the rest of the URL as it was.
    @Test func aStoredPlayURLAboveASCIIIsSentPercentEncoded() throws {
        let url = "https://play.google.com/store/apps/détails?id=a&hl=fr-é&referrer=ü%3D1"
        let records = ConfigRecords(
            organizations: [Self.records.organizations[0]],
            programs: [ProgramRecord(id: "prg_a", organizationID: "org_a", name: "A", googlePlayURL: url)],
            partners: [PartnerRecord(id: "part_1", programID: "prg_a", name: "One", status: "active")],
            codes: [CodeRecord(reference: 1, partnerID: "part_1", code: "SAM20", active: true)])
        guard case .target(let target)? = LinkTable(records).match(publicKey: "pk_a", code: "SAM20") else {
            Issue.record("SAM20 should match")
            return
        }
        let prefix = try #require(target.playPrefix)
        #expect(prefix.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }, "\(String(decoding: prefix, as: UTF8.self))")
        #expect(
            String(decoding: prefix, as: UTF8.self)
                == "https://play.google.com/store/apps/d%C3%A9tails?id=a&hl=fr-%C3%A9&referrer=%C3%BC%3D1%26tolt_code%3DSAM20"
                + "%26tolt_click%3D")
        // The page's badge keeps the URL as stored (it is HTML-escaped there, and a browser encodes it).
        #expect(target.program.record.googlePlayURL == url)
    }

    @Test func keysFindTheirOrganizations() {
        #expect(table.organization(publicKey: "pk_b")?.id == "org_b")
        #expect(table.organization(secretKey: "sk_a")?.id == "org_a")
        #expect(table.organization(secretKey: "pk_a") == nil)
    }

    /// A decision as text: its case, the code it carries, its payload's size, and whether it records a click.
    private func decide(_ match: LinkTable.Match?, isHead: Bool = false, caller: UserAgentClass) -> String {
        let (decision, recordsClick) = LinkDecision.decide(match: match, isHead: isHead, caller: { caller })
        let click = recordsClick ? "click" : "no click"
        switch decision {
        case .notFound: return "notFound \(click)"
        case .preview(let target): return "preview \(target.code) \(click)"
        case .redirect(let target, let chunks):
            #expect(chunks == target.redirectChunks)
            return "redirect \(target.code) \(click)"
        case .play(let target, let prefix):
            #expect(prefix == target.playPrefix)
            return "play \(target.code) \(click)"
        case .page(let target): return "page \(target.code) \(click)"
        }
    }

    @Test func decisionFollowsTheLinkRules() throws {
        let human = UserAgentClass(label: .human, platform: .android)
        let bot = UserAgentClass(label: .bot, platform: .other)
        let preview = UserAgentClass(label: .preview, platform: .other)
        let templated = table.match(publicKey: "pk_a", code: "SAM20")
        let play = table.match(publicKey: "pk_a", code: "a b&c")
        let bare = table.match(publicKey: "pk_b", code: "SAM20")
        #expect(decide(templated, caller: human) == "redirect SAM20 click")
        #expect(decide(templated, isHead: true, caller: human) == "preview SAM20 no click")
        #expect(decide(templated, caller: preview) == "preview SAM20 no click")
        // Another bot follows only a web address; a scheme only the app opens, Google Play and the page give it the
        // preview.
        #expect(decide(templated, caller: bot) == "preview SAM20 no click")
        #expect(decide(play, caller: bot) == "preview A b&c no click")
        #expect(decide(bare, caller: bot) == "preview SAM20 no click")
        #expect(decide(play, caller: human) == "play A b&c click")
        #expect(decide(play, caller: UserAgentClass(label: .human, platform: .ios)) == "page A b&c click")
        #expect(decide(bare, caller: human) == "page SAM20 click")
        #expect(decide(nil, caller: human) == "notFound no click")
        #expect(decide(table.match(publicKey: "pk_a", code: "shared"), caller: human) == "notFound no click")
    }

    /// A desktop is sent to a template that is a web address (a universal link opens as a page without the app),
    /// never to a scheme only the app opens: it gets the page, with the code and the QR code for a phone to scan.
    @Test func aDesktopGetsThePageRatherThanASchemeOnlyTheAppOpens() {
        let desktop = UserAgentClass(label: .human, platform: .desktop)
        let templated = table.match(publicKey: "pk_a", code: "SAM20")
        #expect(decide(templated, caller: desktop) == "page SAM20 click")
        #expect(decide(templated, caller: UserAgentClass(label: .human, platform: .ios)) == "redirect SAM20 click")
        #expect(decide(templated, caller: UserAgentClass(label: .human, platform: .other)) == "redirect SAM20 click")
        for template in ["https://app.example.com/c/{code}?click={click_id}", "HTTP://app.example.com/{code}"] {
            let web = LinkTable(
                ConfigRecords(
                    organizations: [
                        OrganizationRecord(
                            id: "org_w", name: "W", publicKey: "pk_w", secretKeyDigest: SecretDigest.of("sk_w"))
                    ],
                    programs: [
                        ProgramRecord(id: "prg_w", organizationID: "org_w", name: "W", deepLinkTemplate: template)
                    ],
                    partners: [PartnerRecord(id: "part_w", programID: "prg_w", name: "W", status: "active")],
                    codes: [CodeRecord(reference: 1, partnerID: "part_w", code: "SAM20", active: true)]))
            #expect(decide(web.match(publicKey: "pk_w", code: "SAM20"), caller: desktop) == "redirect SAM20 click")
        }
    }

    @Test func aCodeThatMatchesNothingIsNotClassified() {
        var asked = false
        let (decision, recordsClick) = LinkDecision.decide(
            match: table.match(publicKey: "pk_a", code: "nope"), isHead: false,
            caller: {
                asked = true
                return UserAgentClass(label: .human, platform: .ios)
            })
        guard case .notFound = decision else {
            Issue.record("expected notFound, got \(decision)")
            return
        }
        #expect(!recordsClick && !asked)
    }

    func deadEnd(_ key: String, _ code: String, in table: LinkTable? = nil) -> String? {
        let lowered = Array(code.utf8).map(ASCII.lowercased)
        return Array(key.utf8).withUnsafeBytes { key in
            lowered.withUnsafeBytes { (table ?? self.table).deadEndProgram(publicKey: key, lowercasedCode: $0) }
        }?.record.id
    }

    /// A link that matches no target names the stored code's program when every code so spelled is of one program
    /// with a store URL; a code spelled so in two programs, an unknown code of an organization with two programs, a
    /// program without a store and an unknown key name none.
    @Test func aDeadLinkNamesItsProgramOnlyWhenThatIsUnambiguous() {
        #expect(deadEnd("pk_a", "OFF") == "prg_a2")
        #expect(deadEnd("pk_a", "off") == "prg_a2")
        #expect(deadEnd("pk_a", "SLEEP") == "prg_a2")
        #expect(deadEnd("pk_a", "SHARED") == nil)
        #expect(deadEnd("pk_a", "NOPE") == nil)
        #expect(deadEnd("pk_b", "NOPE") == nil)
        #expect(deadEnd("pk_c", "OFF") == nil)
        // An organization whose one program has a store: any code of it, even one stored in another organization.
        var records = Self.records
        records.programs[2].appStoreURL = "https://apps.apple.com/app/id1"
        let single = LinkTable(records)
        #expect(deadEnd("pk_b", "NOPE", in: single) == "prg_b")
        #expect(deadEnd("pk_b", "OFF", in: single) == "prg_b")
        #expect(deadEnd("pk_a", "NOPE", in: single) == nil)
        // Two active partners of one program share a code: that program.
        records.codes.append(CodeRecord(reference: 9, partnerID: "part_3", code: "twin", active: true))
        records.partners[2].status = "active"
        records.codes.append(CodeRecord(reference: 10, partnerID: "part_2", code: "TWIN", active: true))
        let twins = LinkTable(records)
        guard case .conflict? = twins.match(publicKey: "pk_a", code: "Twin") else {
            Issue.record("expected a conflict")
            return
        }
        #expect(deadEnd("pk_a", "Twin", in: twins) == "prg_a2")
    }
}
