import EdgeStore
import LinkCore
import TestSupport
import Testing

/// A program's apps that open its links directly (`app_links.ios_app_ids`, `app_links.android_apps`): checked by
/// path with nothing written on error, stored on both stores, exported, `null` (or `[]`) clears and absent keeps.
@Suite struct ConfigAppLinksTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let otherFingerprint = String(repeating: "AB:", count: 31) + "CD"

    /// Both kinds of app on `prg_acme`; the first fingerprint written in lowercase.
    static let apps = ConfigValidationTests.program(
        #""app_links":{"ios_app_ids":["ABCDE12345.com.acme.app","ABCDE12345.com.acme.app-beta"],"#
            + #""android_apps":[{"package_name":"com.acme.app","sha256_cert_fingerprints":["\#(fingerprint.lowercased())","\#(otherFingerprint)"]},"#
            // apksigner's form, the 64 digits without colons, is stored as keytool's.
            + #"{"package_name":"com.acme.lite","sha256_cert_fingerprints":["\#(fingerprint.filter { $0 != ":" }.lowercased())"]}]}"#
    )

    @Test(arguments: StoreKind.allCases) func appsAreStoredNormalizedExportedAndAReimportChangesNothing(kind: StoreKind)
        throws
    {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        #expect(try fixture.importJSON(Self.apps).changes == ["updated program prg_acme"])
        let program = try fixture.program("prg_acme")
        #expect(program.iosAppIDs == ["ABCDE12345.com.acme.app", "ABCDE12345.com.acme.app-beta"])
        #expect(
            program.androidApps == [
                AndroidApp(packageName: "com.acme.app", fingerprints: [Self.fingerprint, Self.otherFingerprint]),
                AndroidApp(packageName: "com.acme.lite", fingerprints: [Self.fingerprint]),
            ])
        // The other app links were left as they were.
        #expect(program.deepLinkTemplate == "myapp://claim?tolt_code={code}&tolt_click={click_id}")

        let exported = String(decoding: try ConfigImporter.exportDocument(from: fixture.store), as: UTF8.self)
        #expect(
            exported.contains(
                #""app_store_url":"https://apps.apple.com/app/id123456789","#
                    + #""ios_app_ids":["ABCDE12345.com.acme.app","ABCDE12345.com.acme.app-beta"],"#
                    + #""android_apps":[{"package_name":"com.acme.app","sha256_cert_fingerprints":["\#(Self.fingerprint)","\#(Self.otherFingerprint)"]},"#
                    + #"{"package_name":"com.acme.lite","sha256_cert_fingerprints":["\#(Self.fingerprint)"]}]}"#),
            "\(exported)")
        // A program without apps exports both as null.
        #expect(exported.contains(#""app_store_url":null,"ios_app_ids":null,"android_apps":null}"#), "\(exported)")

        let records = try fixture.store.configRecords()
        #expect(try fixture.importJSON(exported).reportsNothing)
        let copy = try StoreFixture(kind)
        defer { copy.remove() }
        try copy.importJSON(exported)
        #expect(try copy.store.configRecords().comparable == records.comparable)
        #expect(String(decoding: try ConfigImporter.exportDocument(from: copy.store), as: UTF8.self) == exported)
    }

    @Test(arguments: StoreKind.allCases) func absentKeepsAndNullOrAnEmptyListClears(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.apps)
        let withApps = try fixture.program("prg_acme")
        // Another app link set, these left out: kept.
        try fixture.importJSON(ConfigValidationTests.program(#""app_links":{"app_store_url":null}"#))
        #expect(try fixture.program("prg_acme").iosAppIDs == withApps.iosAppIDs)
        #expect(try fixture.program("prg_acme").androidApps == withApps.androidApps)

        try fixture.importJSON(ConfigValidationTests.program(#""app_links":{"ios_app_ids":null}"#))
        #expect(try fixture.program("prg_acme").iosAppIDs.isEmpty)
        #expect(try fixture.program("prg_acme").androidApps == withApps.androidApps)
        try fixture.importJSON(ConfigValidationTests.program(#""app_links":{"android_apps":[]}"#))
        #expect(try fixture.program("prg_acme").androidApps.isEmpty)

        // `"app_links": null` clears every app link, these two included.
        try fixture.importJSON(Self.apps)
        try fixture.importJSON(ConfigValidationTests.program(#""app_links":null"#))
        let cleared = try fixture.program("prg_acme")
        #expect(cleared.iosAppIDs.isEmpty && cleared.androidApps.isEmpty && cleared.deepLinkTemplate == nil)
    }

    static func ios(_ ids: String) -> String { ConfigValidationTests.program(#""app_links":{"ios_app_ids":\#(ids)}"#) }
    static func android(_ apps: String) -> String {
        ConfigValidationTests.program(#""app_links":{"android_apps":\#(apps)}"#)
    }
    static func androidApp(_ name: String = "com.acme.app", _ fingerprints: String = #"["\#(fingerprint)"]"#) -> String
    {
        #"{"package_name":"\#(name)","sha256_cert_fingerprints":\#(fingerprints)}"#
    }

    static let links = "organizations[0].programs[0].app_links."
    typealias Case = ConfigValidationTests.Case
    static let cases: [Case] = [
        Case(
            name: "ids not an array", json: ios(#""ABCDE12345.com.acme""#),
            path: links + "ios_app_ids: must be an array"),
        Case(name: "id not a string", json: ios("[1]"), path: links + "ios_app_ids[0]: must be a string"),
        Case(name: "no team id", json: ios(#"["com.acme.app"]"#), path: links + "ios_app_ids[0]: com.acme.app must be"),
        Case(
            name: "lowercase team id", json: ios(#"["abcde12345.com.acme.app"]"#),
            path: links + "ios_app_ids[0]: abcde12345.com.acme.app must be <team id>.<bundle id>"),
        Case(name: "short team id", json: ios(#"["ABCDE1234.com.acme"]"#), path: links + "ios_app_ids[0]: "),
        Case(
            name: "underscore in bundle id", json: ios(#"["ABCDE12345.com.acme.app","ABCDE12345.com.acme_app"]"#),
            path: links + "ios_app_ids[1]: ABCDE12345.com.acme_app must have a bundle id of"),
        Case(
            name: "trailing dot", json: ios(#"["ABCDE12345.com.acme."]"#),
            path: links + "ios_app_ids[0]: ABCDE12345.com.acme. must have a bundle id without an empty segment"),
        Case(
            name: "bundle id too long", json: ios(#"["ABCDE12345.\#(String(repeating: "a", count: 156))"]"#),
            path: links + "ios_app_ids[0]: "),
        Case(
            name: "id twice, in another case", json: ios(#"["ABCDE12345.com.acme.app","ABCDE12345.com.Acme.App"]"#),
            path: links + "ios_app_ids[1]: ABCDE12345.com.Acme.App is listed twice"),
        Case(
            name: "eleven ids",
            json: ios("[" + (0..<11).map { #""ABCDE12345.com.acme.a\#($0)""# }.joined(separator: ",") + "]"),
            path: links + "ios_app_ids: lists 11 apps; at most 10"),
        Case(name: "apps not an array", json: android("{}"), path: links + "android_apps: must be an array"),
        Case(
            name: "unknown app field", json: android(#"[{"package_name":"com.acme.app","sha1":"x"}]"#),
            path: links + "android_apps[0].sha1: is not a known field"),
        Case(
            name: "no package name", json: android(#"[{"sha256_cert_fingerprints":[]}]"#),
            path: links + "android_apps[0].package_name: is required"),
        Case(
            name: "no fingerprints", json: android(#"[{"package_name":"com.acme.app"}]"#),
            path: links + "android_apps[0].sha256_cert_fingerprints: is required"),
        Case(
            name: "one segment", json: android("[" + androidApp("acme") + "]"),
            path: links + "android_apps[0].package_name: acme must be an Android package name"),
        Case(
            name: "segment starting with a digit", json: android("[" + androidApp("com.1acme") + "]"),
            path: links + "android_apps[0].package_name: com.1acme must be"),
        Case(
            name: "hyphen in package", json: android("[" + androidApp() + "," + androidApp("com.acme-x.app") + "]"),
            path: links + "android_apps[1].package_name: com.acme-x.app must be"),
        Case(
            name: "package twice", json: android("[" + androidApp() + "," + androidApp() + "]"),
            path: links + "android_apps[1].package_name: com.acme.app is listed twice"),
        Case(
            name: "empty fingerprints", json: android("[" + androidApp("com.acme.app", "[]") + "]"),
            path: links + "android_apps[0].sha256_cert_fingerprints: must list 1–10 fingerprints, not 0"),
        Case(
            name: "fingerprint with dashes",
            json: android("[" + androidApp("com.acme.app", #"["\#(fingerprint.replacing(":", with: "-"))"]"#) + "]"),
            path: links + "android_apps[0].sha256_cert_fingerprints[0]: must be a SHA-256 certificate fingerprint"),
        Case(
            name: "fingerprint twice, with and without colons",
            json: android(
                "[" + androidApp("com.acme.app", #"["\#(fingerprint)","\#(fingerprint.filter { $0 != ":" })"]"#)
                    + "]"),
            path: links + "android_apps[0].sha256_cert_fingerprints[1]: \(fingerprint) is listed twice"),
        Case(
            name: "SHA-1 fingerprint",
            json: android(
                "[" + androidApp("com.acme.app", #"["\#(String(repeating: "AB:", count: 19) + "CD")"]"#) + "]"),
            path: links + "android_apps[0].sha256_cert_fingerprints[0]: must be a SHA-256"),
        Case(
            name: "fingerprint not hex",
            json: android(
                "[" + androidApp("com.acme.app", #"["\#(String(repeating: "AB:", count: 31) + "ZZ")"]"#) + "]"),
            path: links + "android_apps[0].sha256_cert_fingerprints[0]: must be a SHA-256"),
        Case(
            name: "fingerprint twice, in another case",
            json: android(
                "[" + androidApp("com.acme.app", #"["\#(fingerprint)","\#(fingerprint.lowercased())"]"#) + "]"),
            path: links + "android_apps[0].sha256_cert_fingerprints[1]: \(fingerprint) is listed twice"),
        Case(
            name: "eleven fingerprints",
            json: android(
                "["
                    + androidApp(
                        "com.acme.app",
                        "["
                            + (0..<11).map {
                                #""\#(String(repeating: "AB:", count: 31))\#(String($0 + 16, radix: 16))""#
                            }
                            .joined(separator: ",") + "]") + "]"),
            path: links + "android_apps[0].sha256_cert_fingerprints: must list 1–10 fingerprints, not 11"),
        Case(
            name: "eleven apps",
            json: android("[" + (0..<11).map { androidApp("com.acme.a\($0)") }.joined(separator: ",") + "]"),
            path: links + "android_apps: lists 11 apps; at most 10"),
    ]

    @Test(arguments: StoreKind.allCases, cases) func anInvalidValueIsNamedAndNothingIsWritten(
        kind: StoreKind, _ invalid: Case
    ) throws {
        let fixture = try StoreFixture(kind, importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        try fixture.importJSON(Self.apps)
        try fixture.expectRefusal(of: invalid.json, naming: invalid.path)
    }

    /// The association files hold every organization's apps: an import that would make one larger than 128 KiB
    /// (Apple's limit) is refused, naming the program, and nothing is written.
    @Test func anImportThatWouldMakeAFileTooLargeIsRefused() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        // 10 apps of 10 fingerprints a program: about 11 KB of assetlinks.json each.
        func programs(_ range: Range<Int>) -> String {
            range.map { index in
                let apps = (0..<10).map { app in
                    Self.androidApp(
                        "com.acme.p\(index).a\(app)",
                        "["
                            + (0..<10).map {
                                #""\#(String(repeating: "AB:", count: 31))\#(String($0 + 16, radix: 16))""#
                            }
                            .joined(separator: ",") + "]")
                }
                return
                    #"{"id":"prg_\#(index)","name":"P\#(index)","app_links":{"android_apps":[\#(apps.joined(separator: ","))]}}"#
            }.joined(separator: ",")
        }
        try fixture.importJSON(#"{"organizations":[{"id":"org_acme","programs":[\#(programs(0..<10))]}]}"#)
        let before = try fixture.store.configRecords()
        let error = try #require(throws: StoreError.self) {
            try fixture.importJSON(#"{"organizations":[{"id":"org_acme","programs":[\#(programs(10..<14))]}]}"#)
        }
        #expect(
            error.message.hasPrefix(
                "organizations[0].programs[3].app_links.android_apps: the host's assetlinks.json would be "),
            "\(error.message)")
        #expect(error.message.hasSuffix("over the 131072 bytes a phone reads; list fewer apps"))
        #expect(try fixture.store.configRecords() == before)
    }

    /// A longer public key lengthens every iOS path its apps name: an import that takes the file past the limit that
    /// way is refused as one listing apps is (it went through unmeasured, and the file grew to 300 KB). One that
    /// leaves the file smaller goes through.
    @Test func aLongerPublicKeyCannotTakeTheAppleFilePastTheLimit() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        // 79 programs of 10 app ids: about 107 KB with the key pk_acme.
        let programs = (0..<79).map { program in
            let ids = (0..<10).map { #""ABCDE12345.com.acme.app\#(program)x\#($0)""# }.joined(separator: ",")
            return #"{"id":"prg_p\#(program)","name":"P\#(program)","app_links":{"ios_app_ids":[\#(ids)]}}"#
        }
        try fixture.importJSON(
            #"{"organizations":[{"id":"org_acme","programs":[\#(programs.joined(separator: ","))]}]}"#)
        let before = try fixture.store.configRecords()
        let longKey = "pk_" + String(repeating: "k", count: 125)
        let error = try #require(throws: StoreError.self) {
            try fixture.importJSON(#"{"organizations":[{"id":"org_acme","public_key":"\#(longKey)"}]}"#)
        }
        #expect(
            error.message.hasPrefix("organizations: the host's apple-app-site-association would be "),
            "\(error.message)")
        #expect(try fixture.store.configRecords() == before)
        // Removing apps while the key stays is fine, as is a shorter key.
        try fixture.importJSON(#"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_p0","app_links":null}]}]}"#)
        try fixture.importJSON(#"{"organizations":[{"id":"org_acme","public_key":"pk_a"}]}"#)
        #expect(try fixture.store.configRecords().organizations.first { $0.id == "org_acme" }?.publicKey == "pk_a")
    }
}
