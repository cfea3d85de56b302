import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `tolt-edge` executable run as a child process, its output captured in files of `directory`.
final class ChildProcess {
    let process: SpawnedProcess
    let stdoutPath: String
    let stderrPath: String

    /// Starts `tolt-edge arguments…`; output goes to `directory/<label>.stdout` and `.stderr`. With
    /// `fileSizeLimit`, it runs under util-linux's `prlimit --fsize`: no file it writes may grow past that.
    init(_ arguments: [String], outputIn directory: String, label: String, fileSizeLimit: Int? = nil) throws {
        stdoutPath = "\(directory)/\(label).stdout"
        stderrPath = "\(directory)/\(label).stderr"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        var executable = TestFiles.binary
        var arguments = arguments
        if let fileSizeLimit {
            arguments = ["--fsize=\(fileSizeLimit)", "--", executable] + arguments
            executable = "/usr/bin/prlimit"
        }
        process = try SpawnedProcess(
            executable: executable, arguments: arguments, standardOutput: stdoutPath, standardError: stderrPath)
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// The exit status once the child has exited, or `nil` when it is still running after `seconds`.
    /// A child killed by a signal reports the signal number (Foundation's `uncaughtSignal`).
    func waitForExit(within seconds: Double) -> (status: Int32, signaled: Bool)? {
        let deadline = TestClock.now() + seconds
        while process.isRunning {
            if TestClock.now() > deadline { return nil }
            usleep(10_000)
        }
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    /// Runs a command to its end (at most `seconds`) and returns its status and output.
    static func run(_ arguments: [String], outputIn directory: String, within seconds: Double = 30) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let child = try ChildProcess(
            arguments, outputIn: directory, label: "command-\(UInt32.random(in: 0...UInt32.max))")
        guard let exit = child.waitForExit(within: seconds) else {
            child.signal(SIGKILL)
            throw ClientError("tolt-edge \(arguments.joined(separator: " ")) did not finish in \(seconds) s")
        }
        return (exit.status, child.stdout, child.stderr)
    }
}

/// `tolt-edge serve` as a child process on an ephemeral port of 127.0.0.1, over a data directory.
final class ChildServer {
    let child: ChildProcess
    let port: Int

    /// Starts the server and waits (at most `seconds`) for the line that names its port.
    init(
        dataDirectory: String, outputIn directory: String, label: String, threads: Int = 2, arguments: [String] = [],
        fileSizeLimit: Int? = nil, within seconds: Double = 20
    ) throws {
        child = try ChildProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--threads", String(threads), "--data", dataDirectory]
                + arguments,
            outputIn: directory, label: label, fileSizeLimit: fileSizeLimit)
        let deadline = TestClock.now() + seconds
        while true {
            if let port = Self.port(in: child.stdout) {
                self.port = port
                return
            }
            guard child.process.isRunning, TestClock.now() < deadline else {
                child.signal(SIGKILL)
                throw ClientError("tolt-edge serve did not start: \(child.stdout) \(child.stderr)")
            }
            usleep(20_000)
        }
    }

    func client() -> HTTPClient { HTTPClient(port: port) }

    /// The port in `tolt-edge listening on http://127.0.0.1:PORT (…)`.
    static func port(in output: String) -> Int? {
        guard let range = output.range(of: "listening on http://127.0.0.1:") else { return nil }
        let digits = output[range.upperBound...].prefix { $0.isNumber }
        guard output[range.upperBound...].dropFirst(digits.count).first == " " else { return nil }
        return Int(digits)
    }
}
