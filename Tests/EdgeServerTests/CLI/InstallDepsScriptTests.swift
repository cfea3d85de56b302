import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/install-deps.sh` on a machine where packages are missing: `build` installs curl too (the quick start's
/// commands use it), and a user who is not root, on a system without sudo (a minimal Debian), is told what to run
/// rather than left with `sudo: command not found`.
///
/// The script runs for real, as user `nobody` when the tests run as root, against an empty dpkg database
/// (`DPKG_ADMINDIR`, which `dpkg-query` reads), so every package counts as missing, and with a `PATH` that holds
/// only the tools it needs, so there is no sudo to find whatever the machine has.
@Suite struct InstallDepsScriptTests {
    @Test func withoutRootAndWithoutSudoItSaysWhatToRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try #require(TestFiles.repositoryRoot)
        chmod(directory.path, 0o755)
        let admin = directory.path + "/dpkg"
        let bin = directory.path + "/bin"
        for path in [admin, bin] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try "".write(toFile: admin + "/status", atomically: true, encoding: .utf8)
        for tool in ["bash", "dpkg-query", "grep", "id"] {
            let found = try #require(["/usr/bin/", "/bin/"].map { $0 + tool }.first { access($0, X_OK) == 0 })
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: found)
        }
        let script = directory.path + "/install-deps.sh"
        try FileManager.default.copyItem(atPath: root + "/scripts/install-deps.sh", toPath: script)
        let asUser = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let process = try SpawnedProcess(
            executable: "/usr/bin/env",
            arguments: ["-i", "PATH=\(bin)", "DPKG_ADMINDIR=\(admin)"] + asUser + [bin + "/bash", script, "build"],
            standardOutput: directory.path + "/out", standardError: directory.path + "/err")
        process.waitUntilExit()
        let output = try String(contentsOfFile: directory.path + "/out", encoding: .utf8)
        let errors = try String(contentsOfFile: directory.path + "/err", encoding: .utf8)
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(errors)")
        // It installs nothing, so it does not say "installing"; the command it gives names every missing package.
        #expect(!output.contains("installing"), "\(output)")
        #expect(errors.contains(" curl\n"), "build installs curl: \(errors)")
        #expect(!errors.contains("command not found"), "\(errors)")
        #expect(errors.contains("needs root, but sudo is not installed"), "\(errors)")
        #expect(errors.contains("Run as root: apt-get update && apt-get install -y --no-install-recommends pkg-config"))
    }
}
