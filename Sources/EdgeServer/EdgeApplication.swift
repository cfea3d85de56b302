import Dispatch
import EdgeStore
import LinkCore

/// Everything the loop threads and workers share: read-only after start-up, or safe for concurrent use.
final class EdgeApplication: Sendable {
    let configuration: ServerConfiguration
    let watcher: ConfigWatcher
    let journal: ClickJournal
    let signer: ClickSigner
    let classifier: UserAgentClassifier
    let pages: Pages
    let api: APIHandler
    /// The `/dashboard` pages, on the API's workers and store connections.
    let dashboard: DashboardHandler
    /// The host's association files (universal links, App Links), built once per configuration.
    let associationFiles: AppAssociationFiles
    /// Link requests per second, counted per loop, read by the ingester.
    let load: LoadGauge
    /// Every loop's counters, summed by a scrape of `/metrics`.
    let metrics: ServerMetrics
    /// Workers for requests that may block on the store: never on a loop thread.
    let workers = DispatchQueue(label: "tolt-edge.api", attributes: .concurrent)

    convenience init(
        configuration: ServerConfiguration, watcher: ConfigWatcher, journal: ClickJournal, apiStore: any Store,
        apiReaders: [any Store], signingKey: [UInt8], ingester: ClickIngester? = nil
    ) throws {
        try self.init(
            configuration: configuration, watcher: watcher, journal: journal, apiStore: apiStore,
            apiReaders: apiReaders, signer: ClickSigner(secret: signingKey), ingester: ingester)
    }

    /// `signer` may still lack its key (a store down at start-up): it must have it before `watcher` loads a
    /// configuration, since nothing mints or verifies before that.
    init(
        configuration: ServerConfiguration, watcher: ConfigWatcher, journal: ClickJournal, apiStore: any Store,
        apiReaders: [any Store], signer: ClickSigner, ingester: ClickIngester? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.configuration = configuration
        self.watcher = watcher
        self.journal = journal
        self.signer = signer
        classifier = UserAgentClassifier.standard
        pages = try Pages.standard.get()
        associationFiles = AppAssociationFiles(publicURL: configuration.publicURL, log: log)
        load = LoadGauge(loops: configuration.threads)
        metrics = ServerMetrics(loops: configuration.threads, ingester: ingester, journal: journal)
        api = APIHandler(
            writer: apiStore, readers: apiReaders, watcher: watcher, signer: signer,
            claimClients: configuration.claimRateLimitClients, timeZoneDirectory: configuration.timeZoneDirectory)
        dashboard = try DashboardHandler(api: api, signer: signer, configuration: configuration, log: log)
    }

    /// Every route the server answers, in the order they are tried: the link path first, as the busiest.
    func makeRouter() -> Router {
        var router = Router(trustedProxies: configuration.trustedProxies)
        router.add(Route(.prefix("/a/"), methods: [.get, .head], name: "link", handler: .link))
        router.add(
            Route(
                .exact("/healthz"), methods: [.get, .head],
                handler: .constant(status: 200, contentType: .plain, body: Self.ok)))
        // The association files phones fetch from the link host (iOS: Apple's CDN), at the paths the systems ask.
        for (path, kind, name) in [
            ("/.well-known/apple-app-site-association", AppAssociationFiles.Kind.apple, "apple_app_site_association"),
            ("/apple-app-site-association", .apple, "apple_app_site_association_root"),
            ("/.well-known/assetlinks.json", .android, "assetlinks"),
        ] {
            router.add(Route(.exact(path), methods: [.get, .head], name: name, handler: .appAssociation(kind)))
        }
        api.register(in: &router)
        dashboard.register(in: &router)
        // On the main listener unless --metrics-host or --metrics-port gave it one of its own (MetricsListener).
        if configuration.metricsListener == nil {
            let metrics = self.metrics
            router.add(
                Route(
                    .exact("/metrics"), methods: [.get, .head], name: "metrics",
                    handler: .worker { _ in metrics.response() }))
        }
        return router
    }

    private static let ok = StaticText("ok\n")
}
