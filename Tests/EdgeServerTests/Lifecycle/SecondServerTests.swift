import EdgeServer
import EdgeStore
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A second `tolt-edge serve` started by mistake beside a running one fails at once and harms nothing. On the same
/// data directory it would take the first one's open journal segments for a crashed process's, ingest and delete
/// them, and every click the first journaled afterwards went into unlinked files; on the same port it would join the
/// first one's `SO_REUSEPORT` listeners, and the kernel would split the connections between two servers with two
/// stores. The store commands (`import` changes a running server's configuration) keep working beside a server.
@Suite struct SecondServerTests {
    /// The journal's segment files and their sizes.
    static func journalFiles(_ directory: String) -> [String: Int] {
        let journal = directory + "/journal"
        var files: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? [] {
            files[name] = (try? FileManager.default.attributesOfItem(atPath: journal + "/" + name)[.size]) as? Int
        }
        return files
    }

    /// `count` taps on the standard link, each answered with a redirect whose click id is returned.
    static func tap(_ client: HTTPClient, count: Int) throws -> [String] {
        try (0..<count).map { _ in
            let response = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
            guard response.status == 302, let id = LinkResponses.clickID(in: response) else {
                throw TestError("a tap was answered \(response.status): \(response.text)")
            }
            return id
        }
    }

    /// Waits for `child` to exit; one still running after `seconds` (it started when it should not have) is killed and
    /// the wait fails.
    static func exitOfRefusedStart(_ child: ChildProcess, within seconds: Double = 20) throws -> Int32 {
        guard let exit = child.waitForExit(within: seconds) else {
            child.signal(SIGKILL)
            _ = child.waitForExit(within: 5)
            throw TestError("the second server started: \(child.stdout) \(child.stderr)")
        }
        return exit.status
    }

    @Test func aSecondServeOnTheSameDataDirectoryIsRefusedAndTheFirstLosesNoClick() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        // Repeat taps off: every tap is a stored click of its own.
        let first = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "first", arguments: ["--dedupe-window", "0"])
        defer {
            first.child.signal(SIGKILL)
            _ = first.child.waitForExit(within: 5)
        }
        let client = first.client()
        var answered = try Self.tap(client, count: 20)
        let journal = Self.journalFiles(directory)
        #expect(!journal.isEmpty, "the first server's segments are open")

        let second = try ChildProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--threads", "2", "--data", directory],
            outputIn: directory, label: "second")
        #expect(try Self.exitOfRefusedStart(second) == 1)
        #expect(
            second.stderr.contains(
                "tolt-edge: data directory \(directory) is in use by another tolt-edge serve (pid \(first.child.pid))"),
            "\(second.stderr)")
        #expect(!second.stdout.contains("listening"), "\(second.stdout)")
        #expect(Self.journalFiles(directory) == journal, "the first server's segments untouched")

        // The store's commands work beside the running server.
        let file = directory + "/config.json"
        try ConfigFixtures.standard.write(toFile: file, atomically: true, encoding: .utf8)
        for command in [
            ["import", file], ["export"], ["clicks", "--org", "org_acme"], ["customers", "--org", "org_acme"],
            ["commissions", "--org", "org_acme"], ["migrate"], ["prune", "--before", "2000-01-01"],
        ] {
            let result = try ChildProcess.run(command + ["--data", directory], outputIn: directory)
            #expect(result.status == 0, "tolt-edge \(command.joined(separator: " ")): \(result.stderr)")
        }

        answered += try Self.tap(client, count: 20)
        first.child.signal(SIGTERM)
        #expect(first.child.waitForExit(within: 20)?.status == 0, "\(first.child.stderr)")
        let stored = try CrashRecoveryTests.storedIDs(directory)
        #expect(stored.count == 40 && Set(stored) == Set(answered), "stored \(stored.count) of 40 answered clicks")
        #expect(
            try String(contentsOfFile: directory + "/journal.lock", encoding: .utf8) == "",
            "a clean stop leaves no pid behind")
    }

    /// The kernel drops the lock with the process: a server killed with SIGKILL leaves its directory to the next one
    /// at once, whatever pid the lock file still names, and the next one stores the killed one's clicks.
    @Test func aKilledServersDataDirectoryIsFreeAtOnce() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        let killed = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "killed", arguments: ["--dedupe-window", "0"])
        let answered = try Self.tap(killed.client(), count: 5)
        killed.child.signal(SIGKILL)
        #expect(killed.child.waitForExit(within: 5)?.signaled == true)
        #expect(try String(contentsOfFile: directory + "/journal.lock", encoding: .utf8) == "\(killed.child.pid)\n")

        let next = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "next", arguments: ["--dedupe-window", "0"])
        defer {
            next.child.signal(SIGKILL)
            _ = next.child.waitForExit(within: 5)
        }
        #expect(eventually(within: 10) { Set((try? CrashRecoveryTests.storedIDs(directory)) ?? []) == Set(answered) })
        next.child.signal(SIGTERM)
        #expect(next.child.waitForExit(within: 20)?.status == 0, "\(next.child.stderr)")
    }

}

/// The same in one process, as an embedding program (or the test suite) starts servers: refused while another holds
/// the directory or the port, free again once it has stopped.
@Suite struct SecondServerInProcessTests {
    /// A one-loop server on `directory` and `port`, over TLS with `certificate`.
    static func server(on directory: String, port: Int = 0, certificate: TestCertificate? = nil) throws -> EdgeServer {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.threads = 2
        configuration.dataDirectory = directory
        configuration.tls = certificate.map { TLSFiles(certificate: $0.certificate, key: $0.key) }
        return try EdgeServer(configuration: configuration, log: { _ in })
    }

    @Test func aSecondServerOnTheSameDirectoryIsRefusedUntilTheFirstHasStopped() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let first = try Self.server(on: fixture.directory)
        first.start()
        #expect {
            _ = try Self.server(on: fixture.directory)
        } throws: { error in
            "\(error)".hasPrefix(
                "data directory \(fixture.directory) is in use by another tolt-edge serve (pid \(getpid()))")
        }
        let id = try #require(try SecondServerTests.tap(HTTPClient(port: first.port), count: 1).first)
        #expect(first.stop())

        let second = try Self.server(on: fixture.directory)
        second.start()
        defer { second.stop() }
        #expect(try fixture.store.allClicks().map(\.id) == [id], "the first server's click, stored at its stop")
        #expect(try SecondServerTests.tap(HTTPClient(port: second.port), count: 1).count == 1)
    }
}
