import Foundation
import TestSupport
import Testing

/// `tolt-edge import` and `export` carry a program's `ios_app_ids` and `android_apps`: the export of one data
/// directory, imported into another, exports the same again; a bad value is refused naming its field, exit 1.
@Suite struct AppLinksExportCommandTests {
    @Test func theExportCarriesTheAppsAndImportsAgainUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path + "/config.json"
        try AppAssociationTests.config.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ChildProcess.run(
            ["import", file, "--data", directory.path + "/a"], outputIn: directory.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try ChildProcess.run(["export", "--data", directory.path + "/a"], outputIn: directory.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(
            exported.stdout.contains(
                #""ios_app_ids":["ABCDE12345.com.acme.app"],"android_apps":[{"package_name":"com.acme.app","#
                    + #""sha256_cert_fingerprints":["\#(AppAssociationTests.fingerprint)"]}]}"#), "\(exported.stdout)")

        let copy = directory.path + "/export.json"
        try exported.stdout.write(toFile: copy, atomically: true, encoding: .utf8)
        #expect(
            try ChildProcess.run(["import", copy, "--data", directory.path + "/b"], outputIn: directory.path).status
                == 0)
        let again = try ChildProcess.run(["export", "--data", directory.path + "/b"], outputIn: directory.path)
        #expect(again.stdout == exported.stdout)

        let bad = directory.path + "/bad.json"
        try
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","app_links":{"ios_app_ids":["com.acme.app"]}}]}]}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try ChildProcess.run(["import", bad, "--data", directory.path + "/b"], outputIn: directory.path)
        #expect(refused.status == 1, "\(refused.status)")
        #expect(
            refused.stderr.contains("organizations[0].programs[0].app_links.ios_app_ids[0]: com.acme.app must be"),
            "\(refused.stderr)")
        #expect(
            try ChildProcess.run(["export", "--data", directory.path + "/b"], outputIn: directory.path).stdout
                == exported.stdout)
    }
}
