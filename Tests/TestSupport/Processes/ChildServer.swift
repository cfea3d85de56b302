#if canImport(Glibc)
    import Glibc
#endif

/// `tolt-edge serve` as a child process on an ephemeral port of 127.0.0.1, over a data directory.
package final class ChildServer {
    package let child: ChildProcess
    package let port: Int

    /// Starts the server and waits (at most `seconds`) for the line that names its port.
    package init(
        dataDirectory: String, outputIn directory: String, label: String, threads: Int = 2, arguments: [String] = [],
        fileSizeLimit: Int? = nil, descriptorLimit: (soft: Int, hard: Int)? = nil, within seconds: Double = 20
    ) throws {
        child = try ChildProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--threads", String(threads), "--data", dataDirectory]
                + arguments,
            outputIn: directory, label: label, fileSizeLimit: fileSizeLimit, descriptorLimit: descriptorLimit)
        let deadline = TestClock.now() + seconds
        while true {
            if let port = Self.port(in: child.stdout) {
                self.port = port
                return
            }
            guard child.process.isRunning, TestClock.now() < deadline else {
                child.signal(SIGKILL)
                throw TestError("tolt-edge serve did not start: \(child.stdout) \(child.stderr)")
            }
            usleep(20_000)
        }
    }

    /// A client for the server's port.
    package func client() -> HTTPClient { HTTPClient(port: port) }

    /// The port in `tolt-edge listening on http://127.0.0.1:PORT (…)` (or `https://`).
    package static func port(in output: String) -> Int? {
        guard
            let range = output.range(of: "listening on http://127.0.0.1:")
                ?? output.range(of: "listening on https://127.0.0.1:")
        else { return nil }
        let digits = output[range.upperBound...].prefix { $0.isNumber }
        guard output[range.upperBound...].dropFirst(digits.count).first == " " else { return nil }
        return Int(digits)
    }
}
