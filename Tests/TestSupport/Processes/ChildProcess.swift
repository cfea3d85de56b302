import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `tolt-edge` executable run as a child process, its output captured in files of `directory`.
package final class ChildProcess {
    package let process: SpawnedProcess
    package let stdoutPath: String
    package let stderrPath: String

    /// Starts `tolt-edge arguments…`; output goes to `directory/<label>.stdout` and `.stderr`. With
    /// `fileSizeLimit`, it runs under util-linux's `prlimit --fsize`: no file it writes may grow past that; with
    /// `descriptorLimit` (soft, hard), under `prlimit --nofile`.
    package init(
        _ arguments: [String], outputIn directory: String, label: String, fileSizeLimit: Int? = nil,
        descriptorLimit: (soft: Int, hard: Int)? = nil, standardInput: Int32? = nil,
        environment: [String: String] = [:]
    ) throws {
        stdoutPath = "\(directory)/\(label).stdout"
        stderrPath = "\(directory)/\(label).stderr"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        var executable = TestFiles.binary
        var arguments = arguments
        var limits: [String] = []
        if let fileSizeLimit { limits.append("--fsize=\(fileSizeLimit)") }
        if let descriptorLimit { limits.append("--nofile=\(descriptorLimit.soft):\(descriptorLimit.hard)") }
        if !limits.isEmpty {
            arguments = limits + ["--", executable] + arguments
            executable = "/usr/bin/prlimit"
        }
        process = try SpawnedProcess(
            executable: executable, arguments: arguments, standardInput: standardInput, standardOutput: stdoutPath,
            standardError: stderrPath, environment: environment)
    }

    package var pid: Int32 { process.processIdentifier }
    /// What the child has written to its standard output so far.
    package var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    package var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends the signal `number` (`SIGTERM`, `SIGKILL`) to the child.
    package func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// The exit status once the child has exited, or `nil` when it is still running after `seconds`.
    /// A child killed by a signal reports the signal number (Foundation's `uncaughtSignal`).
    package func waitForExit(within seconds: Double) -> (status: Int32, signaled: Bool)? {
        let deadline = TestClock.now() + seconds
        while process.isRunning {
            if TestClock.now() > deadline { return nil }
            usleep(10_000)
        }
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    /// Runs a command to its end (at most `seconds`) and returns its status and output; its standard input is the
    /// descriptor `standardInput` of the test process, or /dev/null; `environment` is set over the test process's.
    package static func run(
        _ arguments: [String], outputIn directory: String, within seconds: Double = 30, standardInput: Int32? = nil,
        environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(
            arguments, outputIn: directory, label: "command-\(UInt32.random(in: 0...UInt32.max))",
            standardInput: standardInput, environment: environment)
        guard let exit = child.waitForExit(within: seconds) else {
            child.signal(SIGKILL)
            throw TestError("tolt-edge \(arguments.joined(separator: " ")) did not finish in \(seconds) s")
        }
        return (exit.status, child.stdout, child.stderr)
    }
}
