import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One test of this test binary run in a process of its own, and what it printed: for probes that measure the
/// process (its resident memory, its descriptors), which the tests running in parallel in this process would move.
package struct IsolatedTestRun {
    /// Everything the process wrote, standard output and error together.
    package let output: String
    /// Whether it exited on its own, with status 0, within the time allowed.
    package let succeeded: Bool

    /// Runs the tests that `filter` names (one, normally) in a new process of this binary, for at most `seconds`.
    package init(filter: String, within seconds: Double = 240) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/probe.out"
        let process = try SpawnedProcess(
            executable: "/proc/self/exe", arguments: ["--testing-library", "swift-testing", "--filter", filter],
            standardOutput: path, standardError: path)
        var waited = 0.0
        while process.isRunning && waited < seconds {
            usleep(100_000)
            waited += 0.1
        }
        let finished = !process.isRunning
        if !finished {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        succeeded = finished && process.terminationStatus == 0
    }

    /// The first line the run printed that starts with `prefix`: the probe's report.
    package func line(startingWith prefix: String) -> Substring? {
        output.split(separator: "\n").first { $0.hasPrefix(prefix) }
    }

    /// Whether exactly one test ran and passed (a probe is disabled unless its name is the filter, so a run that
    /// skipped it would pass with nothing measured).
    package var ranOneTestThatPassed: Bool { output.contains("Test run with 1 test in 1 suite passed") }
}
