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
        defer { first.kill() }
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
        #expect(first.stop(within: 20)?.status == 0, "\(first.child.stderr)")
        let stored = try CrashRecoveryTests.storedIDs(directory)
        #expect(stored.count == 40 && Set(stored) == Set(answered), "stored \(stored.count) of 40 answered clicks")
        #expect(
            try String(contentsOfFile: directory + "/journal.lock", encoding: .utf8) == "",
            "a clean stop leaves no pid behind")
    }

    /// `serve --demo` imports its program before the server opens its journal: beside a running server, it is refused
    /// first, so it never writes over the running server's configuration.
    @Test func aSecondServeDemoIsRefusedBeforeItImportsItsProgram() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        let first = try ChildServer(dataDirectory: directory, outputIn: directory, label: "first")
        defer { first.kill() }
        let demo = try ChildProcess(
            ["serve", "--demo", "--host", "127.0.0.1", "--port", "0", "--data", directory], outputIn: directory,
            label: "demo")
        #expect(try Self.exitOfRefusedStart(demo) == 1)
        #expect(demo.stderr.contains("is in use by another tolt-edge serve (pid \(first.child.pid))"), "\(demo.stderr)")
        let export = try ChildProcess.run(["export", "--data", directory], outputIn: directory)
        #expect(export.status == 0 && export.stdout.contains("pk_acme"), "\(export.stderr)")
        #expect(!export.stdout.contains("pk_demo"), "the demo program was not imported")
    }

    /// The kernel drops the lock with the process: a server killed with SIGKILL leaves its directory to the next one
    /// at once, whatever pid the lock file still names, and the next one stores the killed one's clicks.
    @Test func aKilledServersDataDirectoryIsFreeAtOnce() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        let killed = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "killed", arguments: ["--dedupe-window", "0"])
        defer { killed.kill() }
        let answered = try Self.tap(killed.client(), count: 5)
        killed.child.signal(SIGKILL)
        #expect(killed.child.waitForExit(within: 5)?.signaled == true)
        #expect(try String(contentsOfFile: directory + "/journal.lock", encoding: .utf8) == "\(killed.child.pid)\n")

        let next = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "next", arguments: ["--dedupe-window", "0"])
        defer { next.kill() }
        #expect(eventually(within: 10) { Set((try? CrashRecoveryTests.storedIDs(directory)) ?? []) == Set(answered) })
        #expect(next.stop(within: 20)?.status == 0, "\(next.child.stderr)")
    }

    @Test func aSecondServeOnABusyPortIsRefusedAndTheFirstGoesOnServing() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let other = try TemporaryDirectory()
        defer { other.remove() }
        let first = try ChildServer(dataDirectory: data.path, outputIn: data.path, label: "first")
        defer { first.kill() }
        // Its own data directory, with no program: had it joined the port, its share of the taps would get a 404.
        let second = try ChildProcess(
            ["serve", "--host", "127.0.0.1", "--port", String(first.port), "--threads", "2", "--data", other.path],
            outputIn: other.path, label: "second")
        #expect(try Self.exitOfRefusedStart(second) == 1)
        #expect(
            second.stderr.contains("tolt-edge: cannot listen on 127.0.0.1:\(first.port): Address already in use"),
            "\(second.stderr)")
        for _ in 0..<40 {
            // A connection of its own each time: the kernel spreads connections, not requests.
            let status = try HTTPClient(port: first.port).request(
                "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)]
            ).status
            #expect(status == 302)
        }
        #expect(first.stop(within: 20)?.status == 0)
    }
}

/// The same in one process, as an embedding program (or the test suite) starts servers: refused while another holds
/// the directory or the port, free again once it has stopped.
@Suite struct SecondServerInProcessTests {
    /// A two-loop server on `directory` and `port` (0: any free one), over TLS when a `certificate` is given.
    static func server(on directory: String, port: Int = 0, certificate: TestCertificate? = nil) throws -> EdgeServer {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.threads = 2
        configuration.dataDirectory = directory
        configuration.tls = certificate.map { TLSFiles(certificate: $0.certificate, key: $0.key) }
        return try EdgeServer(configuration: configuration, log: { _ in })
    }

    /// ``server(on:port:certificate:)`` on a directory another server of this process has just given up, waiting out
    /// a child process's copy of the lock (``afterTheDirectoryIsFree(_:)``).
    static func serverAfterRelease(on directory: String, certificate: TestCertificate? = nil) throws -> EdgeServer {
        try afterTheDirectoryIsFree { try Self.server(on: directory, certificate: certificate) }
    }

    /// A listening socket on a port of 127.0.0.1 the kernel picks, with `SO_REUSEPORT` (what another server's
    /// listeners have) or without, and its port. The caller closes it.
    static func holdPort(sharing: Bool) throws -> (descriptor: Int32, port: Int) {
        try Ports.bindLoopback(listening: 16, sharing: sharing)
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

        let second = try Self.serverAfterRelease(on: fixture.directory)
        second.start()
        defer { second.stop() }
        #expect(try fixture.store.allClicks().map(\.id) == [id], "the first server's click, stored at its stop")
        let taps = try SecondServerTests.tap(HTTPClient(port: second.port), count: 1)
        #expect(taps.count == 1)
        // Other visitors (a User-Agent of their own), so that no tap is taken for a repeat of an earlier one.
        func visitor(_ index: Int) throws -> String {
            let response = try HTTPClient(port: second.port).request(
                "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone + " visitor-\(index)")])
            return try #require(LinkResponses.clickID(in: response), "\(response.status) \(response.text)")
        }
        // The first server stopped again (a signal and a teardown, say) returns its first result and touches
        // nothing: the directory is the second's now, whose open segment a drain would take for a sealed one and
        // delete, and the second's later clicks would go into an unlinked file.
        #expect(first.stop())
        let later = try (1...3).map(visitor)
        #expect(second.stop())
        #expect(Set(try fixture.store.allClicks().map(\.id)) == Set([id] + taps + later), "every answered click stored")
    }

    /// A port held by a socket that shares it (another server's listeners) or not: the start fails with the usual
    /// message, over TLS too, and leaves the data directory free for the next attempt.
    @Test(arguments: [false, true], [false, true]) func aBusyPortFailsTheStart(sharing: Bool, tls: Bool) throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let certificate = try tls ? TestCertificate(in: fixture.directory, name: "busy") : nil
        let (holder, port) = try Self.holdPort(sharing: sharing)
        defer { close(holder) }
        #expect {
            _ = try Self.server(on: fixture.directory, port: port, certificate: certificate)
        } throws: { error in
            "\(error)" == "cannot listen on 127.0.0.1:\(port): Address already in use"
        }
        let server = try Self.serverAfterRelease(on: fixture.directory, certificate: certificate)
        defer { server.stop() }
        #expect(server.port != port)
    }

    /// The metrics listener never shared its port: a port held either way stops the start too.
    @Test(arguments: [false, true]) func aBusyMetricsPortFailsTheStart(sharing: Bool) throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        let (holder, port) = try Self.holdPort(sharing: sharing)
        defer { close(holder) }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = 1
        configuration.dataDirectory = fixture.directory
        configuration.metricsHost = "127.0.0.1"
        configuration.metricsPort = port
        #expect {
            _ = try EdgeServer(configuration: configuration, log: { _ in })
        } throws: { error in
            "\(error)".hasSuffix("cannot listen on 127.0.0.1:\(port): Address already in use")
        }
    }

    /// A start refused for its port, its metrics port or its certificate makes no data directory: a mistyped
    /// command leaves nothing behind to clean up, and the directory's next server starts on nothing stale.
    @Test(arguments: ["port", "metrics port", "certificate"]) func aRefusedStartMakesNoDataDirectory(cause: String)
        throws
    {
        let parent = try TemporaryDirectory()
        defer { parent.remove() }
        let (holder, port) = try Self.holdPort(sharing: false)
        defer { close(holder) }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = cause == "port" ? port : 0
        configuration.threads = 2
        configuration.dataDirectory = parent.path + "/data"
        if cause == "metrics port" {
            configuration.metricsHost = "127.0.0.1"
            configuration.metricsPort = port
        }
        if cause == "certificate" {
            configuration.tls = TLSFiles(certificate: parent.path + "/none.pem", key: parent.path + "/none.key")
        }
        #expect(throws: ConfigurationError.self) { _ = try EdgeServer(configuration: configuration, log: { _ in }) }
        #expect(!FileManager.default.fileExists(atPath: configuration.dataDirectory))
    }

    /// A start that fails after its sockets are made (the metrics port busy once the loops' listeners are bound, a
    /// data directory that cannot be made once both are) closes them: the next server binds the same ports at once.
    @Test(arguments: ["metrics port", "data directory"]) func aFailedStartClosesTheSocketsItMade(cause: String) throws {
        let parent = try TemporaryDirectory()
        defer { parent.remove() }
        let (holder, busy) = try Self.holdPort(sharing: false)
        defer { close(holder) }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = try Ports.reserve()
        configuration.threads = 2
        configuration.metricsHost = "127.0.0.1"
        configuration.metricsPort = cause == "metrics port" ? busy : try Ports.reserve()
        // A file where the data directory would be made.
        let file = parent.path + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        configuration.dataDirectory = cause == "data directory" ? file + "/data" : parent.path + "/data"
        #expect(throws: (any Error).self) { _ = try EdgeServer(configuration: configuration, log: { _ in }) }

        configuration.dataDirectory = parent.path + "/next"
        if cause == "metrics port" { configuration.metricsPort = try Ports.reserve() }
        let server = try EdgeServer(configuration: configuration, log: { _ in })
        defer { server.stop() }
        #expect(server.port == configuration.port)
        #expect(server.metricsPort == configuration.metricsPort)
    }
}
