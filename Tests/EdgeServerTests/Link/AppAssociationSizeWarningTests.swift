import Synchronization
import Testing

@testable import EdgeServer
@testable import LinkCore

/// The import measures the association files with links at the host's root; a `--public-url` path lengthens each
/// iOS path, and can take a file it accepted past what phones read: `serve` says so, once per configuration.
@Suite struct AppAssociationSizeWarningTests {
    /// 80 programs of 10 app ids, about 109 KB at the root: fits, but not under a 60-byte path.
    static func records() -> ConfigRecords {
        let organization = OrganizationRecord(id: "org_a", name: "A", publicKey: "pk_a", secretKeyDigest: "sha256:a")
        let programs = (0..<80).map { program in
            ProgramRecord(
                id: "prg_\(program)", organizationID: "org_a", name: "P\(program)",
                iosAppIDs: (0..<10).map { "ABCDE12345.com.acme.app\(program)x\($0)" })
        }
        return ConfigRecords(organizations: [organization], programs: programs)
    }

    @Test func aPublicURLPathThatTakesTheAppleFilePastTheLimitIsLoggedOnce() throws {
        let table = LinkTable(Self.records())
        #expect(AppAssociation(Self.records()).appleAppSiteAssociation!.count <= AppLinkRules.maximumDocumentSize)

        let lines = Mutex<[String]>([])
        let long = try PublicURL("https://example.com/" + String(repeating: "p", count: 60))
        let files = AppAssociationFiles(publicURL: long, log: { line in lines.withLock { $0.append(line) } })
        let served = files.association(for: table).appleAppSiteAssociation!
        _ = files.association(for: table)
        #expect(served.count > AppLinkRules.maximumDocumentSize)
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1, "\(logged)")
        #expect(
            logged.first?.hasPrefix("warning: the host's apple-app-site-association is \(served.count) bytes") == true)

        let quiet = Mutex<[String]>([])
        let root = AppAssociationFiles(publicURL: nil, log: { line in quiet.withLock { $0.append(line) } })
        _ = root.association(for: table)
        #expect(quiet.withLock { $0 }.isEmpty)
    }
}
