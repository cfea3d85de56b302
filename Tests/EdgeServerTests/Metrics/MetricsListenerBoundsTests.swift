import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What README and SECURITY.md say of the metrics that nothing else pins: the listener of its own
/// (`--metrics-port`) reads one connection at a time with an 8 KiB head and a 2 s read timeout, so an oversized head
/// is `431` and a silent client cannot hold the scrape; and the dashboard's requests carry the `route` labels README
/// lists, `dashboard` and `dashboard_pages`.
@Suite struct MetricsListenerBoundsTests {
    /// Everything the server sends on `descriptor` until it closes the connection (or the 10 s receive timeout).
    static func readToClose(_ descriptor: Int32) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (received, true) }
            if count < 0 { return (received, false) }
            received += chunk[..<count]
        }
    }

    static func send(_ bytes: [UInt8], on descriptor: Int32) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    @Test func aHeadOver8KiBIs431AndTheConnectionIsClosed() throws {
        let server = try TestServer { $0.metricsPort = 0 }
        defer { server.shutdown() }
        let port = try #require(server.server.metricsPort)
        let descriptor = try LoopbackSocket.connect(port: port)
        defer { close(descriptor) }
        // 8 KiB of head that has not ended: the bound reached, and every byte sent read (so the close is a clean one).
        let start = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-Filler: "
        let head = start + String(repeating: "a", count: 8192 - start.utf8.count)
        Self.send(Array(head.utf8), on: descriptor)
        let (bytes, closed) = Self.readToClose(descriptor)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 431 "), "\(text.prefix(200))")
        #expect(text.contains(#""error":"request_too_large""#), "\(text)")
        #expect(closed, "the listener closes the connection after its answer")
        // A head just under the bound is a scrape.
        let fits = try LoopbackSocket.connect(port: port)
        defer { close(fits) }
        let small = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-Filler: " + String(repeating: "a", count: 7900)
        Self.send(Array((small + "\r\n\r\n").utf8), on: fits)
        let answered = String(decoding: Self.readToClose(fits).bytes, as: UTF8.self)
        #expect(answered.hasPrefix("HTTP/1.1 200 "), "\(answered.prefix(200))")
    }

    @Test func aSilentClientHoldsTheListenerOnlyUntilItsReadTimeout() throws {
        let server = try TestServer { $0.metricsPort = 0 }
        defer { server.shutdown() }
        let port = try #require(server.server.metricsPort)
        // Connected first, sends nothing: the listener serves one connection at a time, so the scrape after it
        // waits until the silent one's read times out (2 s) and is closed.
        let silent = try LoopbackSocket.connect(port: port)
        defer { close(silent) }
        let scrape = try HTTPClient(port: port).request("GET", "/metrics")
        #expect(scrape.status == 200, "answered within the client's 10 s receive timeout")
        let dropped = Self.readToClose(silent)
        #expect(dropped.closed && dropped.bytes.isEmpty, "closed without an answer: \(dropped.bytes.count) bytes")
    }

    @Test func theDashboardsRequestsAreLabelledDashboardAndDashboardPages() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.request("GET", "/dashboard").status == 303)
        #expect(try client.request("GET", "/dashboard/customers").status == 303)
        #expect(try client.request("GET", "/dashboard/sign-in").status == 200)
        #expect(try client.request("GET", "/dashboard/nowhere").status == 303)
        let text = try MetricsTests.scrape(client)
        #expect(text.value(MetricsTests.requests, ["route": "dashboard", "code": "303"]) == 1)
        #expect(text.value(MetricsTests.requests, ["route": "dashboard_pages", "code": "303"]) == 2)
        #expect(text.value(MetricsTests.requests, ["route": "dashboard_pages", "code": "200"]) == 1)
        let routes = Set(text.all(MetricsTests.requests).map { $0.labels["route"] ?? "" })
        let dashboardRoutes: Set<String> = routes.filter { $0.contains("dashboard") }
        #expect(dashboardRoutes == ["dashboard", "dashboard_pages"], "\(routes)")
        #expect(!routes.contains { $0.contains("/") }, "a route label is never a path: \(routes)")
    }
}
