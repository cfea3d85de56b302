import EdgeStore
import LinkCore
import TestSupport
import Testing

/// Texts that pages show (organization, program and partner names, `app_name`, `og_description`) refuse the
/// invisible Unicode format characters that would make them read as something else (bidirectional overrides and
/// isolates, zero-width spaces), at import, by field, with nothing written; emoji sequences and the joiners some
/// scripts need are kept.
@Suite struct ConfigDisplayTextTests {
    typealias Case = ConfigValidationTests.Case

    static let formatting = "must not contain invisible formatting characters such as bidirectional controls"
    static let programPath = "organizations[0].programs[0]."

    static func organization(name: String) -> String {
        #"{"organizations":[{"id":"org_acme","name":"\#(name)"}]}"#
    }

    static let cases: [Case] = [
        Case(
            name: "app name with RIGHT-TO-LEFT OVERRIDE",
            json: ConfigValidationTests.program(#""app_name":"\u202Eevil""#),
            path: programPath + "app_name: \(formatting) or zero-width spaces (found U+202E)"),
        Case(
            name: "description with a first-strong isolate",
            json: ConfigValidationTests.program(#""og_description":"Join \u2068now\u2069""#),
            path: programPath + "og_description: \(formatting)"),
        Case(
            name: "description with a zero-width space",
            json: ConfigValidationTests.program(#""og_description":"Jo\u200Bin""#),
            path: programPath + "og_description: \(formatting) or zero-width spaces (found U+200B)"),
        Case(
            name: "app name with a byte-order mark", json: ConfigValidationTests.program(#""app_name":"\uFEFFAcme""#),
            path: programPath + "app_name: \(formatting)"),
        Case(
            name: "app name with a left-to-right embedding",
            json: ConfigValidationTests.program(#""app_name":"Acme\u202A""#),
            path: programPath + "app_name: \(formatting)"),
        Case(
            name: "organization name with a right-to-left isolate", json: organization(name: #"Acme\u2067"#),
            path: "organizations[0].name: \(formatting)"),
        Case(
            name: "program name with a right-to-left mark",
            json: ConfigValidationTests.program(#""name":"Acme\u200F""#), path: programPath + "name: \(formatting)"),
        Case(
            name: "partner name with a zero-width joiner between ASCII letters",
            json: ConfigValidationTests.partner(#""name":"S\u200Dam""#),
            path: programPath + "partners[0].name: \(formatting)"),
        Case(
            name: "partner name ending in a zero-width joiner",
            json: ConfigValidationTests.partner(#""name":"Sam 👩\u200D""#),
            path: programPath + "partners[0].name: \(formatting)"),
        Case(
            name: "partner name with a word joiner", json: ConfigValidationTests.partner(#""name":"Sa\u2060m""#),
            path: programPath + "partners[0].name: \(formatting)"),
        Case(
            name: "partner name with a C1 control", json: ConfigValidationTests.partner(#""name":"Sam\u0085""#),
            path: programPath + "partners[0].name: must not contain control characters"),
        Case(
            name: "partner name with a line separator", json: ConfigValidationTests.partner(#""name":"Sam\u2028x""#),
            path: programPath + "partners[0].name: must not contain control characters or line separators"),
    ]

    @Test(arguments: StoreKind.allCases, cases)
    func aFormattingCharacterIsNamedAndNothingIsWritten(kind: StoreKind, _ invalid: Case) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let before = try fixture.store.configRecords()
        let error = try #require(throws: StoreError.self) { try fixture.importJSON(invalid.json) }
        #expect(error.code == "invalid_config")
        #expect(error.message.hasPrefix(invalid.path), "\(error.message)")
        #expect(try fixture.store.configRecords() == before)
    }

    /// Emoji ZWJ sequences (with skin tones and the emoji variation selector), a flag's tag sequence, and the
    /// non-joiner Persian writes between letters: real names, stored as given.
    @Test(arguments: StoreKind.allCases) func emojiSequencesAndScriptJoinersAreKept(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let appName = "Dev 👩\u{200D}💻"
        let description = "Made with ❤\u{FE0F}\u{200D}🔥 in 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        let partnerName = "Ana 👩🏽\u{200D}💻 می\u{200C}خواهم"
        try fixture.importJSON(
            ConfigValidationTests.program(
                #""app_name":"\#(appName)","og_description":"\#(description)","partners":[{"id":"part_sam","name":"\#(partnerName)"}]"#
            ))
        let records = try fixture.store.configRecords()
        let program = try #require(records.programs.first { $0.id == "prg_acme" })
        #expect(program.appName == appName)
        #expect(program.ogDescription == description)
        #expect(records.partners.first { $0.id == "part_sam" }?.name == partnerName)
    }
}
