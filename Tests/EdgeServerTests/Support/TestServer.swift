import EdgeServer
import EdgeStore
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// A real server on an ephemeral port with its own data directory (a real SQLite file), for one test.
final class TestServer {
    let directory: String
    let server: EdgeServer
    let store: SQLiteStore
    var port: Int { server.port }

    /// Starts a server over `config` (the import JSON form); `configure` may change any other setting.
    init(
        config: String = TestServer.standardConfig, trustedProxies: [String] = [], threads: Int = 2,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        directory = try TestFiles.temporaryDirectory()
        store = try SQLiteStore(directory: directory)
        try store.migrate()
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(config.utf8)), into: store)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = threads
        configuration.dataDirectory = directory
        configuration.trustedProxies = try TrustedProxies(trustedProxies)
        configure(&configuration)
        server = try EdgeServer(configuration: configuration, log: { _ in })
        server.start()
    }

    func client() -> HTTPClient { HTTPClient(port: port) }

    /// Stops the server (draining its journal) and removes its files.
    func shutdown() {
        server.stop()
        TestFiles.remove(directory)
    }

    deinit {}

    /// Imports more configuration, as `tolt-edge import` would, through a separate store connection.
    func importConfig(_ json: String) throws {
        let other = try SQLiteStore(directory: directory)
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(json.utf8)), into: other)
    }

    /// Waits until `condition` holds, polling, for at most `seconds`.
    static func eventually(within seconds: Double = 3, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = TestClock.now() + seconds
        while TestClock.now() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    /// Two organizations: `pk_acme` (template program, window 30 days, and a program without template
    /// with a Play and App Store URL) and `pk_other`.
    static let standardConfig = """
        {"organizations":[
          {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret","programs":[
            {"id":"prg_acme","name":"Acme Pro","claim_window_days":30,
             "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}",
                          "google_play_url":"https://play.google.com/store/apps/details?id=com.acme",
                          "app_store_url":"https://apps.apple.com/app/id123456789"},
             "partners":[
               {"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true},
                                                                         {"code":"OLD10","active":false}]},
               {"id":"part_idle","name":"Idle","status":"inactive","codes":[{"code":"IDLE5","active":true}]},
               {"id":"part_a","name":"A","status":"active","codes":[{"code":"SHARED","active":true}]},
               {"id":"part_b","name":"B","status":"active","codes":[{"code":"shared","active":true}]}]},
            {"id":"prg_play","name":"Acme Lite",
             "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.acme.lite&hl=en",
                          "app_store_url":"https://apps.apple.com/app/id987654321"},
             "partners":[{"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE","active":true}]}]},
            {"id":"prg_bare","name":"Acme Bare",
             "partners":[{"id":"part_bo","name":"Bo","status":"active","codes":[{"code":"BARE1","active":true}]}]}]},
          {"id":"org_other","name":"Other","public_key":"pk_other","secret_key":"sk_other_secret","programs":[
            {"id":"prg_other","name":"Other App",
             "partners":[{"id":"part_zed","name":"Zed","status":"active","codes":[{"code":"ZED","active":true}]}]}]}
        ]}
        """
}

/// User-Agents the tests use.
enum Agents {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
    static let android =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
    static let desktop =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
    static let iMessage =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0"
    static let curl = "curl/8.5.0"
}

enum TestClock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

enum TestFiles {
    /// The repository root (the directory holding Package.swift).
    static let repositoryRoot: String = {
        var path = #filePath
        while !path.isEmpty {
            path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            if access(path + "/Package.swift", F_OK) == 0 { return path }
        }
        return "."
    }()

    /// The `tolt-edge` binary built beside the test bundle (`swift build` before `swift test`, as `make test`
    /// does), whatever the scratch path.
    static var binary: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
            // The test runner may be inside the .xctest bundle directory.
            for _ in 0..<3 {
                if access(directory + "/tolt-edge", X_OK) == 0 { return directory + "/tolt-edge" }
                directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
            }
        }
        return repositoryRoot + "/.build/debug/tolt-edge"
    }

    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/tolt-edge-test-XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ClientError("mkdtemp failed")
        }
        return String(cString: result)
    }

    static func remove(_ path: String) {
        guard path.hasPrefix("/tmp/tolt-edge-test-") else { return }
        _ = "rm -rf '\(path)'".withCString { system($0) }
    }
}
