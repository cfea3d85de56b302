import EdgeStore
import LinkCore
import Synchronization

/// The server's metrics: every loop's ``LoopMetrics``, summed when `/metrics` is scraped, and the gauges computed
/// then (the journal's backlog, open descriptors, resident memory).
final class ServerMetrics: Sendable {
    /// One block per loop thread, by loop index.
    let loops: [LoopMetrics]
    /// The block of the metrics listener's thread (``MetricsListener``), when there is one.
    let listener = LoopMetrics()
    /// When the server was created, in seconds since 1970.
    let startTime: Int64
    /// The route table's labels, in its order; set once the table is built (``setRoutes(_:)``).
    private let routeNames = Mutex<[String]>([])
    /// How many claims h2o refused before routing them (``setRefusedBeforeRouting(_:)``); `nil` until the engine says.
    /// Boxed: read at every scrape (see ``Boxed``).
    private let refusedBeforeRouting = Mutex<Boxed<@Sendable () -> Int>?>(nil)
    /// Where the journal's ingested counts and backlog come from; `nil` for an application without one (unit tests).
    private let ingester: ClickIngester?
    /// Whose bound the journal gauges show; `nil` without a journal.
    private let journal: ClickJournal?

    init(loops: Int, ingester: ClickIngester?, journal: ClickJournal? = nil) {
        self.loops = (0..<loops).map { _ in LoopMetrics() }
        self.ingester = ingester
        self.journal = journal
        startTime = Clock.epochMilliseconds() / 1000
    }

    /// Takes the route labels of the table the loops route with, and returns the slot of the metrics listener's
    /// answers: after the table's routes and the unmatched slot, labelled `metrics` when there is a listener.
    @discardableResult
    func setRoutes(_ router: Router, separateListener: Bool) -> Int {
        routeNames.withLock {
            $0 = router.routes.map(\.name) + [Router.unmatchedName] + (separateListener ? ["metrics"] : [])
        }
        return router.routes.count + 1
    }

    /// Takes what tells how many claims h2o refused with `413` before any route (a body over the claim's limit, read
    /// from its head): they are counted with the route's own, as `claims` answers `413` and claims
    /// `payload_too_large`.
    func setRefusedBeforeRouting(_ count: @escaping @Sendable () -> Int) {
        let source = Boxed(count)
        refusedBeforeRouting.withLock { $0 = source }
    }

    /// The sum of counter `index` over the loops and the metrics listener, plus what `unrouted` adds to it.
    private func total(_ index: Int, _ unrouted: [Int: Int] = [:]) -> Int {
        loops.reduce(listener.value(index) &+ (unrouted[index] ?? 0)) { $0 &+ $1.value(index) }
    }

    /// How many claims h2o refused before routing them; `nil` until the engine says.
    func refusedClaims() -> Int? {
        refusedBeforeRouting.withLock { $0 }?.value()
    }

    /// The claims h2o refused before routing, by the counters they add to: the `claims` route's `413` and the claims'
    /// `payload_too_large`.
    private func unroutedClaims(_ routes: [String]) -> [Int: Int] {
        guard let count = refusedClaims(), count > 0,
            let route = routes.firstIndex(of: APIHandler.claimsRouteName)
        else { return [:] }
        return [
            MetricsLayout.status(route: route, slot: MetricLabels.statusSlot(413)): count,
            MetricsLayout.claim(.payloadTooLarge): count,
        ]
    }

    /// The answer to `GET /metrics` on the main listener.
    func response() -> APIResponse {
        APIResponse(status: 200, body: Array(render().utf8), contentType: Exposition.contentType)
    }

    /// The whole scrape, in the text exposition format.
    func render() -> String {
        var out = Exposition()
        let routes = routeNames.withLock { $0 }
        let unrouted = unroutedClaims(routes)
        requests(routes, unrouted, into: &out)
        latencies(routes, into: &out)
        clicks(into: &out)
        labelled(
            "tolt_edge_link_answers_total", help: "Link requests (/a/…), by what they were answered with.",
            label: "answer", values: LinkAnswer.allCases.map(\.label), base: MetricsLayout.linkAnswers, into: &out)
        labelled(
            "tolt_edge_link_visitors_total",
            help: "Link requests for a known code, by the User-Agent's class: a person, a bot, a link-preview fetcher.",
            label: "class", values: UserAgentLabel.allCases.map(\.rawValue), base: MetricsLayout.visitors, into: &out)
        labelled(
            "tolt_edge_claims_total", help: "Claims (POST /client/claims), by outcome: the status or the error code.",
            label: "outcome", values: ClaimOutcome.allCases.map(\.rawValue), base: MetricsLayout.claims, unrouted,
            into: &out)
        labelled(
            "tolt_edge_webhook_events_total", help: "RevenueCat events accepted (200), by type.", label: "type",
            values: MetricLabels.webhookTypes, base: MetricsLayout.webhookTypes, into: &out)
        labelled(
            "tolt_edge_webhook_outcomes_total", help: "RevenueCat events accepted (200), by what each did.",
            label: "outcome", values: WebhookOutcome.allCases.map(\.rawValue), base: MetricsLayout.webhookOutcomes,
            into: &out)
        labelled(
            "tolt_edge_claim_replayed_events_total",
            help:
                "RevenueCat events stored unattributed before their user's claim and applied by it, by what each did.",
            label: "outcome", values: WebhookOutcome.allCases.map(\.rawValue), base: MetricsLayout.claimReplays,
            into: &out)
        labelled(
            "tolt_edge_webhook_replayed_events_total",
            help:
                "RevenueCat events stored unattributed and applied by a later event that tied their ids to a customer,"
                + " by what each did.",
            label: "outcome", values: WebhookOutcome.allCases.map(\.rawValue), base: MetricsLayout.webhookReplays,
            into: &out)
        labelled(
            "tolt_edge_authentication_failures_total",
            help:
                "Secret keys refused (/v1 and the dashboard's sign-in) and RevenueCat authorizations refused (the webhook): wrong_key, counted against the client's"
                + " address; rate_limited, refused 429 before the key was read.",
            label: "outcome", values: AuthenticationFailure.allCases.map(\.rawValue),
            base: MetricsLayout.authenticationFailures, into: &out)
        process(into: &out)
        return out.text
    }

    private func requests(_ routes: [String], _ unrouted: [Int: Int], into out: inout Exposition) {
        let name = "tolt_edge_http_requests_total"
        out.metric(name, type: "counter", help: "Requests answered, by route and status code.")
        for (route, routeName) in routes.enumerated() {
            for slot in 0..<MetricLabels.statusSlots {
                let count = total(MetricsLayout.status(route: route, slot: slot), unrouted)
                guard count > 0 else { continue }
                out.sample(name, [("route", routeName), ("code", MetricLabels.statusLabel(slot))], count)
            }
        }
    }

    private func latencies(_ routes: [String], into out: inout Exposition) {
        let name = "tolt_edge_http_request_duration_seconds"
        out.metric(
            name, type: "histogram",
            help: "Time from a request's routing to its answer being handed to the connection, by route.")
        for (route, routeName) in routes.enumerated() {
            var cumulative = 0
            for slot in 0..<MetricsLayout.bucketSlots {
                cumulative &+= total(MetricsLayout.bucket(route: route, slot: slot))
                out.sample(
                    name + "_bucket", [("route", routeName), ("le", MetricLabels.latencyLabel(slot))], cumulative)
            }
            let sum = UInt64(clamping: total(MetricsLayout.latencySum(route: route)))
            out.sample(name + "_sum", [("route", routeName)], Exposition.decimal(nanoseconds: sum))
            out.sample(name + "_count", [("route", routeName)], cumulative)
        }
    }

    private func clicks(into out: inout Exposition) {
        let journaled = total(MetricsLayout.clicksJournaled)
        out.single(
            "tolt_edge_clicks_journaled_total", type: "counter",
            help: "Clicks written to the journal by this process (each answered after its write).", journaled)
        out.metric(
            "tolt_edge_clicks_refused_total", type: "counter",
            help: "Clicks not recorded (answered 503): the journal write failed, or the journal was full.")
        for reason in RefusalReason.allCases {
            out.sample(
                "tolt_edge_clicks_refused_total", [("reason", reason.label)],
                total(MetricsLayout.clicksRefused + reason.rawValue))
        }
        if let journal {
            out.single(
                "tolt_edge_journal_full", type: "gauge",
                help: "1 while taps are refused because the journal holds --journal-max-bytes of unread clicks.",
                journal.room.isFull ? 1 : 0)
            out.single(
                "tolt_edge_journal_max_bytes", type: "gauge",
                help: "The bound on journal bytes not yet in the store (--journal-max-bytes).",
                journal.room.maximumBytes)
        }
        guard let ingester else { return }
        out.single(
            "tolt_edge_clicks_ingested_total", type: "counter",
            help: "Clicks moved from the journal into the store by this process (earlier processes' included).",
            ingester.ingestedCount)
        out.single(
            "tolt_edge_journal_backlog_records", type: "gauge",
            help: "Clicks this process journaled that are not in the store yet.",
            max(0, journaled - ingester.ownIngestedCount))
        out.single(
            "tolt_edge_journal_backlog_bytes", type: "gauge",
            help: "Bytes of journal segments not ingested yet (earlier processes' segments included).",
            ingester.backlogBytes())
    }

    private func labelled(
        _ name: String, help: String, label: String, values: [String], base: Int, _ unrouted: [Int: Int] = [:],
        into out: inout Exposition
    ) {
        out.metric(name, type: "counter", help: help)
        for (offset, value) in values.enumerated() {
            out.sample(name, [(label, value)], total(base + offset, unrouted))
        }
    }

    private func process(into out: inout Exposition) {
        out.single(
            "tolt_edge_start_time_seconds", type: "gauge", help: "When the server started, in seconds since 1970.",
            Int(startTime))
        if let descriptors = ProcessStats.openDescriptors() {
            out.single("process_open_fds", type: "gauge", help: "Open file descriptors.", descriptors)
        }
        if let limit = ProcessStats.descriptorLimit() {
            out.single("process_max_fds", type: "gauge", help: "The soft limit of open file descriptors.", limit)
        }
        if let resident = ProcessStats.residentBytes() {
            out.single("process_resident_memory_bytes", type: "gauge", help: "Resident memory in bytes.", resident)
        }
    }
}
