import EdgeStore
import LinkCore
import TestSupport
import Testing

/// A program's page branding (`app_name`, `app_icon_url`, `brand_color`, `og_image_url`, `og_description`):
/// validated by path with nothing written on error, exported, `null` clears and absent keeps.
@Suite struct ConfigBrandingTests {
    /// Sets fields of `prg_acme` (id given, so the merge updates it).
    static func program(_ body: String) -> String { ConfigValidationTests.program(body) }

    static let branded = program(
        ##""app_name":"Acme Pro & Co","app_icon_url":"https://cdn.acme.example/icon.png","brand_color":"#FFD400","##
            + #""og_image_url":"https://cdn.acme.example/card.png?v=2&s=1","og_description":"20% off your first month""#
    )

    @Test(arguments: StoreKind.allCases) func everyFieldIsStoredAndExportedAndAReimportChangesNothing(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        #expect(try fixture.importJSON(Self.branded).changes == ["updated program prg_acme"])
        let program = try fixture.program("prg_acme")
        #expect(program.appName == "Acme Pro & Co")
        #expect(program.appIconURL == "https://cdn.acme.example/icon.png")
        #expect(program.brandColor == "#FFD400")
        #expect(program.ogImageURL == "https://cdn.acme.example/card.png?v=2&s=1")
        #expect(program.ogDescription == "20% off your first month")

        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        #expect(
            exported.contains(
                ##""app_name":"Acme Pro & Co","app_icon_url":"https://cdn.acme.example/icon.png","brand_color":"#FFD400","##
                    + #""og_image_url":"https://cdn.acme.example/card.png?v=2&s=1","#
                    + #""og_description":"20% off your first month""#), "\(exported)")
        // A program without branding exports each field as null.
        #expect(exported.contains(##""app_name":null,"app_icon_url":null,"brand_color":null,"og_image_url":null"##))

        let records = try fixture.store.configRecords()
        #expect(try fixture.importJSON(exported).reportsNothing)
        let copy = try StoreFixture(kind)
        defer { copy.remove() }
        try copy.importJSON(exported)
        #expect(try copy.store.configRecords().comparable == records.comparable)
    }

    @Test(arguments: StoreKind.allCases) func absentKeepsAndNullClearsEachField(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.branded)
        let branded = try fixture.program("prg_acme")
        #expect(try fixture.importJSON(Self.program(#""name":"Acme Pro""#)).reportsNothing)
        #expect(try fixture.program("prg_acme") == branded)

        let fields: [(String, WritableKeyPath<ProgramRecord, String?>)] = [
            ("app_name", \.appName), ("app_icon_url", \.appIconURL), ("brand_color", \.brandColor),
            ("og_image_url", \.ogImageURL), ("og_description", \.ogDescription),
        ]
        var expected = branded
        for (field, keyPath) in fields {
            try fixture.importJSON(Self.program(#""\#(field)":null"#))
            expected[keyPath: keyPath] = nil
            #expect(try fixture.program("prg_acme") == expected, "\(field)")
        }
        #expect(try fixture.program("prg_acme").appName == nil && fixture.program("prg_acme").ogDescription == nil)
        // An empty string clears too, as it does for the app links.
        try fixture.importJSON(Self.branded)
        try fixture.importJSON(Self.program(##""app_name":"","brand_color":"""##))
        let cleared = try fixture.program("prg_acme")
        #expect(cleared.appName == nil && cleared.brandColor == nil && cleared.appIconURL != nil)
    }

    static let path = "organizations[0].programs[0]."
    static let longName = String(repeating: "n", count: BrandingRules.maximumAppNameLength + 1)
    static let longDescription = String(repeating: "d", count: BrandingRules.maximumDescriptionLength + 1)
    static let longURL = "https://cdn.example/" + String(repeating: "a", count: BrandingRules.maximumImageURLLength)

    static let invalid: [ConfigValidationTests.Case] = [
        .init(
            name: "http icon", json: program(#""app_icon_url":"http://cdn.example/icon.png""#),
            path: path + "app_icon_url: must be an https:// URL"),
        .init(
            name: "javascript: icon", json: program(#""app_icon_url":"javascript:alert(1)""#),
            path: path + "app_icon_url: must be an http:// or https:// URL"),
        .init(
            name: "icon with a quote", json: program(#""app_icon_url":"https://cdn.example/\"onerror=x""#),
            path: path + "app_icon_url: must not contain quotes"),
        .init(
            name: "icon data: URL", json: program(#""app_icon_url":"data:image/png;base64,AAAA""#),
            path: path + "app_icon_url: "),
        .init(
            name: "icon too long", json: program(#""app_icon_url":"\#(longURL)""#),
            path: path + "app_icon_url: must be at most 1024 bytes"),
        .init(
            name: "http OG image", json: program(#""og_image_url":"http://cdn.example/card.png""#),
            path: path + "og_image_url: must be an https:// URL"),
        .init(
            name: "OG image with a user name", json: program(#""og_image_url":"https://cdn.example@evil.example/""#),
            path: path + "og_image_url: must not hold a user name"),
        .init(
            name: "five-digit colour", json: program(##""brand_color":"#12345""##),
            path: path + "brand_color: must be a colour written #rrggbb"),
        .init(name: "seven-digit colour", json: program(##""brand_color":"#1234567""##), path: path + "brand_color: "),
        .init(name: "colour name", json: program(##""brand_color":"red""##), path: path + "brand_color: "),
        .init(name: "colour not hex", json: program(##""brand_color":"#ggg000""##), path: path + "brand_color: "),
        .init(
            name: "colour escaping its style",
            json: program(##""brand_color":"#fff;}</style><script>alert(1)</script>""##), path: path + "brand_color: "),
        .init(
            name: "colour a number", json: program(##""brand_color":123456"##),
            path: path + "brand_color: must be a string"),
        .init(
            name: "app name too long", json: program(#""app_name":"\#(longName)""#),
            path: path + "app_name: must be 1–60 characters"),
        .init(
            name: "app name of one character with 300 combining marks",
            json: program(#""app_name":"A\#(String(repeating: "\u{0301}", count: 300))""#),
            path: path + "app_name: must be at most 240 bytes of UTF-8"),
        .init(
            name: "app name with a line feed", json: program(#""app_name":"Acme\nX""#),
            path: path + "app_name: must not contain control characters"),
        .init(
            name: "description too long", json: program(#""og_description":"\#(longDescription)""#),
            path: path + "og_description: must be 1–300 characters"),
        .init(
            name: "description with a control", json: program(#""og_description":"a\u0007b""#),
            path: path + "og_description: must not contain control characters"),
        .init(
            name: "description with U+2028", json: program(#""og_description":"a\u2028b""#),
            path: path + "og_description: must not contain control characters"),
        .init(
            name: "description with C1 control", json: program(#""og_description":"a\u0085b""#),
            path: path + "og_description: must not contain control characters"),
    ]

    @Test(arguments: StoreKind.allCases, invalid)
    func anInvalidValueIsNamedAndNothingIsWritten(kind: StoreKind, _ invalid: ConfigValidationTests.Case) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.branded)
        try fixture.expectRefusal(of: invalid.json, naming: invalid.path)
    }

    @Test(arguments: StoreKind.allCases) func longestValuesAreAccepted(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        let name = String(repeating: "é", count: BrandingRules.maximumAppNameLength)
        let description = String(repeating: "ü", count: BrandingRules.maximumDescriptionLength)
        let url = "https://cdn.example/" + String(repeating: "a", count: BrandingRules.maximumImageURLLength - 20)
        try fixture.importJSON(
            Self.program(
                #""app_name":"\#(name)","og_description":"\#(description)","app_icon_url":"\#(url)","#
                    + #""og_image_url":"\#(url)""#))
        let program = try fixture.program("prg_acme")
        #expect(program.appName == name && program.ogDescription == description)
        #expect(program.appIconURL == url && program.ogImageURL == url)
    }
}
