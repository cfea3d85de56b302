import EdgeStore
import Foundation

/// A throwaway PostgreSQL cluster of one test's own (`scripts/postgres-cluster.sh`), for tests that stop and
/// restart the database under a running server without disturbing the shared cluster the other tests use.
package final class PostgresCluster {
    package let directory: TemporaryDirectory

    package init() throws {
        directory = try TemporaryDirectory()
    }

    /// Creates the cluster on first use, starts it (on the same port again after a ``stop()``) and returns its URL.
    @discardableResult
    package func start() throws -> PostgresURL {
        try PostgresURL(try script("start").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Stops the server (fast mode: open connections are closed); the data stays for the next ``start()``.
    package func stop() throws {
        _ = try script("stop")
    }

    /// Stops the server and removes the cluster.
    package func remove() {
        _ = try? script("stop")
        directory.remove()
    }

    private func script(_ command: String) throws -> String {
        guard let root = TestFiles.repositoryRoot else { throw TestError("no Package.swift above \(#filePath)") }
        let output = directory.path + "/script.stdout"
        let errors = directory.path + "/script.stderr"
        try? FileManager.default.removeItem(atPath: output)
        let process = try SpawnedProcess(
            executable: "/bin/bash", arguments: [root + "/scripts/postgres-cluster.sh", command, directory.path],
            standardOutput: output, standardError: errors)
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw TestError("postgres-cluster.sh \(command) failed: \(stderr)")
        }
        return text
    }
}
