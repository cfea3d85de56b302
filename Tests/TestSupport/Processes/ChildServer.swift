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

    /// Whether the server's output has `text` within `seconds`: `serve` prints its notes and the demo's lines after the
    /// line that names its port, which is all the start waits for.
    package func printed(_ text: String, within seconds: Double = 10) -> Bool {
        let deadline = TestClock.now() + seconds
        while !child.stdout.contains(text) {
            guard TestClock.now() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// A client for the server's port.
    package func client() -> HTTPClient { HTTPClient(port: port) }

    /// Stops the server as an operator would: `SIGTERM` (it drains its journal and exits), then `SIGKILL` if it has
    /// not exited within `seconds`. Returns its exit, or `nil` when it had to be killed. Both the end of a test that
    /// checks a clean stop (`#expect(server.stop()?.status == 0)`) and, in a `defer` right after the start, the
    /// clean-up that leaves no server behind when an expectation throws; on a server that has exited already it
    /// only returns that exit.
    @discardableResult
    package func stop(within seconds: Double = 10) -> (status: Int32, signaled: Bool)? {
        if child.process.isRunning { child.signal(SIGTERM) }
        if let exit = child.waitForExit(within: seconds) { return exit }
        kill()
        return nil
    }

    /// Kills the server (`SIGKILL`: no drain, as a crash or the OOM killer would end it) and waits at most `seconds`
    /// for it to go. The clean-up of a test whose server has nothing to drain or cannot drain (its store is down,
    /// its disk full), and the crash in a test about what the next start finds. A no-op once it has exited.
    package func kill(within seconds: Double = 5) {
        if child.process.isRunning { child.signal(SIGKILL) }
        _ = child.waitForExit(within: seconds)
    }

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
