import EdgeStore
import LinkCore
import Synchronization

/// Where each counter lives in a ``LoopMetrics`` block: per route, a counter per status slot, a counter per latency
/// bucket (not cumulative: the scrape sums them) and the sum of latencies in nanoseconds; then the counters that are
/// not per route.
struct MetricsLayout: Sendable {
    /// Routes a block has room for, the unmatched-path slot included (``Router/maximumRoutes`` plus one).
    static let routeSlots = Router.maximumRoutes + 1
    static let bucketSlots = MetricLabels.latencyBounds.count + 1
    static let perRoute = MetricLabels.statusSlots + bucketSlots + 1

    @inline(__always) static func status(route: Int, slot: Int) -> Int { route &* perRoute &+ slot }
    @inline(__always) static func bucket(route: Int, slot: Int) -> Int {
        route &* perRoute &+ MetricLabels.statusSlots &+ slot
    }
    @inline(__always) static func latencySum(route: Int) -> Int { route &* perRoute &+ perRoute &- 1 }

    static let clicksJournaled = routeSlots * perRoute
    /// One counter per ``RefusalReason``.
    static let clicksRefused = clicksJournaled + 1
    static let linkAnswers = clicksRefused + RefusalReason.allCases.count
    static let visitors = linkAnswers + LinkAnswer.allCases.count
    static let claims = visitors + UserAgentLabel.allCases.count
    static let webhookTypes = claims + ClaimOutcome.allCases.count
    static let webhookOutcomes = webhookTypes + MetricLabels.webhookTypes.count
    static let claimReplays = webhookOutcomes + WebhookOutcome.allCases.count
    static let webhookReplays = claimReplays + WebhookOutcome.allCases.count
    static let authenticationFailures = webhookReplays + WebhookOutcome.allCases.count
    static let count = authenticationFailures + AuthenticationFailure.allCases.count

    /// The counter of claims answered with `outcome`.
    static func claim(_ outcome: ClaimOutcome) -> Int { claims + ClaimOutcome.allCases.firstIndex(of: outcome)! }
}

/// Why a click was refused (answered `503`, not recorded): the `reason` of `tolt_edge_clicks_refused_total`.
enum RefusalReason: Int, CaseIterable {
    /// The journal write failed (a full or failing volume, a file-size limit).
    case writeFailed
    /// The journal held as many unread bytes as `--journal-max-bytes` allows.
    case journalFull

    var label: String { self == .writeFailed ? "write_failed" : "journal_full" }
}

/// One loop thread's counters, summed with the other loops' when ``/metrics`` is scraped.
///
/// Only its loop thread writes a block (its H2OLoop and LinkHandler, and the tallies workers send back with their
/// answers), so an increment is a relaxed load and a relaxed store, not a read-modify-write: on x86-64 and arm64 a
/// plain load, add and store, with no lock prefix and no cache line shared with another loop (the block is its own
/// allocation, aligned and padded to 128 bytes). A scrape reads with relaxed loads: each counter is exact, and a
/// scrape taken while a loop counts may see one request's status counted and its latency not yet.
///
/// `@unchecked Sendable`: the memory is written by one thread only, through atomics, and freed when the last
/// reference goes, after the loop and every scrape are done with it.
final class LoopMetrics: @unchecked Sendable {
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let byteCount: Int
    /// ``MetricLabels/latencyBounds``, copied into this block's own memory: reading the shared array per request
    /// would retain and release its buffer, an atomic read-modify-write on a cache line every loop touches.
    private let bounds: UnsafeMutablePointer<UInt64>
    private let boundCount: Int

    init() {
        byteCount = (MetricsLayout.count * MemoryLayout<Int>.stride + 127) / 128 * 128
        let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 128)
        counters = memory.bindMemory(to: Atomic<Int>.self, capacity: byteCount / MemoryLayout<Int>.stride)
        for index in 0..<(byteCount / MemoryLayout<Int>.stride) { (counters + index).initialize(to: Atomic(0)) }
        boundCount = MetricLabels.latencyBounds.count
        bounds = UnsafeMutablePointer<UInt64>.allocate(capacity: boundCount)
        bounds.initialize(from: MetricLabels.latencyBounds, count: boundCount)
    }

    deinit {
        counters.deinitialize(count: byteCount / MemoryLayout<Int>.stride)
        UnsafeMutableRawPointer(counters).deallocate()
        bounds.deallocate()
    }

    /// Adds `amount` to counter `index`. On the block's loop thread only.
    @inline(__always)
    func add(_ index: Int, _ amount: Int = 1) {
        counters[index].store(counters[index].load(ordering: .relaxed) &+ amount, ordering: .relaxed)
    }

    /// Counter `index`, from any thread.
    func value(_ index: Int) -> Int { counters[index].load(ordering: .relaxed) }

    /// Counts an answer of `route` with `status`, `elapsed` nanoseconds after its request arrived.
    @inline(__always)
    func answered(route: Int, status: Int, elapsed: UInt64) {
        add(MetricsLayout.status(route: route, slot: MetricLabels.statusSlot(status)))
        var bucket = 0
        while bucket < boundCount && elapsed > bounds[bucket] { bucket &+= 1 }
        add(MetricsLayout.bucket(route: route, slot: bucket))
        add(MetricsLayout.latencySum(route: route), Int(truncatingIfNeeded: elapsed))
    }

    /// Counts what a worker reported with its answer.
    func count(_ tally: WorkerTally) {
        switch tally {
        case .claim(let outcome, let replayed):
            add(MetricsLayout.claim(outcome))
            count(replayed, base: MetricsLayout.claimReplays)
        case .webhook(let typeSlot, let outcome, let replayed):
            add(MetricsLayout.webhookTypes + typeSlot)
            add(MetricsLayout.webhookOutcomes + WebhookOutcome.allCases.firstIndex(of: outcome)!)
            count(replayed, base: MetricsLayout.webhookReplays)
        case .authentication(let failure):
            add(MetricsLayout.authenticationFailures + AuthenticationFailure.allCases.firstIndex(of: failure)!)
        }
    }

    /// Counts each outcome of `replayed` in the per-outcome counters from `base`.
    private func count(_ replayed: [WebhookOutcome], base: Int) {
        for event in replayed { add(base + WebhookOutcome.allCases.firstIndex(of: event)!) }
    }

    @inline(__always)
    func linkAnswered(_ answer: LinkAnswer) { add(MetricsLayout.linkAnswers &+ answer.rawValue) }

    @inline(__always)
    func visitor(_ label: UserAgentLabel) { add(MetricsLayout.visitors &+ UserAgentLabel.slot(label)) }
}

extension UserAgentLabel {
    /// The label's slot among the visitor counters.
    @inline(__always)
    static func slot(_ label: UserAgentLabel) -> Int {
        switch label {
        case .human: return 0
        case .bot: return 1
        case .preview: return 2
        }
    }
}
