import EdgeStore
import TestSupport
import Testing

/// A configuration file with any invalid field is refused whole, with an error that names the field.
@Suite struct ConfigValidationTests {
    /// An invalid document and the start of the error it must give.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var json: String
        var path: String
        var description: String { name }
    }

    /// Wraps a program of `org_acme` (id given, so the merge updates it).
    static func program(_ body: String) -> String {
        #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme",\#(body)}]}]}"#
    }

    /// Wraps a partner of `prg_acme`.
    static func partner(_ body: String) -> String {
        program(#""partners":[{"id":"part_sam",\#(body)}]"#)
    }

    static let cases: [Case] = [
        Case(
            name: "template without scheme", json: program(#""app_links":{"deep_link_template":"claim?c={code}"}"#),
            path: "organizations[0].programs[0].app_links.deep_link_template: "),
        Case(
            name: "template with a space", json: program(#""app_links":{"deep_link_template":"myapp://c?x={code} y"}"#),
            path: "organizations[0].programs[0].app_links.deep_link_template: "),
        Case(
            name: "template with CR LF",
            json: program(#""app_links":{"deep_link_template":"myapp://c?x={code}\r\nX-A: 1"}"#),
            path: "organizations[0].programs[0].app_links.deep_link_template: "),
        Case(
            name: "Play URL not http", json: program(#""app_links":{"google_play_url":"javascript:alert(1)"}"#),
            path: "organizations[0].programs[0].app_links.google_play_url: "),
        Case(
            name: "App Store URL with a quote",
            json: program(#""app_links":{"app_store_url":"https://a.example/\"x"}"#),
            path: "organizations[0].programs[0].app_links.app_store_url: "),
        Case(
            name: "Play URL with LF", json: program(#""app_links":{"google_play_url":"https://p.example/\nX"}"#),
            path: "organizations[0].programs[0].app_links.google_play_url: "),
        Case(
            name: "bad status", json: partner(#""status":"paused""#),
            path: "organizations[0].programs[0].partners[0].status: "),
        Case(
            name: "unknown field", json: program(#""colour":"red""#),
            path: "organizations[0].programs[0].colour: is not a known field"),
        Case(
            name: "unknown app link", json: program(#""app_links":{"huawei_url":"https://x.example"}"#),
            path: "organizations[0].programs[0].app_links.huawei_url: is not a known field"),
        Case(
            name: "public key of another organization",
            json: #"{"organizations":[{"id":"org_new","name":"New","public_key":"pk_acme"}]}"#,
            path: "organizations[0].public_key: "),
        Case(
            name: "one public key twice in the file",
            json:
                #"{"organizations":[{"id":"org_x","name":"X","public_key":"pk_dup"},{"id":"org_y","name":"Y","public_key":"pk_dup"}]}"#,
            path: "organizations[1].public_key: "),
        Case(
            name: "secret key too short", json: #"{"organizations":[{"id":"org_acme","secret_key":"sk"}]}"#,
            path: "organizations[0].secret_key: "),
        Case(
            name: "id without prefix", json: program(#""partners":[{"id":"sam","name":"Sam"}]"#),
            path: "organizations[0].programs[0].partners[0].id: "),
        Case(
            name: "code with a space", json: partner(#""codes":[{"code":"SAM 20"}]"#),
            path: "organizations[0].programs[0].partners[0].codes[0].code: "),
        Case(
            name: "code with a slash", json: partner(#""codes":[{"code":"a/b"}]"#),
            path: "organizations[0].programs[0].partners[0].codes[0].code: "),
        Case(
            name: "code with a percent", json: partner(#""codes":[{"code":"a%0d"}]"#),
            path: "organizations[0].programs[0].partners[0].codes[0].code: "),
        Case(
            name: "code with CR LF", json: partner(#""codes":[{"code":"A\r\nB"}]"#),
            path: "organizations[0].programs[0].partners[0].codes[0].code: "),
        Case(
            name: "code of 65 bytes", json: partner(#""codes":[{"code":"\#(String(repeating: "A", count: 65))"}]"#),
            path: "organizations[0].programs[0].partners[0].codes[0].code: "),
        Case(
            name: "code twice for one partner", json: partner(#""codes":[{"code":"X1"},{"code":"x1"}]"#),
            path: "organizations[0].programs[0].partners[0].codes[1].code: "),
        Case(
            name: "active not a boolean", json: partner(#""codes":[{"code":"X1","active":"yes"}]"#),
            path: "organizations[0].programs[0].partners[0].codes[0].active: "),
        Case(
            name: "claim window of 0 days", json: program(#""claim_window_days":0"#),
            path: "organizations[0].programs[0].claim_window_days: "),
        Case(
            name: "name of a new program missing",
            json: #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_new"}]}]}"#,
            path: "organizations[0].programs[0].name: "),
        Case(
            name: "public key missing", json: #"{"organizations":[{"id":"org_new","name":"New"}]}"#,
            path: "organizations[0].public_key: "),
        Case(name: "organizations missing", json: #"{}"#, path: "organizations: "),
    ]

    @Test(arguments: cases)
    func anInvalidFieldIsNamedAndNothingIsWritten(_ invalid: Case) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let before = try fixture.store.configRecords()
        let error = try #require(throws: StoreError.self) { try fixture.importJSON(invalid.json) }
        #expect(error.code == "invalid_config")
        #expect(error.message.hasPrefix(invalid.path), "\(error.message)")
        #expect(try fixture.store.configRecords() == before)
    }

    @Test func validChangesBeforeAnInvalidFieldAreNotWrittenEither() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.importJSON(ConfigFixtures.acme)
        let before = try fixture.store.configRecords()
        let json = """
            {"organizations":[
              {"id":"org_early","name":"Early","public_key":"pk_early",
               "programs":[{"id":"prg_early","name":"Early","partners":[{"id":"part_e","name":"E","codes":[{"code":"E1"}]}]}]},
              {"id":"org_acme","name":"Acme renamed","programs":[{"id":"prg_acme","partners":[
                {"id":"part_sam","codes":[{"code":"NEW1"},{"code":"BAD CODE"}]}]}]}]}
            """
        let error = try #require(throws: StoreError.self) { try fixture.importJSON(json) }
        #expect(error.message.hasPrefix("organizations[1].programs[0].partners[0].codes[1].code: "), "\(error.message)")
        #expect(try fixture.store.configRecords() == before)
    }
}
