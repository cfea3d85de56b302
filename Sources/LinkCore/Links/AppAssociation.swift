/// The two files a phone's system reads from the link host to let an installed app open the host's links itself:
/// `apple-app-site-association` (iOS universal links) and `assetlinks.json` (Android App Links), built from every
/// organization's programs (``ProgramRecord/iosAppIDs``, ``ProgramRecord/androidApps``).
///
/// Built whole, once per configuration, and served as these bytes: nothing is computed per request.
public struct AppAssociation: Sendable, Equatable {
    /// The `apple-app-site-association` JSON, or `nil` when no program lists an iOS app.
    public let appleAppSiteAssociation: [UInt8]?
    /// The `assetlinks.json` JSON, or `nil` when no program lists an Android app.
    public let assetLinks: [UInt8]?

    /// `linkPathPrefix` is the path the links live under as phones see them, before `/a/` (`--public-url`'s path,
    /// `/go` for `https://example.com/go`; empty for a host's root).
    ///
    /// iOS: one `details` entry per app id, naming the link paths of the organizations that list it
    /// (`/a/<public_key>/*`), so an app opens only its own organization's links, never another tenant's. Each entry
    /// has both forms Apple has documented: `appIDs` and `components` (iOS 13 and later), `appID` and `paths` (iOS 12
    /// and earlier, which also wants `"apps":[]`). An app id two organizations list gets both paths in one entry.
    ///
    /// Android: a statement per package and signing certificate, with the link paths of the organizations that list
    /// the package with that certificate as Dynamic App Links rules (`relation_extensions` →
    /// `dynamic_app_link_components`, the form of iOS's `components`); certificates of one package whose
    /// organizations are the same share one statement (the usual case: one organization lists its app key and its
    /// upload key). An app signed with a certificate is so verified for its own organizations' paths only: another
    /// organization that lists the same package name with its own key gets a statement of its own, never the first
    /// one's paths. Android 15 and later with Google services read the rules, refetching the file now and then, and
    /// open only those paths in the app, within what its manifest declares; earlier versions ignore the member and
    /// trust the app for the whole host, leaving the choice of paths to its manifest.
    public init(_ records: ConfigRecords, linkPathPrefix: String = "") {
        self.init(organizations: records.organizations, programs: records.programs, linkPathPrefix: linkPathPrefix)
    }

    /// The files of a link table's configuration (``LinkTable/organizations``, ``LinkTable/programs``).
    public init(organizations: [OrganizationRecord], programs: [ProgramRecord], linkPathPrefix: String = "") {
        var publicKeys: [String: String] = [:]
        for organization in organizations { publicKeys[organization.id] = organization.publicKey }
        var appOrder: [String] = []
        var pathsOfApp: [String: [String]] = [:]
        var spelling: [String: String] = [:]
        var packageOrder: [String] = []
        var fingerprintsOfPackage: [String: [String]] = [:]
        // The paths of each package and certificate, keyed `package NUL fingerprint`.
        var pathsOfSigner: [String: [String]] = [:]
        for program in programs {
            guard let publicKey = publicKeys[program.organizationID] else { continue }
            let path = linkPathPrefix + "/a/" + publicKey + "/*"
            for id in program.iosAppIDs {
                // Bundle ids are case-insensitive (Apple), as the import compares them within a program: two
                // programs' spellings of one app are one entry, under the first spelling listed.
                let app = ASCII.lowercased(id)
                if pathsOfApp[app] == nil {
                    appOrder.append(app)
                    spelling[app] = id
                }
                if pathsOfApp[app, default: []].contains(path) { continue }
                pathsOfApp[app, default: []].append(path)
            }
            for app in program.androidApps {
                if fingerprintsOfPackage[app.packageName] == nil { packageOrder.append(app.packageName) }
                for fingerprint in app.fingerprints {
                    let signer = app.packageName + "\u{0}" + fingerprint
                    if pathsOfSigner[signer] == nil {
                        fingerprintsOfPackage[app.packageName, default: []].append(fingerprint)
                    }
                    if pathsOfSigner[signer]?.contains(path) != true { pathsOfSigner[signer, default: []].append(path) }
                }
            }
        }
        appleAppSiteAssociation =
            appOrder.isEmpty ? nil : Self.appleDocument(appOrder.map { (spelling[$0]!, pathsOfApp[$0]!) })
        var statements: [(name: String, fingerprints: [String], paths: [String])] = []
        for package in packageOrder {
            let first = statements.count
            for fingerprint in fingerprintsOfPackage[package]! {
                let paths = pathsOfSigner[package + "\u{0}" + fingerprint]!
                if let same = statements[first...].firstIndex(where: { $0.paths == paths }) {
                    statements[same].fingerprints.append(fingerprint)
                } else {
                    statements.append((package, [fingerprint], paths))
                }
            }
        }
        assetLinks = statements.isEmpty ? nil : Self.androidDocument(statements)
    }

    private static func appleDocument(_ apps: [(id: String, paths: [String])]) -> [UInt8] {
        var json = JSONWriter()
        json.raw(#"{"applinks":{"apps":[],"details":"#)
        json.array(apps) { app, json in
            json.object {
                $0.string("appID", app.id)
                $0.member("appIDs") { $0.array([app.id]) { id, json in json.string(id) } }
                $0.member("components") {
                    $0.array(app.paths) { path, json in json.object { $0.string("/", path) } }
                }
                $0.member("paths") { $0.array(app.paths) { path, json in json.string(path) } }
            }
        }
        json.raw("}}\n")
        return json.bytes
    }

    private static func androidDocument(_ packages: [(name: String, fingerprints: [String], paths: [String])])
        -> [UInt8]
    {
        var json = JSONWriter()
        json.array(packages) { package, json in
            json.raw(
                #"{"relation":["delegate_permission/common.handle_all_urls"],"relation_extensions":"#
                    + #"{"delegate_permission/common.handle_all_urls":{"dynamic_app_link_components":"#)
            json.array(package.paths) { path, json in json.object { $0.string("/", path) } }
            json.raw(#"}},"target":{"namespace":"android_app","#)
            json.key("package_name")
            json.string(package.name)
            json.raw(",")
            json.key("sha256_cert_fingerprints")
            json.array(package.fingerprints) { fingerprint, json in json.string(fingerprint) }
            json.raw("}}")
        }
        json.raw("\n")
        return json.bytes
    }
}
