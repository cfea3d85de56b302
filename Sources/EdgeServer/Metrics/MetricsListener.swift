import EdgeStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `/metrics` on a listener of its own (`--metrics-host`, `--metrics-port`), served by one thread, `tolt-metrics`,
/// apart from the loops: a scrape is answered even while the loops are saturated, and nothing of it runs on a loop.
///
/// HTTP/1.1 without keep-alive, one connection at a time (Prometheus scrapes one request at a time): a request head
/// of at most 8 KiB, read within 2 seconds, gets one answer and the connection is closed. A client that sends
/// nothing holds the thread for those 2 seconds at most. No TLS: bind it to a loopback or private address.
final class MetricsListener: Sendable {
    /// The port it listens on (the chosen one when 0 was asked for).
    let port: Int
    private let descriptor: Int32
    private let metrics: ServerMetrics
    /// The slot its answers are counted in: the route `metrics` of ``ServerMetrics/setRoutes(_:separateListener:)``.
    private let route: Int
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<ServerThread?>(nil)

    static let headLimit = 8192
    static let timeoutSeconds = 2

    /// Binds the listening socket for ``init(descriptor:metrics:route:)``, so that a busy port fails before anything
    /// starts.
    static func bind(host: String, port: Int) throws -> Int32 {
        do {
            // One listener, no SO_REUSEPORT: a second server given the same port must fail at start, not take
            // every other scrape.
            return try Listener.open(host: host, port: port, sharing: .none)
        } catch {
            // Listener's messages name --host; this one is --metrics-host and --metrics-port.
            throw ConfigurationError("the metrics listener (--metrics-host \(host), --metrics-port \(port)): \(error)")
        }
    }

    /// Serves on `descriptor` (from ``bind(host:port:)``), which it owns from now on.
    init(descriptor: Int32, metrics: ServerMetrics, route: Int) {
        self.descriptor = descriptor
        self.port = Listener.localPort(descriptor)
        self.metrics = metrics
        self.route = route
    }

    deinit { close(descriptor) }

    func start() {
        thread.withLock { thread in
            thread = ServerThread(name: "tolt-metrics") { [self] in run() }
        }
    }

    /// Stops accepting and joins the thread; a scrape being answered is finished first.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        // Wakes a poll on the listener at once (Linux); the poll's timeout is the fallback.
        shutdown(descriptor, Int32(SHUT_RDWR))
        thread.withLock { thread in
            thread?.join()
            thread = nil
        }
    }

    private func run() {
        while !stopping.load(ordering: .relaxed) {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 250) > 0 else { continue }
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client)
            close(client)
        }
    }

    /// Reads one request head and answers it.
    private func serve(_ client: Int32) {
        var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let started = Clock.monotonicNanoseconds()
        let deadline = started + UInt64(Self.timeoutSeconds) * 1_000_000_000
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        while !MetricsRequest.isComplete(head) {
            guard head.count < Self.headLimit, Clock.monotonicNanoseconds() < deadline else {
                return answer(client, MetricsRequest.tooLarge, started: started)
            }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            head += chunk[..<count]
        }
        let request = MetricsRequest.answer(to: head)
        guard request.isScrape else { return answer(client, request, started: started) }
        let body = Array(metrics.render().utf8)
        // HEAD: the length GET would have, no body.
        answer(client, request, started: started, body: request.isHead ? [] : body, contentLength: body.count)
    }

    private func answer(
        _ client: Int32, _ request: MetricsRequest.Answer, started: UInt64, body: [UInt8]? = nil,
        contentLength: Int? = nil
    ) {
        let content = body ?? request.body
        var head = "HTTP/1.1 \(request.status) \(request.reason)\r\n"
        head += "Content-Type: \(request.contentType)\r\nContent-Length: \(contentLength ?? content.count)\r\n"
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        head += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + content
        metrics.listener.answered(
            route: route, status: request.status, elapsed: Clock.monotonicNanoseconds() &- started)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
