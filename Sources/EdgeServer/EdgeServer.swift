import EdgeStore
import LinkCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The edge server: h2o loops answering links and the API, the config watcher, and the click ingester.
///
/// ```swift
/// let server = try EdgeServer(configuration: configuration)
/// try server.start()
/// server.waitForTermination()   // SIGTERM or SIGINT: drains the journal, then returns
/// ```
public final class EdgeServer: Sendable {
    public let configuration: ServerConfiguration
    private let engine: H2OEngine
    private let watcher: ConfigWatcher
    private let ingester: ClickIngester
    private let journal: ClickJournal
    private let application: EdgeApplication
    /// `/metrics` on a listener of its own, when configured (``ServerConfiguration/metricsListener``).
    private let metricsListener: MetricsListener?
    private let log: @Sendable (String) -> Void
    /// The watcher's and the ingester's threads, joined by ``stop()``.
    private let background = Mutex<[ServerThread]>([])
    /// The first ``stop()``'s result, once it has returned: later calls return it and touch nothing.
    private let stopped = Mutex<Bool?>(nil)
    /// Why the store refused this build once it could be reached (a newer build migrated it), if it did.
    private let refusal = StoreRefusal()

    /// Binds the listeners and loads the TLS certificate (a busy port or a bad certificate fails here, before the data
    /// directory is touched), opens the journal and the store (migrating it) and loads the configuration. A store that
    /// cannot be reached (``StoreError/unavailable(_:)``) does not stop the start: the server answers `503` on links
    /// and claims until the watcher has migrated it and loaded a configuration, in the background.
    ///
    /// `seeding`, when given, writes to the store once the journal holds the data directory and the store is
    /// migrated, before the first configuration is loaded (`serve --demo` imports its program there): a server that
    /// is refused the directory writes nothing, and the first load sees what it wrote. It needs the store: one that
    /// cannot be reached then stops the start.
    public init(
        configuration: ServerConfiguration, log: @escaping @Sendable (String) -> Void = EdgeServer.standardLog,
        seeding: ((any Store) throws -> Void)? = nil
    ) throws {
        self.configuration = configuration
        self.log = log
        // A peer gone mid-write must fail the write, not kill the process (h2o writes with writev, which has no
        // MSG_NOSIGNAL): set here, for `tolt-edge serve` and any other embedder alike.
        signal(SIGPIPE, SIG_IGN)
        // First, before the data directory is touched: a bad --geoip file is an error at start-up.
        let countries = try configuration.geoIPFile.map { try CountryLookup(path: $0) }
        if let countries { log("geoip: \(countries.databaseType) database \(countries.path)") }
        let maxConnections = Self.prepareDescriptors(configuration, log: log)
        if configuration.publicURL == nil {
            log("no --public-url: desktop fallback pages show no QR code (it encodes the link's absolute URL)")
        }
        // Then the certificate and the ports: a certificate that cannot be loaded or a port another program holds
        // (another `tolt-edge serve` too: `Listener.Sharing.opensGroup`) stops the start before the data directory
        // is made or touched, so a mistyped command leaves nothing behind. The engine and the metrics listener own
        // the sockets once they are made; until then a failed start closes them.
        let tls = try configuration.tls.map(H2OTLS.init)
        let listeners = try Listener.openGroup(
            host: configuration.host, port: configuration.port, count: configuration.threads)
        var notYetOwned = listeners
        defer { for descriptor in notYetOwned { close(descriptor) } }
        let metricsSocket = try configuration.metricsListener.map {
            try MetricsListener.bind(host: $0.host, port: $0.port)
        }
        notYetOwned += metricsSocket.map { [$0] } ?? []
        let directory = configuration.dataDirectory
        // The journal next: a data directory that cannot be made (a file in its place, no permission) or that another
        // server's journal holds stops the start, before the store is touched.
        journal = try ClickJournal(dataDirectory: directory, maximumBytes: configuration.journalMaximumBytes)
        log(
            "node \(journal.nodeID) (\(directory)/node-id, in every journal segment's name); the journal holds at most "
                + "\(ByteSizeText.text(journal.room.maximumBytes)) not yet in the store (--journal-max-bytes)")
        // The store may be down (a shared database restarting): the node starts anyway, without a configuration,
        // and migrates and loads in the background. Any other failure (not a database, say) stops the start.
        let startup = StoreStartup(location: configuration.storeLocation)
        log("store: \(startup.location)")
        // libpq's notices (PostgreSQL's FATAL to idle connections as it shuts down) are lines of this log too.
        PostgresNotices.route(to: log)
        do {
            try startup.prepare()
        } catch let error as StoreError where error.isUnavailable {
            log(
                "no configuration yet: the store cannot be reached at start-up (\(error)); links and claims are "
                    + "answered 503 until it can, retrying in the background")
        }
        let mainStore = startup.connection()
        if let seeding { try seeding(mainStore) }
        let signer = ClickSigner()
        let refusal = refusal
        watcher = ConfigWatcher(
            store: startup.connection(),
            preparing: {
                do {
                    try startup.prepare()
                } catch let error as StoreError where error.isNewerSchema {
                    // Found only now that the store is back: as at start-up, this build stops, exit 1.
                    refusal.refuse(error, log: log)
                    throw error
                }
                try signer.install(secret: mainStore.clickSigningKey)
            }, log: log)
        if startup.isPrepared { watcher.loadFirst() }
        ingester = ClickIngester(
            journal: journal, store: startup.connection(),
            preparation: ClickPreparation(countries: countries, ipStorage: configuration.ipStorage),
            repeatWindow: configuration.repeatTapWindow, log: log)
        application = try EdgeApplication(
            configuration: configuration, watcher: watcher, journal: journal, apiStore: mainStore,
            apiReaders: (0..<4).map { _ in startup.connection() }, signer: signer, ingester: ingester, log: log)
        let router = application.makeRouter()
        let metrics = application.metrics
        let listenerRoute = metrics.setRoutes(router, separateListener: configuration.metricsListener != nil)
        metricsListener = metricsSocket.map { MetricsListener(descriptor: $0, metrics: metrics, route: listenerRoute) }
        engine = H2OEngine(
            application: application, router: router, listeners: listeners, tls: tls, maxConnections: maxConnections,
            log: log)
        notYetOwned = []
    }

    /// How many organizations the configuration in force has; `nil` until one is loaded (a store that could not be
    /// read at start-up).
    public var organizationCount: Int? { watcher.isLoaded ? watcher.table.organizations.count : nil }

    /// The port of the metrics listener, or `nil` when `/metrics` is served on the main listener.
    public var metricsPort: Int? { metricsListener?.port }

    /// The port the server listens on.
    public var port: Int { engine.port }

    /// The most client connections open at once (``ServerConfiguration/maxConnections``, or what the descriptor
    /// limit leaves room for).
    public var maxConnections: Int { engine.maxConnections }

    /// Raises the soft descriptor limit to the hard one and returns how many connections the loops may hold, logging
    /// both limits and the connection limit.
    private static func prepareDescriptors(_ configuration: ServerConfiguration, log: (String) -> Void) -> Int {
        let (before, after) = DescriptorLimit.raise()
        let allowed = DescriptorLimit.maximumConnections(soft: after.soft, threads: configuration.threads)
        let chosen = min(configuration.maxConnections ?? allowed, allowed)
        let raised = after.soft > before.soft ? "raised from \(before.soft) to \(after.soft)" : "\(after.soft)"
        log("descriptors: soft limit \(raised), hard limit \(after.hard); at most \(chosen) connections")
        if let asked = configuration.maxConnections, asked > allowed {
            log("--max-connections \(asked) lowered to \(allowed): the descriptor limit leaves no more room")
        }
        return chosen
    }

    /// Reads the TLS certificate and key files again (what `SIGHUP` does for `tolt-edge serve`): connections that
    /// arrive from now on get the new certificate; open ones keep theirs. Throws, keeping the current certificate,
    /// when the files cannot be read or do not match, or when the server serves no TLS.
    public func reloadCertificate() throws {
        try engine.reloadCertificate()
    }

    /// Starts the loops, the watcher and the ingester. Clicks left in the journal by an earlier process are
    /// ingested first, in the background.
    public func start() {
        let watcher = self.watcher
        let ingester = self.ingester
        let configuration = self.configuration
        let load = application.load
        background.withLock { threads in
            threads.append(
                ServerThread(name: "tolt-config") { watcher.run(interval: configuration.configPollInterval) })
            threads.append(
                ServerThread(name: "tolt-ingest") {
                    ingester.run(interval: configuration.ingestInterval, isBusy: load.isBusy)
                })
        }
        metricsListener?.start()
        engine.start()
    }

    /// Stops accepting, lets the loops answer what they have in flight (requests on workers, for up to 30 s) and
    /// close their connections (up to 5 s more) and seal their journal segments, joins every thread the server
    /// started, moves every journaled click into the store, and gives up the data directory (another server may
    /// start on it from then on). Returns whether the journal was drained completely. Once it returns, the server
    /// holds no thread and no connection; its store connections and journal descriptors close as it is released.
    @discardableResult
    public func stop() -> Bool {
        // One stop at a time, and one only: a second caller (a signal and a test's teardown, say) waits for the
        // first and gets its result. It must not drain again: the data directory is no longer this server's, and
        // another server may hold it by then, whose open segments a drain would take for sealed ones and delete.
        stopped.withLock { stopped in
            if let result = stopped { return result }
            engine.stop()
            metricsListener?.stop()
            ingester.stop()
            watcher.stop()
            for thread in background.withLock({ threads in
                defer { threads = [] }
                return threads
            }) {
                thread.join()
            }
            for failure in journal.takeFailures() { log("journal: \(failure)") }
            // Last: the data directory is free for the next server (of this process too) only once nothing writes
            // or reads the journal.
            defer { journal.release() }
            let storedBefore = ingester.ingestedCount
            do {
                try ingester.drain()
                let stored = ingester.ingestedCount - storedBefore
                log("stopped: the click journal is drained (\(stored) clicks stored on the way out)")
                stopped = true
                return true
            } catch {
                log(
                    "could not drain the click journal: \(error); its clicks stay in \(journal.directory) and the next "
                        + "start stores them (none is lost); exiting with status 1")
                stopped = false
                return false
            }
        }
    }

    /// Blocks until SIGTERM or SIGINT, then ``stop()``s; on each SIGHUP meanwhile, reloads the TLS certificate.
    /// Returns whether the drain succeeded.
    public func waitForTermination() -> Bool {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGHUP)
        var received: Int32 = 0
        while true {
            while sigwait(&signals, &received) != 0 {}
            guard received == SIGHUP else { break }
            do {
                try reloadCertificate()
                log("SIGHUP: TLS certificate reloaded; new connections get it")
            } catch {
                log("SIGHUP: \(error); the current certificate stays")
            }
        }
        if let reason = refusal.reason {
            log("stopping: \(reason)")
            _ = stop()
            return false
        }
        log("received signal \(received): draining")
        return stop()
    }

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread and every thread it starts afterwards, so that
    /// ``waitForTermination()`` receives them. Call before creating the server. Also ignores SIGXFSZ (a file-size
    /// limit reached), so the write fails instead of killing the process and a journal write that fails answers its
    /// taps with 503, never as recorded. (SIGPIPE, a peer gone mid-write, is ignored by ``init(configuration:log:)``.)
    public static func prepareSignals() {
        StoreRefusal.signalsPrepared.store(true, ordering: .releasing)
        signal(SIGXFSZ, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Writes a line to standard error, descriptor 2 (which `serve` leaves in place: it bounds only what the C
    /// libraries write to their `stderr` stream, ``StandardError``).
    public static let standardLog: @Sendable (String) -> Void = { line in FileDescriptor.logToStandardError(line) }
}

/// A store that refused this build after start-up (``StoreError/newerSchema(_:)``: a newer build migrated it while
/// it was down). Start-up refuses the same way with exit 1; found later, the refusal ends the process too, rather
/// than leave a node answering `503` for good: when the signals are `serve`'s (``EdgeServer/prepareSignals()``), it
/// sends the process `SIGTERM`, and ``EdgeServer/waitForTermination()`` stops and reports a failure.
final class StoreRefusal: Sendable {
    /// Whether ``EdgeServer/prepareSignals()`` blocked the stop signals for `waitForTermination` to take: only then is
    /// a `SIGTERM` to this process a request to stop rather than its end (a test that runs servers in its process).
    static let signalsPrepared = Atomic<Bool>(false)
    private let first = Mutex<String?>(nil)

    /// The refusal's message, once there was one.
    var reason: String? { first.withLock { $0 } }

    func refuse(_ error: StoreError, log: @Sendable (String) -> Void) {
        let isFirst = first.withLock { reason in
            guard reason == nil else { return false }
            reason = error.message
            return true
        }
        guard isFirst else { return }
        log("the store refuses this build: \(error.message)")
        if Self.signalsPrepared.load(ordering: .acquiring) { kill(getpid(), SIGTERM) }
    }
}
