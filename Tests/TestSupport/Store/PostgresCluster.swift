import EdgeStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Freezes the server (SIGSTOP to the postmaster and every process it started) without closing a connection: a
    /// database that stops answering, as a swapped-out or partitioned one does. ``thaw()`` lets it go on.
    package func freeze() throws { try signalAll(SIGSTOP) }

    /// Lets a frozen server go on (SIGCONT).
    package func thaw() throws { try signalAll(SIGCONT) }

    private func signalAll(_ signal: Int32) throws {
        let pidFile = try String(contentsOfFile: directory.path + "/data/postmaster.pid", encoding: .utf8)
        guard let line = pidFile.split(separator: "\n").first, let postmaster = Int32(line) else {
            throw TestError("no postmaster pid in \(directory.path)/data/postmaster.pid")
        }
        var pids = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // The fields after the name: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { pids.append(pid) }
        }
        for pid in pids { kill(pid, signal) }
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
