import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A store file made by another user (`tolt-edge import` run as root in a data directory the service's user owns)
/// stops `serve` at once, saying whose the file is and what to do. SQLite says only "unable to open database file",
/// which the start took for a store out of reach for now: the server answered `503` to every link and claim and
/// retried for ever, its log naming no owner, and systemd's `Restart=on-failure` never saw a failure.
@Suite struct StoreOwnerTests {
    static let document = """
        {"organizations":[{"id":"org_own","name":"Own","public_key":"pk_own","secret_key":"sk_own_secret",
          "programs":[{"id":"prg_own","name":"Own","partners":[{"id":"part_own","name":"Sam",
            "codes":[{"code":"OWN20"}]}]}]}]}
        """

    @Test(.enabled(if: geteuid() == 0, "drops to another user (nobody) with setpriv, which only root may"))
    func aStoreFileOfAnotherUserStopsTheStartNamingItsOwner() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The user the server runs as must reach its binary and data directory: both in a directory it may enter.
        try #require(chmod(directory.path, 0o755) == 0)
        let binary = directory.path + "/tolt-edge"
        try FileManager.default.copyItem(atPath: TestFiles.binary, toPath: binary)
        let data = directory.path + "/data"
        try #require(mkdir(data, 0o700) == 0 && chown(data, 65534, 65534) == 0, "the service user's directory")
        let file = directory.path + "/config.json"
        try Data(Self.document.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try ChildProcess.run(["import", file, "--data", data], outputIn: directory.path)
        try #require(imported.status == 0, "\(imported.stderr)")

        let output = directory.path + "/serve"
        let server = try SpawnedProcess(
            executable: "/usr/bin/setpriv",
            arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", binary, "serve", "--host", "127.0.0.1", "--port",
                "0", "--threads", "1", "--data", data,
            ], standardOutput: output + ".stdout", standardError: output + ".stderr")
        let deadline = TestClock.now() + 20
        while server.isRunning && TestClock.now() < deadline { usleep(20_000) }
        let stderr = (try? String(contentsOfFile: output + ".stderr", encoding: .utf8)) ?? ""
        if server.isRunning {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            Issue.record("serve kept running on a store it cannot open: \(stderr)")
            return
        }
        #expect(server.terminationStatus == 1, "\(stderr)")
        #expect(
            stderr.contains(
                "cannot open \(data)/tolt-edge.sqlite: permission denied: \(data)/tolt-edge.sqlite belongs to root (uid 0), and this process runs as nobody (uid 65534)"
            ),
            "\(stderr)")
        #expect(stderr.contains("(chown nobody \(data)/tolt-edge.sqlite*)"), "\(stderr)")
        #expect(!stderr.contains("retrying in the background"), "\(stderr)")

        // A directory of another user, holding no store yet: its owner is what to change.
        let rootDirectory = directory.path + "/rootdir"
        try #require(mkdir(rootDirectory, 0o755) == 0)
        let importOutput = directory.path + "/import"
        let importing = try SpawnedProcess(
            executable: "/usr/bin/setpriv",
            arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", binary, "import", file, "--data", rootDirectory,
            ], standardOutput: importOutput + ".stdout", standardError: importOutput + ".stderr")
        importing.waitUntilExit()
        let refused = (try? String(contentsOfFile: importOutput + ".stderr", encoding: .utf8)) ?? ""
        #expect(importing.terminationStatus == 1, "\(refused)")
        #expect(
            refused.contains(
                "permission denied: \(rootDirectory) belongs to root (uid 0), and this process runs as nobody (uid "
                    + "65534): give it to the user that runs tolt-edge (chown nobody \(rootDirectory))"),
            "\(refused)")
    }
}
