internal import CH2O
import Dispatch
import EdgeStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One event-loop thread's h2o state: its context and event loop, the responses it holds until their clicks are
/// written, and the requests it handed to workers. Used only on its own thread, inside ``run(listener:engine:)``.
final class H2OLoop {
    let index: Int
    private let router: Router
    private let link: LinkHandler
    private let workers: DispatchQueue
    /// This loop's counters (its LinkHandler counts in them too); only this thread writes them.
    let metrics: LoopMetrics
    private var record: UnsafeMutablePointer<tolt_h2o_loop>!
    /// Requests handed to workers and not yet answered.
    private var pendingCount = 0
    /// Workers that have not yet returned from sending their reply to this loop's receiver.
    private let workersSending = WorkerCount()
    /// Requests this loop took in its current event-loop iteration.
    private var iterationRequests = 0
    /// Connections closed for HTTP/2 rapid reset, and for taking too little of their answers, for the log.
    private var rapidResets = LoggedCount()
    private var stalls = LoggedCount()
    /// Link responses held until the journal holding their clicks is written, and the ones being sent.
    private var held: [HeldSlot] = []
    private var sending: [HeldSlot] = []
    /// Bumped each time held responses are taken for sending, so a late `stop` callback or a stale token touches
    /// nothing.
    private var holdGeneration: UInt64 = 0
    /// The engine's log, from ``run(listener:maxConnections:engine:)`` on.
    private var log: (@Sendable (String) -> Void)?

    /// A held response: the request (`nil` once the client went away), the click it reports, and its body, once
    /// given.
    private struct HeldSlot {
        var request: UnsafeMutablePointer<h2o_req_t>?
        let click: StagedClick
        /// For the metrics: the route (``Router/routeIndex(of:)``) and when the loop took the request.
        let timing: RequestTiming
        var body = UnsafeRawBufferPointer(start: nil, count: 0)
    }

    init(index: Int, application: EdgeApplication, router: Router, config: UnsafeMutablePointer<h2o_globalconf_t>) {
        self.index = index
        self.router = router
        link = LinkHandler(application: application, loop: index)
        workers = application.workers
        metrics = application.metrics.loops[index]
        // The record points back at this loop without a reference count: h2o calls back into it only from
        // h2o_evloop_run, inside run(), while the thread holds the loop.
        record = tolt_h2o_loop_create(config, nil) { receiver, messages in
            let loop = H2OLoop.owner(of: tolt_h2o_loop_of_receiver(receiver!)!)
            while let message = tolt_h2o_pop_message(messages) { loop.deliver(message) }
        }
        record.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    private static func owner(of record: UnsafeMutablePointer<tolt_h2o_loop>) -> H2OLoop {
        Unmanaged<H2OLoop>.fromOpaque(record.pointee.owner).takeUnretainedValue()
    }

    /// The loop running `request`, for h2o's handler callback.
    static func of(_ request: UnsafeMutablePointer<h2o_req_t>) -> H2OLoop {
        owner(of: tolt_h2o_loop_of_request(request)!)
    }

    /// A handle other threads use to wake this loop; valid until the loop leaves ``H2OEngine/wakers``.
    var waker: Waker { Waker(receiver: tolt_h2o_loop_receiver(record)) }

    /// Serves at most `maxConnections` connections at once from `listener` until `engine` stops, then closes them,
    /// seals the journal and takes the loop apart.
    func run(listener: Int32, maxConnections: Int, engine: H2OEngine) {
        let evloop = record.pointee.context.loop!
        log = engine.log
        tolt_h2o_loop_accept(record, listener, engine.tls?.holder, maxConnections)
        while !engine.isStopping {
            h2o_evloop_run(evloop, 100)
            flushHeld()
            // Once a second: close the connections whose peers take too little of what they are owed (stall.c).
            let stalled = tolt_h2o_loop_close_stalled(record)
            if stalled > 0 { loggedStalls(stalled) }
            // The wait above ends at least every 100 ms, requests or not: an idle loop's segment is sealed (and then
            // deleted by the ingester) without waiting for a next tap.
            link.sealJournalIfDue(at: Clock.monotonicSeconds())
            // And what h2o's own lines dropped in the last second is said even when no further line comes
            // (StandardError; one atomic load when nothing was dropped).
            tolt_report_dropped_library_lines()
            // A loop that found a batch of requests waiting is saturated: hand the core to whatever else is
            // runnable on it before polling again (see H2OEngine.yieldAfter).
            if iterationRequests >= H2OEngine.yieldAfter { sched_yield() }
            iterationRequests = 0
        }
        tolt_h2o_loop_stop_accepting(record)
        let closed = closeConnections(evloop)
        engine.removeWaker(index)
        flushHeld()
        link.close()
        if closed {
            tolt_h2o_loop_destroy(record)
        } else {
            // h2o asserts that nothing is left on a context it disposes of, and a worker's late reply would write
            // into a freed receiver: keep the loop (and this object, which h2o's callbacks point at) rather than
            // crash. Its connections and descriptors stay open until the process ends.
            _ = Unmanaged.passRetained(self)
            engine.log("loop \(index): connections or worker replies still open at shutdown; the loop is kept")
        }
        record = nil
    }

    /// Asks h2o to shut down (no more keep-alive on HTTP/1, GOAWAY on HTTP/2), answers what is in flight (requests
    /// waiting on workers) for up to 30 seconds, then closes every connection within 5 seconds. Returns whether
    /// everything closed and every worker has finished sending its reply.
    private func closeConnections(_ evloop: UnsafeMutablePointer<h2o_evloop_t>) -> Bool {
        h2o_context_request_shutdown(&record.pointee.context)
        let workersDeadline = Clock.monotonicSeconds() + 30
        while pendingCount > 0 && Clock.monotonicSeconds() < workersDeadline {
            h2o_evloop_run(evloop, 10)
            flushHeld()
        }
        let closeDeadline = Clock.monotonicSeconds() + 5
        // A worker decrements `workersSending` only after h2o_multithread_send_message returned: its reply may be
        // delivered (pendingCount 0) while the call still holds the receiver.
        while tolt_h2o_loop_close_connections(record) > 0 || pendingCount > 0
            || workersSending.count.load(ordering: .acquiring) > 0
        {
            guard Clock.monotonicSeconds() < closeDeadline else { return false }
            h2o_evloop_run(evloop, 10)
            flushHeld()
        }
        return true
    }

    /// Routes a request. Returns 0, as h2o expects from a handler that answered.
    @inline(__always)
    func handle(_ request: UnsafeMutablePointer<h2o_req_t>) -> Int32 {
        iterationRequests &+= 1
        let startedAt = Clock.monotonicNanoseconds()
        let view = HTTPRequest(h2o: request)
        let route = router.routeIndex(of: view)
        let responder = H2OResponder(request: request, loop: self, route: route, startedAt: startedAt)
        // HTTP/2 requests are counted per connection (HTTP/1 ones are not: the call returns at once); a connection
        // closed for resetting streams faster than it completed them gets nothing more, least of all a click.
        // The same for a connection being closed for taking too little of its answers.
        let closing = tolt_h2o_count_request(request)
        if closing != TOLT_H2O_CONNECTION_OPEN {
            responder.send(
                APIResponse.error(closing == TOLT_H2O_CLOSED_FOR_STALL ? Self.stalled : Self.connectionClosed))
            return 0
        }
        router.dispatch(view, routeIndex: route, to: responder, link: link)
        return 0
    }

    private static let connectionClosed = APIError(
        status: 503, code: "unavailable",
        message: "This connection reset more streams than it completed and is being closed")
    private static let stalled = APIError(
        status: 503, code: "unavailable", message: "This connection took too little of its answers and is being closed")

    /// Counts a request that went away before its answer (an HTTP/2 stream reset, mostly); closes its connection
    /// once it abandons more requests than it completes (HTTP/2 rapid reset), which the loop logs at most once a
    /// second (a client can open and close such connections as fast as it likes), with the count since the last line.
    private func abandoned(_ request: UnsafeMutablePointer<h2o_req_t>) {
        guard tolt_h2o_count_abandoned(request) != 0,
            let count = rapidResets.add(1, inSecond: Clock.monotonicNanoseconds() / 1_000_000_000)
        else { return }
        let closed = count == 1 ? "an HTTP/2 connection that" : "\(count) HTTP/2 connections (since the last line) that"
        log?("loop \(index): closed \(closed) reset more streams than \(count == 1 ? "it" : "they") completed")
    }

    /// Logs connections closed for taking fewer than `TOLT_H2O_STALL_PROGRESS` bytes of their answers in
    /// `TOLT_H2O_STALL_MILLIS`, at most once a second, with the count since the last line.
    private func loggedStalls(_ closed: Int) {
        guard let count = stalls.add(closed, inSecond: Clock.monotonicNanoseconds() / 1_000_000_000) else { return }
        let connections = count == 1 ? "a connection that" : "\(count) connections (since the last line) that"
        log?(
            "loop \(index): closed \(connections) took fewer than \(TOLT_H2O_STALL_PROGRESS) bytes of "
                + "\(count == 1 ? "its" : "their") answers in \(TOLT_H2O_STALL_MILLIS / 1000) s")
    }

    // MARK: Held responses

    /// Starts `request`'s response with a generator whose `stop` h2o calls if the request goes away before the
    /// response is sent, and schedules the flush for this iteration's timeout phase. The click is journaled at the
    /// flush, if the request is still there.
    func hold(
        _ request: UnsafeMutablePointer<h2o_req_t>, recording click: StagedClick, route: Int, startedAt: UInt64
    ) -> HeldResponse {
        let generator = tolt_h2o_start_held(request) { generator, request in
            let held = UnsafeMutableRawPointer(generator!).assumingMemoryBound(to: tolt_h2o_held.self)
            let loop = Unmanaged<H2OLoop>.fromOpaque(held.pointee.owner).takeUnretainedValue()
            guard loop.holdGeneration == held.pointee.generation, loop.held[held.pointee.index].request != nil else {
                return
            }
            loop.held[held.pointee.index].request = nil
            loop.abandoned(request!)
        }!
        let token = HeldResponse(index: held.count, generation: holdGeneration)
        generator.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        generator.pointee.index = token.index
        generator.pointee.generation = token.generation
        held.append(HeldSlot(request: request, click: click, timing: RequestTiming(route: route, startedAt: startedAt)))
        tolt_h2o_loop_schedule_flush(record) { entry in
            H2OLoop.owner(of: tolt_h2o_loop_of_flush(entry!)!).flushHeld()
        }
        return token
    }

    /// Gives a held response its body; it goes out with the next flush.
    func release(_ token: HeldResponse, body: UnsafeRawBufferPointer) {
        // A token of an earlier flush means a handler kept one past its request: a bug, loud in debug builds.
        assert(token.generation == holdGeneration && token.index < held.count, "a held response's token went stale")
        guard token.generation == holdGeneration, token.index < held.count else { return }
        held[token.index].body = body
    }

    /// Journals the click of every held response whose request is still there and writes the journal, then sends
    /// those responses, or a 503 for each when the clicks could not be written. Runs in the timeout phase of the
    /// iteration that held them (and after each iteration, which finds nothing held unless the loop is stopping), so
    /// a request reset within the iteration that received it (an HTTP/2 rapid reset) records no click. Sending can
    /// start the next request of a connection, which may hold a response again, so it repeats until nothing is held.
    private func flushHeld() {
        while !held.isEmpty {
            var staged = 0
            for slot in held where slot.request != nil {
                link.stage(slot.click)
                staged &+= 1
            }
            let outcome = link.writeClicks()
            let written = outcome == .written
            metrics.add(
                written
                    ? MetricsLayout.clicksJournaled
                    : MetricsLayout.clicksRefused + (outcome == .journalFull ? RefusalReason.journalFull.rawValue : 0),
                staged)
            swap(&held, &sending)
            holdGeneration &+= 1
            // One clock reading for the whole batch: every response in it waited for the same write.
            let now = Clock.monotonicNanoseconds()
            for response in sending {
                guard let request = response.request else { continue }
                if written {
                    metrics.answered(
                        route: response.timing.route, status: Int(request.pointee.res.status),
                        elapsed: response.timing.elapsed(at: now))
                    tolt_h2o_send_whole(request, response.body.baseAddress, response.body.count, 0)
                } else {
                    request.pointee.res.headers.size = 0
                    H2OResponder(
                        request: request, loop: self, route: response.timing.route,
                        startedAt: now &- response.timing.elapsed(at: now)
                    )
                    .send(outcome == .journalFull ? Self.journalFull : Self.clickNotRecorded)
                }
            }
            sending.removeAll(keepingCapacity: true)
        }
    }

    /// A held link's answer when its click could not be written.
    private static let clickNotRecorded = APIResponse.error(
        APIError(status: 503, code: "unavailable", message: "The click could not be recorded; try again"))
    /// A held link's answer when the journal holds as many unread bytes as `--journal-max-bytes` allows.
    private static let journalFull = APIResponse.error(
        APIError(
            status: 503, code: "unavailable", message: "The click could not be recorded; try again later",
            headers: [("retry-after", "5")]))

    // MARK: Workers

    /// Runs `work` on a worker; its answer comes back through the loop's receiver. If the client goes away first,
    /// the request's pool tells the pending record so, and the answer is dropped.
    func respondOnWorker(
        _ request: UnsafeMutablePointer<h2o_req_t>, route: Int, startedAt: UInt64,
        _ work: @escaping @Sendable () -> APIResponse
    ) {
        let pending = PendingRequest(request, route: route, startedAt: startedAt)
        let slot = tolt_h2o_alloc_watch(request, MemoryLayout<UnsafeRawPointer>.size) { slot in
            let pending = Unmanaged<PendingRequest>.fromOpaque(slot!.load(as: UnsafeRawPointer.self))
                .takeRetainedValue()
            // Still set: the request went away before its answer (deliver clears it when it answers).
            if let request = pending.request {
                pending.request = nil
                H2OLoop.of(request).abandoned(request)
            }
        }!
        slot.storeBytes(of: Unmanaged.passRetained(pending).toOpaque(), as: UnsafeMutableRawPointer.self)
        pendingCount += 1
        let waker = self.waker
        let sending = workersSending
        sending.count.add(1, ordering: .relaxed)
        workers.async {
            let reply = Reply(pending: pending, response: work())
            let message = UnsafeMutablePointer<tolt_h2o_message>.allocate(capacity: 1)
            message.initialize(to: tolt_h2o_message())
            message.pointee.payload = Unmanaged.passRetained(reply).toOpaque()
            h2o_multithread_send_message(waker.receiver, &message.pointee.super)
            sending.count.subtract(1, ordering: .releasing)
        }
    }

    /// Writes a worker's answer, unless the request is gone.
    private func deliver(_ message: UnsafeMutablePointer<tolt_h2o_message>) {
        let reply = Unmanaged<Reply>.fromOpaque(message.pointee.payload).takeRetainedValue()
        message.deinitialize(count: 1)
        message.deallocate()
        pendingCount -= 1
        if let tally = reply.response.tally { metrics.count(tally) }
        guard let request = reply.pending.request else { return }
        reply.pending.request = nil
        H2OResponder(request: request, loop: self, route: reply.pending.route, startedAt: reply.pending.startedAt)
            .send(reply.response)
    }
}

/// A held request's route and start time in one word, so that a held slot grows by 8 bytes, not 16: the route in
/// the top byte (``Router/maximumRoutes`` is far below 256), the low 56 bits of the monotonic clock in nanoseconds
/// below it (they wrap after about 2.3 years; an elapsed time is taken modulo that, so a wrap costs nothing).
struct RequestTiming {
    private let word: UInt64
    private static let timeMask: UInt64 = (1 << 56) - 1

    init(route: Int, startedAt: UInt64) {
        word = UInt64(truncatingIfNeeded: route) << 56 | startedAt & Self.timeMask
    }

    var route: Int { Int(truncatingIfNeeded: word >> 56) }

    /// Nanoseconds from the start to `now` (a monotonic reading).
    func elapsed(at now: UInt64) -> UInt64 { (now &- word) & Self.timeMask }
}

/// How many workers are still at work for a loop, counted from other threads.
private final class WorkerCount: Sendable {
    let count = Atomic<Int>(0)
}

/// A request waiting for a worker. `@unchecked Sendable`: a worker only carries it back; `request` is read and
/// cleared on the loop thread alone (by `deliver` and by the pool's dispose callback).
private final class PendingRequest: @unchecked Sendable {
    var request: UnsafeMutablePointer<h2o_req_t>?
    /// For the metrics: the request's route and when the loop took it.
    let route: Int
    let startedAt: UInt64
    init(_ request: UnsafeMutablePointer<h2o_req_t>, route: Int, startedAt: UInt64) {
        self.request = request
        self.route = route
        self.startedAt = startedAt
    }
}

/// A worker's answer on its way back to the loop.
private final class Reply: @unchecked Sendable {
    let pending: PendingRequest
    let response: APIResponse
    init(pending: PendingRequest, response: APIResponse) {
        self.pending = pending
        self.response = response
    }
}

/// A loop's receiver, for other threads to send to. `@unchecked Sendable`: `h2o_multithread_send_message` is the one
/// call made on it from other threads, and it is thread-safe; the loop keeps the receiver until no worker reply is
/// on its way and it has left the engine's wakers.
struct Waker: @unchecked Sendable {
    let receiver: UnsafeMutablePointer<h2o_multithread_receiver_t>

    /// Wakes the loop from its wait for events, with no message.
    func wake() { h2o_multithread_send_message(receiver, nil) }
}
