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
    /// Link requests per second, counted per loop, read by the ingester.
    let load: LoadGauge
    /// Workers for API requests: they may block on the store, so never on a loop thread.
    let workers = DispatchQueue(label: "tolt-edge.api", attributes: .concurrent)

    init(
        configuration: ServerConfiguration, watcher: ConfigWatcher, journal: ClickJournal, apiStore: any Store,
        apiReaders: [any Store], signingKey: [UInt8]
    ) throws {
        self.configuration = configuration
        self.watcher = watcher
        self.journal = journal
        signer = ClickSigner(secret: signingKey)
        classifier = UserAgentClassifier.standard
        pages = try Pages()
        load = LoadGauge(loops: configuration.threads)
        api = APIHandler(writer: apiStore, readers: apiReaders, watcher: watcher, signer: signer)
    }
}

/// The compiled page templates.
struct Pages: Sendable {
    let fallback: PageTemplate
    let preview: PageTemplate
    let notFound: StaticText

    init() throws {
        fallback = try PageTemplate(PageSources.fallback)
        preview = try PageTemplate(PageSources.preview)
        notFound = StaticText(PageSources.notFound)
    }
}
