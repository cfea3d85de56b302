import EdgeStore
import Foundation
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// A migrated SQLite store in a temporary data directory of its own, removed by ``remove()``.
final class StoreFixture {
    let directory: String
    let store: SQLiteStore

    init() throws {
        var template = Array("/tmp/tolt-edge-store-test-XXXXXX".utf8CString)
        guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw StoreTestError("mkdtemp failed")
        }
        directory = String(cString: path)
        store = try SQLiteStore(directory: directory)
        try store.migrate()
    }

    /// Another connection to the same file, as another process would open it.
    func reopen() throws -> SQLiteStore {
        let other = try SQLiteStore(directory: directory)
        try other.migrate()
        return other
    }

    @discardableResult
    func importJSON(_ json: String, into target: (any Store)? = nil) throws -> ImportReport {
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(json.utf8)), into: target ?? store)
    }

    func remove() {
        guard directory.hasPrefix("/tmp/tolt-edge-store-test-") else { return }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct StoreTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Configuration documents the store tests import.
enum Documents {
    /// One organization with a template program (two partners) and a Play-only program.
    static let acme = """
        {"organizations":[
          {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret","programs":[
            {"id":"prg_acme","name":"Acme Pro","claim_window_days":30,
             "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}",
                          "google_play_url":"https://play.google.com/store/apps/details?id=com.acme",
                          "app_store_url":"https://apps.apple.com/app/id123456789"},
             "partners":[
               {"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true},
                                                                         {"code":"OLD10","active":false}]},
               {"id":"part_idle","name":"Idle","status":"inactive","codes":[{"code":"IDLE5"}]}]},
            {"id":"prg_play","name":"Acme Lite",
             "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.acme.lite"},
             "partners":[{"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE","active":true}]}]}]}
        ]}
        """
}

extension ConfigRecords {
    /// The records with code references and secret keys left out, for comparing two stores.
    var comparable: String {
        let organizations = self.organizations.map { "\($0.id)|\($0.name)|\($0.publicKey)" }.sorted()
        let programs = self.programs.map {
            "\($0.id)|\($0.organizationID)|\($0.name)|\(String(describing: $0.claimWindowDays))|"
                + "\($0.deepLinkTemplate ?? "-")|\($0.googlePlayURL ?? "-")|\($0.appStoreURL ?? "-")"
        }.sorted()
        let partners = self.partners.map { "\($0.id)|\($0.programID)|\($0.name)|\($0.status)" }.sorted()
        let codes = self.codes.map { "\($0.partnerID)|\($0.code)|\($0.active)" }.sorted()
        return (organizations + programs + partners + codes).joined(separator: "\n")
    }
}

extension ImportReport {
    /// No change, no warning and no generated key: what a repeated import must report.
    var reportsNothing: Bool { changes.isEmpty && warnings.isEmpty && generatedSecrets.isEmpty }
}
