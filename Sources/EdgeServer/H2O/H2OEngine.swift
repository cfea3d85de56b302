internal import CH2O
import EdgeStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs h2o: one event loop per thread, each with its own `SO_REUSEPORT` listener, all calling one handler.
///
/// Everything h2o-specific stays in this folder: a newer h2o changes these files only.
final class H2OEngine: Sendable {
    /// h2o's global configuration. `@unchecked Sendable`: written during `init`, read-only once the loops
    /// run, as h2o requires.
    struct Global: @unchecked Sendable {
        let config: UnsafeMutablePointer<h2o_globalconf_t>
    }

    static let serverName = StaticText("tolt-edge")

    /// An event-loop iteration that took at least this many requests ends with `sched_yield()`.
    ///
    /// A saturated loop otherwise polls again at once and keeps its core until the scheduler's tick preempts
    /// it, while a thread waiting on that core (the proxy or client that sends these requests and reads
    /// their responses, the other loop, the ingester) waits up to that tick, about 4 ms. Yielding between
    /// batches lets it run in between; with nothing else runnable on the core, `sched_yield` returns at once.
    /// Loops under light load take one request per iteration and never yield, so they keep waking on
    /// arrival, ahead of any busy neighbour (`perf stat`: no `sched_yield` at one or two connections). With
    /// `wrk` beside the server on two cores, yielding this way gave more requests a second and a shorter tail
    /// than never yielding, and a shorter tail than yielding after every iteration (bench/RESULTS.md, item 13).
    /// With one loop and the client on separate cores it cost a little instead (run S there): the client
    /// sometimes wakes on the loop's core, and the yield hands it the core.
    static let yieldAfter = 2

    private let global: Global
    private let application: EdgeApplication
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)
    private let listeners: [Int32]
    /// The port the listeners are bound to (the chosen one when 0 was asked for).
    let port: Int

    /// Binds the listeners (so that a busy port fails here, before anything starts) and prepares h2o.
    init(application: EdgeApplication) throws {
        self.application = application
        let configuration = application.configuration
        // h2o formats times with localtime_r, which reads the time zone file on first use: read it now, not
        // during the first request.
        tzset()
        let config = UnsafeMutablePointer<h2o_globalconf_t>.allocate(capacity: 1)
        config.initialize(to: h2o_globalconf_t())
        h2o_config_init(config)
        // Larger bodies get h2o's 413 before a handler sees them; handlers apply their own, smaller limits.
        config.pointee.max_request_entity_size = 1 << 20
        // No server_name: h2o 2.2 would format it into every response with sprintf. LoopContext.respond adds
        // the same header from static bytes instead.
        config.pointee.server_name = h2o_iovec_init(nil, 0)
        let host = h2o_config_register_host(config, h2o_iovec_init("default", 7), 65535)
        let path = h2o_config_register_path(host, "/", 0)
        let handler = h2o_create_handler(path, MemoryLayout<h2o_handler_t>.size)!
        handler.pointee.on_req = { _, request in
            let loop = tolt_h2o_loop_of_request(request!)!
            return Unmanaged<LoopContext>.fromOpaque(loop.pointee.owner).takeUnretainedValue().handle(request!)
        }
        global = Global(config: config)
        var listeners: [Int32] = []
        var port = configuration.port
        for _ in 0..<configuration.threads {
            let descriptor = try Listener.open(host: configuration.host, port: port)
            listeners.append(descriptor)
            port = Listener.localPort(descriptor)
        }
        self.listeners = listeners
        self.port = port
    }

    /// Starts one loop thread per listener.
    func start() {
        for (index, listener) in listeners.enumerated() {
            running.add(1, ordering: .relaxed)
            let global = self.global
            startThread(name: "tolt-loop-\(index)") { [self] in
                runLoop(index: index, listener: listener, global: global)
                running.subtract(1, ordering: .releasing)
            }
        }
    }

    /// Asks every loop to stop accepting, finish what it has in flight, seal its journal, and exit.
    func stop() { stopping.store(true, ordering: .relaxed) }

    /// Blocks until every loop thread has exited.
    func waitUntilStopped() {
        while running.load(ordering: .acquiring) > 0 { usleep(10_000) }
    }

    private func runLoop(index: Int, listener: Int32, global: Global) {
        let record = UnsafeMutablePointer<tolt_h2o_loop>.allocate(capacity: 1)
        record.initialize(to: tolt_h2o_loop())
        h2o_context_init(tolt_h2o_loop_context(record), h2o_evloop_create(), global.config)
        let loop = record.pointee.context.loop!
        let context = LoopContext(application: application, index: index, loop: record)
        record.pointee.owner = Unmanaged.passRetained(context).toOpaque()
        let queue = h2o_multithread_create_queue(loop)
        h2o_multithread_register_receiver(queue, tolt_h2o_loop_receiver(record)) { receiver, messages in
            let loop = tolt_h2o_loop_of_receiver(receiver!)!
            let context = Unmanaged<LoopContext>.fromOpaque(loop.pointee.owner).takeUnretainedValue()
            while let message = tolt_h2o_pop_message(messages) { context.deliver(message) }
        }
        let accept = UnsafeMutablePointer<h2o_accept_ctx_t>.allocate(capacity: 1)
        accept.initialize(to: h2o_accept_ctx_t())
        accept.pointee.ctx = tolt_h2o_loop_context(record)
        accept.pointee.hosts = global.config.pointee.hosts
        let socket = h2o_evloop_socket_create(loop, listener, Int32(H2O_SOCKET_FLAG_DONT_READ))!
        socket.pointee.data = UnsafeMutableRawPointer(accept)
        h2o_socket_read_start(socket) { listener, error in
            guard error == nil, let listener, let connection = h2o_evloop_socket_accept(listener) else { return }
            h2o_accept(listener.pointee.data.assumingMemoryBound(to: h2o_accept_ctx_t.self), connection)
        }
        while !stopping.load(ordering: .relaxed) {
            h2o_evloop_run(loop, 100)
            context.flushHeld()
            // A loop that found a batch of requests waiting is saturated: hand the core to whatever else is
            // runnable on it before polling again (see yieldAfter).
            if context.iterationRequests >= Self.yieldAfter { sched_yield() }
            context.iterationRequests = 0
        }
        h2o_socket_read_stop(socket)
        h2o_socket_close(socket)
        // Answer what is in flight (API requests waiting on workers) for up to two seconds.
        var waited = 0
        while context.pendingCount > 0 && waited < 200 {
            h2o_evloop_run(loop, 10)
            context.flushHeld()
            waited += 1
        }
        h2o_evloop_run(loop, 0)
        context.flushHeld()
        context.close()
    }
}
