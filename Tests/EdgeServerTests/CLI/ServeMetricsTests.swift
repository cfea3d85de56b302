import Foundation
import TestSupport
import Testing

/// `tolt-edge serve --metrics-port`: the scrape moves to a listener of its own, whose address `serve` prints.
@Suite struct ServeMetricsTests {
    @Test func aMetricsPortMovesTheScrapeOffTheMainListener() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "metrics",
            arguments: ["--metrics-port", "0"])
        defer { server.stop() }
        var metricsPort: Int?
        #expect(
            eventually(within: 5) {
                let output = server.child.stdout
                guard let range = output.range(of: "metrics on http://127.0.0.1:") else { return false }
                metricsPort = Int(output[range.upperBound...].prefix { $0.isNumber })
                return metricsPort != nil
            }, "serve prints the metrics address: \(server.child.stdout)")
        let port = try #require(metricsPort)
        #expect(try server.client().request("GET", "/metrics").status == 404)
        let scrape = try MetricsTests.scrape(HTTPClient(port: port))
        #expect(scrape.value("tolt_edge_http_requests_total", ["route": "unmatched", "code": "404"]) == 1)
    }

    @Test func aMetricsPortOutOfRangeIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(
            ["serve", "--port", "0", "--data", directory.path + "/data", "--metrics-port", "70000"],
            outputIn: directory.path, label: "bad-port")
        let exit = child.waitForExit(within: 10)
        #expect(exit?.status == 2)
        #expect(child.stderr.contains("--metrics-port must be an integer from 0 to 65535"))
    }
}
