import EdgeStore
import Foundation
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

    /// Texts that show nothing: spaces of several kinds, the Braille blank, the Hangul fillers, a variation selector.
    static let blanks = [
        " ", "\u{3000}", "\u{00A0}", "\u{2800}", "\u{3164}", "\u{115F}\u{1160}", "\u{FFA0}", " \u{2800}\u{3000} ",
        "\u{2003}\u{FE0F}",
    ]

    /// A blank name, `app_name` or `og_description` is refused at import, naming the field and its first code point,
    /// and nothing is written; the same field with a visible character beside the blanks is taken.
    @Test(arguments: StoreKind.allCases) func aBlankTextIsRefusedByField(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let before = try fixture.store.configRecords()
        for blank in Self.blanks {
            let escaped = blank.unicodeScalars.map { String(format: "\\u%04X", $0.value) }.joined()
            let first = String(format: "U+%04X", blank.unicodeScalars.first!.value)
            for (json, path) in [
                (Self.organization(name: escaped), "organizations[0].name"),
                (ConfigValidationTests.program(#""name":"\#(escaped)""#), Self.programPath + "name"),
                (ConfigValidationTests.partner(#""name":"\#(escaped)""#), Self.programPath + "partners[0].name"),
                (ConfigValidationTests.program(#""app_name":"\#(escaped)""#), Self.programPath + "app_name"),
                (
                    ConfigValidationTests.program(#""og_description":"\#(escaped)""#),
                    Self.programPath + "og_description"
                ),
            ] {
                let error = try #require(throws: StoreError.self, "\(path) \(escaped)") { try fixture.importJSON(json) }
                #expect(
                    error.message
                        == "\(path): must show a visible character, not only spaces or blank characters (found \(first))",
                    "\(error.message)")
            }
        }
        #expect(try fixture.store.configRecords() == before)
        try fixture.importJSON(ConfigValidationTests.partner(#""name":"\u3000Sam\u2800""#))
        #expect(try fixture.store.configRecords().partners.first { $0.id == "part_sam" }?.name == "\u{3000}Sam\u{2800}")
    }

    /// A blank name stored before the rule (or by another tool) is carried over by an import that leaves it out or
    /// lists it again (an export), with a warning; setting a blank name is still refused.
    @Test(arguments: StoreKind.allCases) func aStoredBlankNameRoundTripsWithAWarning(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        var partner = try #require(try fixture.store.configRecords().partners.first { $0.id == "part_sam" })
        partner.name = "\u{3000}"
        var changes = ConfigChanges()
        changes.partners = [partner]
        try fixture.store.applyConfig(changes, expectedRevision: try fixture.store.configRevision())
        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        let report = try fixture.importJSON(exported)
        #expect(report.changes.isEmpty, "\(report.changes)")
        #expect(
            report.warnings.contains {
                $0.hasSuffix(
                    "].name: the stored name shows no visible character (only U+3000), so pages show it blank; set a name"
                )
            },
            "\(report.warnings)")
        try fixture.importJSON(ConfigValidationTests.partner(#""status":"inactive""#))
        #expect(throws: StoreError.self) { try fixture.importJSON(ConfigValidationTests.partner(#""name":"\u2800""#)) }
        try fixture.importJSON(ConfigValidationTests.partner(#""name":"Sam""#))
        #expect(try fixture.store.configRecords().partners.first { $0.id == "part_sam" }?.name == "Sam")
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
