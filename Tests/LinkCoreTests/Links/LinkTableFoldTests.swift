import Testing

@testable import LinkCore

/// Codes typed on other keyboards or copied from a styled bio: after an exact miss, a code matches the code it folds
/// to (``CompatibilityCharacters``), and a code stored as it was typed still matches exactly first.
@Suite struct LinkTableFoldTests {
    static let records = ConfigRecords(
        organizations: [
            OrganizationRecord(id: "org_a", name: "A", publicKey: "pk_a", secretKeyDigest: SecretDigest.of("sk_a")),
            OrganizationRecord(id: "org_b", name: "B", publicKey: "pk_b", secretKeyDigest: SecretDigest.of("sk_b")),
        ],
        programs: [
            ProgramRecord(id: "prg_a", organizationID: "org_a", name: "A"),
            ProgramRecord(id: "prg_b", organizationID: "org_b", name: "B"),
        ],
        partners: [
            PartnerRecord(id: "part_sam", programID: "prg_a", name: "Sam", status: "active"),
            PartnerRecord(id: "part_lee", programID: "prg_a", name: "Lee", status: "active"),
            PartnerRecord(id: "part_wide", programID: "prg_a", name: "Wide", status: "active"),
            PartnerRecord(id: "part_bo", programID: "prg_a", name: "Bo", status: "active"),
            PartnerRecord(id: "part_zed", programID: "prg_b", name: "Zed", status: "active"),
        ],
        codes: [
            CodeRecord(reference: 1, partnerID: "part_sam", code: "SAM20", active: true),
            CodeRecord(reference: 2, partnerID: "part_sam", code: "CAFÉ", active: true),
            CodeRecord(reference: 3, partnerID: "part_lee", code: "LEE", active: true),
            CodeRecord(reference: 4, partnerID: "part_wide", code: "ＬＥＥ", active: true),
            CodeRecord(reference: 5, partnerID: "part_wide", code: "ﬁx", active: true),
            CodeRecord(reference: 6, partnerID: "part_wide", code: "ＯＦＦ", active: false),
            // Stored before the importer refused a partner a lookalike of its own code.
            CodeRecord(reference: 7, partnerID: "part_bo", code: "ＢＯ", active: true),
            CodeRecord(reference: 8, partnerID: "part_bo", code: "BO", active: true),
            CodeRecord(reference: 9, partnerID: "part_zed", code: "ZED", active: true),
        ])

    let table = LinkTable(records)

    func code(_ key: String, _ typed: String) -> String? {
        if case .target(let target)? = table.match(publicKey: key, code: typed) { return target.code }
        return nil
    }

    @Test(arguments: ["ＳＡＭ２０", "ｓａｍ２０", "SAM２０", "Ｓam20", "𝐒𝐀𝐌𝟐𝟎", "ⓈⒶⓂ２０", "\u{200B}ＳＡＭ２０\u{FEFF}"])
    func aCompatibilityFormMatchesItsASCIICode(typed: String) {
        #expect(code("pk_a", typed) == "SAM20")
        #expect(table.match(publicKey: "pk_b", code: typed) == nil, "only in its organization")
    }

    /// `ＬＥＥ` is Wide's own code: typed so (or in another ASCII case, of which it has none) it is Wide's, `lee` is
    /// Lee's, and a spelling that is neither (`ｌｅｅ`, `Lｅe`) folds to both: a conflict, as a shared code.
    @Test func aStoredFullWidthCodeMatchesExactlyFirst() {
        #expect(code("pk_a", "ＬＥＥ") == "ＬＥＥ")
        #expect(code("pk_a", "lee") == "LEE")
        #expect(code("pk_a", "Lee") == "LEE")
        for typed in ["ｌｅｅ", "Lｅe", "ＬＥE"] {
            guard case .conflict? = table.match(publicKey: "pk_a", code: typed) else {
                Issue.record("\(typed) should be a conflict")
                continue
            }
        }
    }

    /// A code stored with a compatibility form is reached by the plain spelling, too.
    @Test func aStoredLigatureIsReachedByItsLetters() {
        #expect(code("pk_a", "ﬁx") == "ﬁx")
        #expect(code("pk_a", "FIX") == "ﬁx")
        #expect(code("pk_a", "ｆｉｘ") == "ﬁx")
        #expect(table.match(publicKey: "pk_a", code: "off") == nil, "an inactive code does not match")
    }

    /// One partner's two codes that fold together (stored before the importer refused them): the plain one.
    @Test func onePartnersLookalikesMatchThePlainCode() {
        #expect(code("pk_a", "ＢＯ") == "ＢＯ")
        #expect(code("pk_a", "bo") == "BO")
        #expect(code("pk_a", "ｂｏ") == "BO")
        #expect(code("pk_a", "Ｂo") == "BO")
    }

    /// The fold leaves letters a code may mean: `CAFE` is not `CAFÉ`, while the full-width `ＣＡＦÉ` is.
    @Test func lettersACodeMayMeanAreNotFolded() {
        #expect(table.match(publicKey: "pk_a", code: "CAFE") == nil)
        #expect(table.match(publicKey: "pk_a", code: "CAFE\u{301}") == nil)
        #expect(code("pk_a", "ＣＡＦÉ") == "CAFÉ")
        #expect(code("pk_a", "caf\u{C9}") == "CAFÉ")
    }

    /// A fold longer than any stored code's is no match, and costs no more than a miss.
    @Test func aLongFoldMatchesNothing() {
        #expect(table.match(publicKey: "pk_a", code: String(repeating: "ⅷ", count: 60)) == nil)
        #expect(table.match(publicKey: "pk_a", code: String(repeating: "ｓ", count: 64)) == nil)
    }
}
