import LinkCore
import Testing

/// The association files' JSON, built from the records: each iOS app id once, naming the link paths of every
/// organization that lists it and no other; each Android package once, with every fingerprint listed for it.
@Suite struct AppAssociationBuildTests {
    static let one = String(repeating: "11:", count: 31) + "11"
    static let two = String(repeating: "22:", count: 31) + "22"
    static let ab = String(repeating: "AB:", count: 31) + "AB"

    static func records(_ programs: [ProgramRecord]) -> ConfigRecords {
        ConfigRecords(
            organizations: [
                OrganizationRecord(id: "org_a", name: "A", publicKey: "pk_a", secretKeyDigest: "sha256:a"),
                OrganizationRecord(id: "org_b", name: "B", publicKey: "pk_b", secretKeyDigest: "sha256:b"),
                OrganizationRecord(id: "org_c", name: "C", publicKey: "pk_c", secretKeyDigest: "sha256:c"),
            ],
            programs: programs)
    }

    @Test func anAppTwoOrganizationsListNamesBothPathsAndNoOther() {
        let association = AppAssociation(
            Self.records([
                ProgramRecord(
                    id: "prg_a", organizationID: "org_a", name: "A", iosAppIDs: ["TEAMAAAAAA.com.shared.app"]),
                ProgramRecord(
                    id: "prg_b", organizationID: "org_b", name: "B",
                    iosAppIDs: ["TEAMAAAAAA.com.shared.app", "TEAMBBBBBB.com.b.app"]),
                ProgramRecord(
                    id: "prg_b2", organizationID: "org_b", name: "B2", iosAppIDs: ["TEAMBBBBBB.com.b.app"]),
                ProgramRecord(id: "prg_c", organizationID: "org_c", name: "C"),
                // A program whose organization is not in the records names no path.
                ProgramRecord(id: "prg_x", organizationID: "org_gone", name: "X", iosAppIDs: ["TEAMXXXXXX.com.x"]),
            ]))
        let apple = String(decoding: association.appleAppSiteAssociation ?? [], as: UTF8.self)
        #expect(
            apple
                == #"{"applinks":{"apps":[],"details":["#
                + #"{"appID":"TEAMAAAAAA.com.shared.app","appIDs":["TEAMAAAAAA.com.shared.app"],"#
                + #""components":[{"/":"/a/pk_a/*"},{"/":"/a/pk_b/*"}],"paths":["/a/pk_a/*","/a/pk_b/*"]},"#
                + #"{"appID":"TEAMBBBBBB.com.b.app","appIDs":["TEAMBBBBBB.com.b.app"],"#
                + #""components":[{"/":"/a/pk_b/*"}],"paths":["/a/pk_b/*"]}]}}"# + "\n")
        #expect(association.assetLinks == nil)
    }

    /// Bundle ids are case-insensitive (Apple), as the import compares them within a program: two programs'
    /// spellings of one app are one entry, under the first spelling, naming both organizations' paths.
    @Test func twoSpellingsOfOneAppIdAreOneEntry() {
        let association = AppAssociation(
            Self.records([
                ProgramRecord(id: "prg_a", organizationID: "org_a", name: "A", iosAppIDs: ["TEAMAAAAAA.COM.X"]),
                ProgramRecord(id: "prg_b", organizationID: "org_b", name: "B", iosAppIDs: ["TEAMAAAAAA.com.x"]),
            ]))
        #expect(
            String(decoding: association.appleAppSiteAssociation ?? [], as: UTF8.self)
                == #"{"applinks":{"apps":[],"details":["#
                + #"{"appID":"TEAMAAAAAA.COM.X","appIDs":["TEAMAAAAAA.COM.X"],"#
                + #""components":[{"/":"/a/pk_a/*"},{"/":"/a/pk_b/*"}],"paths":["/a/pk_a/*","/a/pk_b/*"]}]}}"# + "\n")
    }

    @Test func aPackageListedTwiceIsOneStatementWithEveryFingerprint() {
        let association = AppAssociation(
            Self.records([
                ProgramRecord(
                    id: "prg_a", organizationID: "org_a", name: "A",
                    androidApps: [AndroidApp(packageName: "com.a.app", fingerprints: [Self.one])]),
                ProgramRecord(
                    id: "prg_a2", organizationID: "org_a", name: "A2",
                    androidApps: [
                        AndroidApp(packageName: "com.a.app", fingerprints: [Self.two, Self.one]),
                        AndroidApp(packageName: "com.a.lite", fingerprints: [Self.two]),
                    ]),
            ]))
        #expect(association.appleAppSiteAssociation == nil)
        #expect(
            String(decoding: association.assetLinks ?? [], as: UTF8.self)
                == "[" + Self.statement("com.a.app", [Self.one, Self.two], paths: ["/a/pk_a/*"]) + ","
                + Self.statement("com.a.lite", [Self.two], paths: ["/a/pk_a/*"]) + "]\n")
    }

    /// One Digital Asset Links statement as the file writes it: the package's fingerprints, and its organizations'
    /// link paths as Dynamic App Links rules.
    static func statement(_ package: String, _ fingerprints: [String], paths: [String]) -> String {
        #"{"relation":["delegate_permission/common.handle_all_urls"],"relation_extensions":"#
            + #"{"delegate_permission/common.handle_all_urls":{"dynamic_app_link_components":["#
            + paths.map { #"{"/":"\#($0)"}"# }.joined(separator: ",") + "]}},"
            + #""target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":["#
            + fingerprints.map { #""\#($0)""# }.joined(separator: ",") + "]}}"
    }

    /// Android 15 and later read each statement's dynamic rules: a package signed with a certificate gets the paths
    /// of the organizations that list it with that certificate (once each, with the link path prefix) and no other.
    /// An organization listing another's package name with its own key gets a statement of its own, so an app it
    /// signs (sideloaded under that name) is never verified for the first organization's links; two organizations
    /// listing one package with one key share its statement.
    @Test func aPackageIsLimitedToItsOrganizationsPaths() {
        let association = AppAssociation(
            Self.records([
                ProgramRecord(
                    id: "prg_a", organizationID: "org_a", name: "A",
                    androidApps: [AndroidApp(packageName: "com.shared.app", fingerprints: [Self.one])]),
                ProgramRecord(
                    id: "prg_a2", organizationID: "org_a", name: "A2",
                    androidApps: [AndroidApp(packageName: "com.shared.app", fingerprints: [Self.one])]),
                ProgramRecord(
                    id: "prg_b", organizationID: "org_b", name: "B",
                    androidApps: [
                        AndroidApp(packageName: "com.shared.app", fingerprints: [Self.two]),
                        AndroidApp(packageName: "com.b.app", fingerprints: [Self.two]),
                        AndroidApp(packageName: "com.both.app", fingerprints: [Self.one]),
                    ]),
                ProgramRecord(
                    id: "prg_c", organizationID: "org_c", name: "C",
                    androidApps: [AndroidApp(packageName: "com.both.app", fingerprints: [Self.one, Self.two])]),
            ]),
            linkPathPrefix: "/go")
        #expect(
            String(decoding: association.assetLinks ?? [], as: UTF8.self)
                == "["
                + Self.statement("com.shared.app", [Self.one], paths: ["/go/a/pk_a/*"]) + ","
                + Self.statement("com.shared.app", [Self.two], paths: ["/go/a/pk_b/*"]) + ","
                + Self.statement("com.b.app", [Self.two], paths: ["/go/a/pk_b/*"]) + ","
                + Self.statement("com.both.app", [Self.one], paths: ["/go/a/pk_b/*", "/go/a/pk_c/*"]) + ","
                + Self.statement("com.both.app", [Self.two], paths: ["/go/a/pk_c/*"]) + "]\n")
    }

    @Test func noAppsMakeNoFiles() {
        let association = AppAssociation(Self.records([ProgramRecord(id: "prg_a", organizationID: "org_a", name: "A")]))
        #expect(association.appleAppSiteAssociation == nil && association.assetLinks == nil)
    }

    @Test func theRulesTakeWhatAppleAndGoogleDocumentAndRefuseTheRest() throws {
        for id in ["ABCDE12345.com.acme.app", "A1B2C3D4E5.x", "ABCDE12345.com.acme-app.Beta2"] {
            #expect(throws: Never.self, "\(id)") { try AppLinkRules.validateIOSAppID(id) }
        }
        for id in [
            "ABCDE12345", "ABCDE12345.", "abcde12345.com.acme", "ABCDE1234.com.acme", "ABCDE12345.com..acme",
            "ABCDE12345..com", "ABCDE12345.com.acme_app", "ABCDE12345.com.acmé", "ABCDE12345.com acme",
        ] {
            #expect(throws: ConfigValidationError.self, "\(id)") { try AppLinkRules.validateIOSAppID(id) }
        }
        for name in ["com.acme.app", "a.b", "com.Acme_2.app_3"] {
            #expect(throws: Never.self, "\(name)") { try AppLinkRules.validatePackageName(name) }
        }
        for name in [
            "acme", "com..acme", ".com.acme", "com.acme.", "com.1acme", "com._acme", "com.acme-app", "com.acmé",
        ] {
            #expect(throws: ConfigValidationError.self, "\(name)") { try AppLinkRules.validatePackageName(name) }
        }
        #expect(try AppLinkRules.normalizedFingerprint(Self.one.lowercased()) == Self.one)
        #expect(try AppLinkRules.normalizedFingerprint("ab:" + Self.two.dropFirst(3)) == "AB:" + Self.two.dropFirst(3))
        // apksigner's form: the 64 digits without colons, either case.
        #expect(try AppLinkRules.normalizedFingerprint(String(repeating: "ab", count: 32)) == Self.ab)
        #expect(try AppLinkRules.normalizedFingerprint(Self.one.filter { $0 != ":" }) == Self.one)
        for text in [
            String(repeating: "AB", count: 31), String(repeating: "AB", count: 33), Self.one + ":11",
            String(Self.one.dropLast(3)), "G" + Self.one.dropFirst(), "G" + String(repeating: "A", count: 63),
            String(repeating: "AB", count: 16) + ":" + String(repeating: "AB", count: 16),
            "ABAB" + String(Self.one.dropFirst(5)), String(repeating: "AB-", count: 31) + "AB",
        ] {
            #expect(throws: ConfigValidationError.self, "\(text)") { try AppLinkRules.normalizedFingerprint(text) }
        }
    }
}
