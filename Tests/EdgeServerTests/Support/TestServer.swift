import EdgeServer
import EdgeStore
import LinkCore
import TestSupport

/// A real server on an ephemeral port with its own data directory and store (a real SQLite file, or a real
/// PostgreSQL database of its own with `store: .postgres`), for one test.
///
/// It stays in this target, not in `TestSupport`, so that the store and core tests build without the server.
final class TestServer {
    let fixture: StoreFixture
    private(set) var server: EdgeServer
    /// What the server was started with, for ``restart(configure:)``.
    private var configuration: ServerConfiguration
    var directory: String { fixture.directory }
    var store: any Store { fixture.store }
    var port: Int { server.port }

    /// Starts a server over `config` (the import JSON form); `configure` may change any other setting.
    init(
        config: String = ConfigFixtures.standard, store kind: StoreKind = .sqlite, trustedProxies: [String] = [],
        threads: Int = 2, configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        fixture = try StoreFixture(kind, importing: config)
        var configuration = ServerConfiguration()
        do {
            configuration.host = "127.0.0.1"
            configuration.port = 0
            configuration.threads = threads
            configuration.dataDirectory = fixture.directory
            configuration.postgres = fixture.postgres
            configuration.trustedProxies = try TrustedProxies(trustedProxies)
            configure(&configuration)
            server = try EdgeServer(configuration: configuration, log: { _ in })
        } catch {
            fixture.remove()
            throw error
        }
        self.configuration = configuration
        server.start()
    }

    /// Stops the server and starts another on the same data directory and store, as an operator restarts a node
    /// with other options: `configure` changes the settings the first one ran with. The port may change.
    func restart(configure: (inout ServerConfiguration) -> Void) throws {
        server.stop()
        configure(&configuration)
        server = try afterTheDirectoryIsFree { [configuration] in
            try EdgeServer(configuration: configuration, log: { _ in })
        }
        server.start()
    }

    func client() -> HTTPClient { HTTPClient(port: port) }

    /// Stops the server (draining its journal) and removes its files.
    func shutdown() {
        server.stop()
        fixture.remove()
    }

    deinit {}

    /// Imports more configuration, as `tolt-edge import` would, through a separate store connection.
    func importConfig(_ json: String) throws {
        try fixture.importJSON(json, into: try fixture.reopen())
    }
}
