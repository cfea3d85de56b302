import EdgeStore
import LinkCore
import TestSupport
import Testing

/// `tolt-edge import` merges: creates, updates by id, leaves what the file does not name, and changes
/// nothing the second time; `export` writes the same form back without secrets.
@Suite struct ConfigImporterTests {
    @Test(arguments: StoreKind.allCases) func importCreatesEveryObjectAndSaysSo(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let report = try fixture.importJSON(ConfigFixtures.acme)
        #expect(report.changes.contains("created organization org_acme"))
        #expect(report.changes.contains("created program prg_play"))
        #expect(report.changes.contains("created partner part_idle"))
        #expect(report.changes.contains("created code SAM20 of part_sam"))
        #expect(report.changes.count == 1 + 2 + 3 + 4)
        #expect(report.generatedSecrets.isEmpty)
        // prg_acme's template is a scheme only the app opens (ConfigTemplateAdviceTests).
        #expect(report.warnings.count == 1 && report.warnings[0].contains("a scheme only the app opens"))

        let records = try fixture.store.configRecords()
        #expect(
            records.organizations == [
                OrganizationRecord(
                    id: "org_acme", name: "Acme", publicKey: "pk_acme",
                    secretKeyDigest: SecretDigest.of("sk_acme_secret"))
            ])
        let program = try #require(records.programs.first { $0.id == "prg_acme" })
        #expect(program.claimWindowDays == 30)
        #expect(program.deepLinkTemplate == "myapp://claim?tolt_code={code}&tolt_click={click_id}")
        #expect(records.codes.first { $0.code == "IDLE5" }?.active == true, "a code is active unless it says otherwise")
        #expect(records.partners.first { $0.id == "part_idle" }?.status == "inactive")
        #expect(Set(records.codes.map(\.reference)).count == 4, "every code has its own reference")
    }

    @Test(arguments: StoreKind.allCases) func aSecondImportOfTheSameFileReportsNothingAndWritesNothing(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let revision = try fixture.store.configRevision()
        #expect(try fixture.importJSON(ConfigFixtures.acme).reportsNothing)
        #expect(try fixture.store.configRevision() == revision)

        // Without ids, objects are found again by their natural keys: still nothing to do.
        let withoutIDs = """
            {"organizations":[{"name":"Beta","public_key":"pk_beta","secret_key":"sk_beta_secret","programs":[
              {"name":"Beta App","partners":[{"name":"Kim","codes":[{"code":"KIM1"}]}]}]}]}
            """
        #expect(try fixture.importJSON(withoutIDs).changes.count == 4)
        let before = try fixture.store.configRecords()
        #expect(try fixture.importJSON(withoutIDs).reportsNothing)
        #expect(try fixture.store.configRecords() == before)
    }

    @Test(arguments: StoreKind.allCases) func anUpdateByIdChangesOnlyTheFieldsItNames(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let before = try fixture.store.configRecords()
        let report = try fixture.importJSON(
            """
            {"organizations":[{"id":"org_acme","name":"Acme Inc","programs":[
              {"id":"prg_acme","name":"Acme Max","app_links":{"app_store_url":null},
               "partners":[{"id":"part_sam","name":"Samantha","codes":[{"code":"sam20","active":false}]}]}]}]}
            """)
        #expect(
            Set(report.changes) == [
                "updated organization org_acme", "updated program prg_acme", "updated partner part_sam",
                "updated code sam20 of part_sam",
            ])
        let after = try fixture.store.configRecords()
        let organization = try #require(after.organizations.first)
        #expect(organization.name == "Acme Inc")
        #expect(
            organization.secretKeyDigest == SecretDigest.of("sk_acme_secret"),
            "an update without secret_key keeps the key")
        #expect(organization.publicKey == "pk_acme")
        let program = try #require(after.programs.first { $0.id == "prg_acme" })
        #expect(program.name == "Acme Max" && program.appStoreURL == nil)
        #expect(program.claimWindowDays == 30 && program.googlePlayURL != nil && program.deepLinkTemplate != nil)
        let code = try #require(after.codes.first { $0.partnerID == "part_sam" && $0.code.lowercased() == "sam20" })
        #expect(code.active == false && code.code == "sam20")
        #expect(code.reference == before.codes.first { $0.code == "SAM20" }?.reference, "a code keeps its reference")
        #expect(after.partners.first { $0.id == "part_sam" }?.status == "active", "an absent status is kept")
        // Not in the file, so left as they were.
        #expect(after.codes.first { $0.code == "OLD10" } == before.codes.first { $0.code == "OLD10" })
        #expect(after.programs.first { $0.id == "prg_play" } == before.programs.first { $0.id == "prg_play" })
        #expect(after.partners.filter { $0.id != "part_sam" } == before.partners.filter { $0.id != "part_sam" })
    }

    @Test(arguments: StoreKind.allCases) func aMissingSecretKeyIsGeneratedOnceAndKept(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let document = #"{"organizations":[{"id":"org_new","name":"New","public_key":"pk_new"}]}"#
        let report = try fixture.importJSON(document)
        let generated = try #require(report.generatedSecrets.first)
        #expect(report.generatedSecrets.count == 1 && generated.organizationID == "org_new")
        #expect(generated.secretKey.hasPrefix("sk_") && generated.secretKey.utf8.count >= 16)
        let digest = SecretDigest.of(generated.secretKey)
        #expect(try fixture.store.configRecords().organizations.first?.secretKeyDigest == digest, "kept as its digest")

        #expect(try fixture.importJSON(document).reportsNothing, "no second key is generated")
        #expect(try fixture.store.configRecords().organizations.first?.secretKeyDigest == digest)
        let other = try fixture.importJSON(#"{"organizations":[{"id":"org_two","name":"Two","public_key":"pk_two"}]}"#)
        #expect(other.generatedSecrets.first?.secretKey != generated.secretKey)
    }

    @Test(arguments: StoreKind.allCases) func aCodeTwoPartnersHoldIsAcceptedWithAWarning(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let report = try fixture.importJSON(
            """
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play",
              "partners":[{"id":"part_copy","name":"Copycat","codes":[{"code":"sam20"}]}]}]}]}
            """)
        #expect(report.changes == ["created partner part_copy", "created code sam20 of part_copy"])
        #expect(report.warnings.count == 1)
        let warning = try #require(report.warnings.first)
        #expect(warning.lowercased().contains("sam20") && warning.contains("part_sam") && warning.contains("part_copy"))
        #expect(try fixture.store.configRecords().codes.filter { $0.code.lowercased() == "sam20" }.count == 2)
        #expect(try fixture.importJSON(#"{"organizations":[{"id":"org_acme","name":"Acme"}]}"#).warnings.count == 1)
        // A code held by a partner of another organization is no conflict.
        let elsewhere = try fixture.importJSON(
            """
            {"organizations":[{"id":"org_b","name":"B","public_key":"pk_b","secret_key":"sk_b_secret",
              "programs":[{"id":"prg_b","name":"B","partners":[{"id":"part_b","name":"B","codes":[{"code":"LEE"}]}]}]}]}
            """)
        #expect(!elsewhere.warnings.contains { $0.contains("LEE") })
    }

    /// Two partners' codes that read the same but are written with other code points: both links work and a person
    /// who types the code reaches one of them, so the import warns, naming both (it said nothing). The same code in
    /// another ASCII case is the shared-code warning only, and a lookalike of another organization is none.
    @Test(arguments: StoreKind.allCases) func lookalikeCodesOfTwoPartnersAreAcceptedWithAWarning(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let report = try fixture.importJSON(
            #"""
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","partners":[
              {"id":"part_x","name":"X","codes":[{"code":"CAF\u00c9"},{"code":"KING"},{"code":"SAM20"}]},
              {"id":"part_y","name":"Y","codes":[{"code":"CAFE\u0301"},{"code":"\u212aING"}]}]}]}]}
            """#)
        let lookalikes = report.warnings.filter { $0.contains("read the same") }
        #expect(lookalikes.count == 2, "\(report.warnings)")
        #expect(
            lookalikes.contains {
                $0.contains("U+00C9") && $0.contains("U+0301") && $0.contains("part_x") && $0.contains("part_y")
            })
        #expect(lookalikes.contains { $0.contains("U+212A") && $0.contains("U+004B") })
        #expect(report.warnings.count == 3, "and SAM20 shared with part_sam: \(report.warnings)")
        let elsewhere = try fixture.importJSON(
            #"""
            {"organizations":[{"id":"org_b","name":"B","public_key":"pk_b","secret_key":"sk_b_secret",
              "programs":[{"id":"prg_b","name":"B","partners":[{"id":"part_b","name":"B","codes":[{"code":"CAFE\u0301"}]}]}]}]}
            """#)
        #expect(elsewhere.warnings.filter { $0.contains("read the same") }.count == 2, "only org_acme's pairs")
    }

    /// Another partner's code in full-width or another compatibility form (`ＳＡＭ２０`, `ﬁx` beside `FIX`): each
    /// matches as written, and a spelling between them matches both, so the import warns, naming both (it said
    /// nothing), as for a canonical lookalike; a pair that is both kinds (the Kelvin sign) is told once, as canonical.
    @Test(arguments: StoreKind.allCases) func compatibilityLookalikesOfTwoPartnersAreAcceptedWithAWarning(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let report = try fixture.importJSON(
            #"""
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","partners":[
              {"id":"part_x","name":"X","codes":[{"code":"FIX"},{"code":"KING"}]},
              {"id":"part_y","name":"Y","codes":[{"code":"\uff33\uff21\uff2d\uff12\uff10"},{"code":"\ufb01x"},
                {"code":"\u212aING"}]}]}]}]}
            """#)
        #expect(report.changes.count == 7, "accepted: \(report.changes)")
        let lookalikes = report.warnings.filter { $0.contains("read the same") }
        #expect(lookalikes.count == 3, "\(report.warnings)")
        #expect(
            lookalikes.contains {
                $0.contains("part_sam") && $0.contains("part_y") && $0.contains("U+FF33")
                    && $0.contains("refused as a shared")
            })
        #expect(lookalikes.contains { $0.contains("U+FB01") && $0.contains("part_x") && $0.contains("matches both") })
        #expect(lookalikes.contains { $0.contains("U+212A") && $0.contains("tell them apart") })
    }

    /// org_acme's `SAM20` given as `sam20` to part_kim while org_demo's part_demo holds `Sam20`: a code is per
    /// organization (`/a/<public_key>/<code>`), so only the holders that make the code 404 and claims 409 are named,
    /// active partners of that organization holding it active.
    @Test(arguments: StoreKind.allCases) func theSharedCodeWarningNamesOnlyTheOrganizationsActiveHolders(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        try fixture.importJSON(
            """
            {"organizations":[{"id":"org_demo","name":"Demo","public_key":"pk_demo","secret_key":"sk_demo_secret",
              "programs":[{"id":"prg_demo","name":"Demo","partners":[
                {"id":"part_demo","name":"Demo","status":"active","codes":[{"code":"Sam20","active":true}]}]}]}]}
            """)
        let report = try fixture.importJSON(
            """
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","partners":[
              {"id":"part_kim","name":"Kim","status":"active","codes":[{"code":"sam20","active":true}]},
              {"id":"part_gone","name":"Gone","status":"inactive","codes":[{"code":"SAM20","active":true}]},
              {"id":"part_old","name":"Old","status":"active","codes":[{"code":"sAm20","active":false}]}]}]}]}
            """)
        // The code is shown as one of its holders spells it (which one is not the point: compared without case).
        #expect(
            report.warnings.map { $0.lowercased() } == [
                "code sam20 is held by more than one partner of org_acme (part_kim, part_sam): "
                    + "its link answers 404 and claims answer 409 until only one holds it"
            ])
        // Once part_kim's code is inactive only part_sam holds it: no conflict and no warning, though an inactive
        // partner, an inactive code and another organization's partner hold the same text.
        let resolved = try fixture.importJSON(
            """
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","partners":[
              {"id":"part_kim","codes":[{"code":"sam20","active":false}]}]}]}]}
            """)
        #expect(resolved.warnings.isEmpty, "\(resolved.warnings)")
    }

    @Test(arguments: StoreKind.allCases) func exportRoundTripsWithoutSecrets(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        #expect(!exported.contains("sk_acme_secret") && !exported.contains("secret_key"))

        // Importing the export into the same store changes nothing.
        #expect(try fixture.importJSON(exported).reportsNothing)
        // Into an empty store, it rebuilds the same configuration, with a new secret key.
        let copy = try StoreFixture(kind)
        defer { copy.remove() }
        let report = try copy.importJSON(exported)
        #expect(report.generatedSecrets.map(\.organizationID) == ["org_acme"])
        #expect(try copy.store.configRecords().comparable == (try fixture.store.configRecords().comparable))
        let again = String(decoding: try ConfigImporter.exportDocument(from: copy.store), as: UTF8.self)
        #expect(again == exported)
    }

    /// A template's own text is checked when it is written: an unknown placeholder and a `%` that starts no escape are
    /// refused. One stored before those rules (or by another tool) is served as it is, so the export of its
    /// configuration imports again, unchanged, with a warning naming what breaks them; a new such template is still
    /// refused.
    @Test(
        arguments: StoreKind.allCases,
        [
            (
                "myapp://claim?c={code}&k={clickid}", "has an unknown placeholder {clickid}",
                "myapp://claim?c={code}&k={clikid}"
            ),
            (
                "https://good.example/%zz{code}?c={click_id}", "has a % that starts no escape (%zz)",
                "https://good.example/%zy{code}"
            ),
        ])
    func aStoredTemplateThatBreaksAWriteRuleRoundTripsWithAWarning(
        kind: StoreKind, _ template: (stored: String, warning: String, new: String)
    ) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        var program = try #require(try fixture.store.configRecords().programs.first { $0.id == "prg_acme" })
        program.deepLinkTemplate = template.stored
        var changes = ConfigChanges()
        changes.programs = [program]
        try fixture.store.applyConfig(changes, expectedRevision: try fixture.store.configRevision())
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        let report = try fixture.importJSON(exported)
        #expect(
            report.warnings.contains { $0.contains("deep_link_template: the stored template \(template.warning)") },
            "\(report.warnings)")
        let after = try #require(try fixture.store.configRecords().programs.first { $0.id == "prg_acme" })
        #expect(after.deepLinkTemplate == template.stored)
        #expect(throws: StoreError.self) {
            try fixture.importJSON(
                #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","#
                    + #""app_links":{"deep_link_template":"\#(template.new)"}}]}]}"#)
        }
    }

    /// A new code made only of characters drawn blank (U+2800 BRAILLE PATTERN BLANK, the Hangul fillers) is refused
    /// as a blank name is: nobody could read it off a page or type it; one with a visible character among them is
    /// refused as holding an invisible character (it would look like the code without it).
    @Test(arguments: StoreKind.allCases) func aNewCodeThatShowsNothingIsRefused(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let partner = #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":[{"id":"part_sam","#
        for (code, first) in [("\u{2800}", "U+2800"), ("\u{3164}\u{3164}", "U+3164"), ("\u{FFA0}", "U+FFA0")] {
            let before = try fixture.store.configRecords()
            #expect {
                try fixture.importJSON(partner + #""codes":[{"code":"\#(code)"}]}]}]}]}"#)
            } throws: { error in
                "\(error)".contains(".code: must show a visible character") && "\(error)".contains("(found \(first))")
            }
            #expect(try fixture.store.configRecords() == before)
        }
        let before = try fixture.store.configRecords()
        #expect {
            try fixture.importJSON(partner + #""codes":[{"code":"\#u{2800}A"}]}]}]}]}"#)
        } throws: { error in
            "\(error)".contains(".codes[0].code: must not contain invisible characters: it holds U+2800,")
        }
        #expect(try fixture.store.configRecords() == before)
    }

    /// A code stored before the invisible-character rule (an older store's export, another tool) holding one of them
    /// is carried over: the export imports again unchanged, with a warning naming its code points, and its link is
    /// unchanged; and it is named as a lookalike of another partner's code it differs from only by them (it looked
    /// like `SAM20` and nothing said so).
    @Test(arguments: StoreKind.allCases) func aStoredCodeWithAnInvisibleCharacterIsCarriedOverAndNamedAsALookalike(
        kind: StoreKind
    ) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":[{"id":"part_sam","#
                + #""codes":[{"code":"\u00c9\u00c9"}]}]}]}]}"#)
        var changes = ConfigChanges()
        changes.codes = ["SAM20\u{FE0F}", "\u{C9}\u{200D}\u{C9}"].map {
            CodeRecord(reference: 0, partnerID: "part_lee", code: $0, active: true)
        }
        try fixture.store.applyConfig(changes, expectedRevision: try fixture.store.configRevision())
        let revision = try fixture.store.configRevision()
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        let report = try fixture.importJSON(exported)
        #expect(report.changes.isEmpty, "\(report.changes)")
        #expect(try fixture.store.configRevision() == revision)
        for shown in ["U+0053 U+0041 U+004D U+0032 U+0030 U+FE0F", "U+00C9 U+200D U+00C9"] {
            #expect(
                report.warnings.contains { $0.contains("holds a character drawn as nothing (\(shown))") },
                "\(report.warnings)")
        }
        let lookalikes = report.warnings.filter { $0.contains("read the same") }
        #expect(lookalikes.count == 2, "\(report.warnings)")
        for point in ["U+FE0F", "U+200D"] {
            #expect(
                lookalikes.contains {
                    $0.contains(point) && $0.contains("part_sam") && $0.contains("part_lee")
                        && $0.contains("tell them apart")
                }, "\(lookalikes)")
        }
        let codes = try fixture.store.configRecords().codes.filter { $0.partnerID == "part_lee" }.map(\.code)
        #expect(codes.contains { $0.utf8.elementsEqual("SAM20\u{FE0F}".utf8) })
        #expect(codes.contains { $0.utf8.elementsEqual("\u{C9}\u{200D}\u{C9}".utf8) })
    }

    /// The codes `.` and `..`, codes holding a space of any kind (`JP21` and an ideographic space, from a
    /// spreadsheet cell) and codes holding a character drawn as nothing (`SAM2`, U+FE0F and `0`) are refused when
    /// created; one stored before that rule (or by another tool) stays: the
    /// export imports again unchanged with a warning, and the code can still be deactivated and reactivated (the
    /// dashboard's buttons import `{"code":"..","active":false}`).
    @Test(
        arguments: StoreKind.allCases,
        [
            ("..", "the stored code .. is a dot segment", ".. is a dot segment"),
            (
                "JP21\u{3000}", "the stored code JP21\u{3000} holds a space (U+004A U+0050 U+0032 U+0031 U+3000)",
                "must not contain spaces: it holds U+3000"
            ),
            (
                "\u{00A0}SAM", "the stored code \u{00A0}SAM holds a space (U+00A0 U+0053 U+0041 U+004D)",
                "must not contain spaces: it holds U+00A0"
            ),
            (
                "A\u{2009}B", "the stored code A\u{2009}B holds a space (U+0041 U+2009 U+0042)",
                "must not contain spaces: it holds U+2009"
            ),
            (
                "SAM2\u{FE0F}0",
                "the stored code SAM2\u{FE0F}0 holds a character drawn as nothing (U+0053 U+0041 U+004D U+0032 U+FE0F"
                    + " U+0030)", "must not contain invisible characters: it holds U+FE0F,"
            ),
            (
                "SAM\u{34F}20",
                "the stored code SAM\u{34F}20 holds a character drawn as nothing (U+0053 U+0041 U+004D U+034F U+0032"
                    + " U+0030)", "must not contain invisible characters: it holds U+034F,"
            ),
            (
                "SAM\u{3164}20",
                "the stored code SAM\u{3164}20 holds a character drawn as nothing (U+0053 U+0041 U+004D U+3164 U+0032"
                    + " U+0030)", "must not contain invisible characters: it holds U+3164,"
            ),
        ]) func aStoredCodeRefusedOnCreationRoundTripsWithAWarningAndCanBeDeactivated(
            kind: StoreKind, code: (text: String, warning: String, error: String)
        ) throws
    {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        var changes = ConfigChanges()
        changes.codes = [CodeRecord(reference: 0, partnerID: "part_sam", code: code.text, active: true)]
        try fixture.store.applyConfig(changes, expectedRevision: try fixture.store.configRevision())
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        let report = try fixture.importJSON(exported)
        #expect(report.changes.isEmpty, "\(report.changes)")
        #expect(report.warnings.contains { $0.contains(".code: " + code.warning) }, "\(report.warnings)")
        func stored() throws -> [CodeRecord] {
            try fixture.store.configRecords().codes.filter { $0.code.utf8.elementsEqual(code.text.utf8) }
        }
        #expect(try stored().map(\.active) == [true])
        let partner = #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":[{"id":"part_sam","#
        try fixture.importJSON(partner + #""codes":[{"code":"\#(code.text)","active":false}]}]}]}]}"#)
        #expect(try stored().map(\.active) == [false])
        try fixture.importJSON(partner + #""codes":[{"code":"\#(code.text)","active":true}]}]}]}]}"#)
        #expect(try stored().map(\.active) == [true])
        // Another partner cannot create it: it is new there.
        let error = try #require(throws: StoreError.self) {
            try fixture.importJSON(
                #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_play","partners":[{"id":"part_lee","#
                    + #""codes":[{"code":"\#(code.text)"}]}]}]}]}"#)
        }
        #expect(error.message.contains(".codes[0].code: " + code.error), "\(error.message)")
    }
}
