internal import CH2O
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs h2o: one event loop per thread, each with its own `SO_REUSEPORT` listener, all routing through one
/// ``Router``.
///
/// Everything that names h2o stays in this folder (and the C beside it, in the `CH2O` target): a newer h2o, or
/// another engine, changes these files only.
final class H2OEngine: Sendable {
    /// h2o's global configuration. `@unchecked Sendable`: written during `init`, read-only while the loops run, as
    /// h2o requires, and disposed of after every loop has been joined.
    private struct Global: @unchecked Sendable {
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

    /// How many of one HTTP/2 connection's requests h2o runs at once; the others wait their turn, holding only their
    /// request heads.
    ///
    /// h2o 2.2 lets a client open 100 streams (SETTINGS_MAX_CONCURRENT_STREAMS is compiled into the library and
    /// cannot be set) and by default runs all 100. A link tap is one request, and a browser asks for a dashboard
    /// page's few parts at once, so 16 costs no one a wait, while a client that keeps its answers waiting (its
    /// window at zero, until the stall closes the connection) holds about 0.6 MB with them, not 1 MB (500 such
    /// connections: 326 MB of server memory, 521 MB with 100).
    static let concurrentRequestsPerConnection = 16

    private let global: Global
    private let application: EdgeApplication
    private let router: Router
    private let stopping = Atomic<Bool>(false)
    /// The listening descriptors, until the loops take them over (each loop closes its own).
    private let listeners: [Int32]
    private let state = Mutex<State>(State())
    /// Held for the whole of ``stop()``, so that a second caller returns only once the loops are joined; `true`
    /// once they are.
    private let stopping_ = Mutex<Bool>(false)
    let log: @Sendable (String) -> Void
    /// The port the listeners are bound to (the chosen one when 0 was asked for).
    let port: Int
    /// The certificate of TLS connections; `nil` for cleartext.
    let tls: H2OTLS?
    /// The most client connections open at once, across the loops.
    let maxConnections: Int

    private struct State {
        var threads: [ServerThread] = []
        /// The loops that can be woken, by index; a loop leaves before it takes itself apart.
        var wakers: [Int: Waker] = [:]
        var started = false
    }

    /// Prepares h2o on `listeners` (one a loop, from ``Listener/openGroup(host:port:count:)``, which it owns from
    /// now on) with the certificate `tls` loaded. Client connections are limited to `maxConnections`.
    init(
        application: EdgeApplication, router: Router, listeners: [Int32], tls: H2OTLS?, maxConnections: Int,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.application = application
        self.router = router
        self.log = log
        let configuration = application.configuration
        self.tls = tls
        self.maxConnections = max(maxConnections, configuration.threads)
        // h2o formats times with localtime_r, which reads the time zone file on first use: read it now, not
        // during the first request.
        tzset()
        self.listeners = listeners
        self.port = listeners.first.map(Listener.localPort) ?? configuration.port
        // Larger bodies get a 413 in the API's error shape before a handler sees them (H2OEngine+OwnErrors).
        let config: UnsafeMutablePointer<h2o_globalconf_t> = tolt_h2o_config_create(Self.maximumBodySize) {
            _, request in H2OLoop.of(request!).handle(request!)
        }
        Self.replaceOwnErrors(in: config)
        Self.enforceFraming(in: config, log: log)
        // Cleartext HTTP/2 (an `Upgrade: h2c`, or the HTTP/2 preface in place of a request) only when asked for;
        // TLS connections choose HTTP/2 by ALPN either way.
        config.pointee.http1.upgrade_to_http2 = configuration.h2c ? 1 : 0
        config.pointee.http2.max_concurrent_requests_per_connection = Self.concurrentRequestsPerConnection
        global = Global(config: config)
        application.metrics.setRefusedBeforeRouting { [weak self] in
            guard let self else { return 0 }
            return Self.claimsRefusedBeforeRouting(in: self.global.config)
        }
    }

    deinit {
        let neverStarted = state.withLock { !$0.started }
        if neverStarted { for descriptor in listeners { close(descriptor) } }
        tolt_h2o_config_destroy(global.config)
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Starts one loop thread per listener. Each loop makes its h2o objects on its own thread: h2o keeps per-thread
    /// buffer allocators (`h2o_socket_buffer_prototype` is thread-local), and a socket made on another thread would
    /// hand its buffers to that thread's allocator from this one.
    func start() {
        state.withLock { state in
            precondition(!state.started, "an engine starts once")
            state.started = true
            for (index, listener) in listeners.enumerated() {
                let application = self.application
                let router = self.router
                let config = global
                state.threads.append(
                    ServerThread(name: "tolt-loop-\(index)") { [self] in
                        let loop = H2OLoop(
                            index: index, application: application, router: router, config: config.config)
                        addWaker(loop.waker, index: index)
                        loop.run(
                            listener: listener, maxConnections: connectionShare(of: index), engine: self)
                    })
            }
        }
    }

    /// Stops accepting, lets every loop answer what it has in flight, close its connections, seal its journal
    /// segment and take itself apart, and joins the loop threads. Returns once all of that is done, also to a second
    /// caller, who waits for the first.
    func stop() {
        stopping_.withLock { joined in
            guard !joined else { return }
            let threads = state.withLock { state -> [ServerThread] in
                guard state.started else { return [] }
                stopping.store(true, ordering: .relaxed)
                for waker in state.wakers.values { waker.wake() }
                return state.threads
            }
            for thread in threads { thread.join() }
            joined = true
        }
    }

    /// Loop `index`'s part of ``maxConnections`` (the kernel spreads connections over the listeners).
    private func connectionShare(of index: Int) -> Int {
        let loops = listeners.count
        return maxConnections / loops + (index < maxConnections % loops ? 1 : 0)
    }

    /// Reads the TLS certificate and key again, for the connections that arrive from now on.
    func reloadCertificate() throws {
        guard let tls else { throw ConfigurationError("TLS is not configured (--tls-cert, --tls-key)") }
        try tls.reload()
    }

    /// Called by a loop once it can be woken: a stop from now on wakes it (one that came earlier set the flag its
    /// first iteration reads).
    private func addWaker(_ waker: Waker, index: Int) {
        state.withLock { $0.wakers[index] = waker }
    }

    /// Called by a loop before it takes itself apart: no thread wakes it after this returns.
    func removeWaker(_ index: Int) {
        _ = state.withLock { $0.wakers.removeValue(forKey: index) }
    }
}
