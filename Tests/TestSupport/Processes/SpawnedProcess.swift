#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, with the part of Foundation's `Process` API the tests use.
///
/// Foundation's `Process.run()` in Swift 6.3.1 crashes now and then on Linux (it copies a whole 256-byte
/// `d_name` out of `readdir`'s buffer while listing `/proc/self/fd`, swift-corelibs-foundation #5472); it
/// took the test runner down in about one run in ten here. This spawns directly instead.
package final class SpawnedProcess {
    package enum TerminationReason { case exit, uncaughtSignal }

    package let processIdentifier: pid_t
    private var status: Int32?

    /// Starts `executable arguments…` with standard input from `standardInput` (a descriptor of the test process)
    /// or /dev/null, the outputs appended to the given files (or /dev/null), and no other descriptor of the test
    /// process, in the test process's environment with `environment`'s variables set over it.
    package init(
        executable: String, arguments: [String], standardInput: Int32? = nil, standardOutput: String? = nil,
        standardError: String? = nil, environment: [String: String] = [:]
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(
            &actions, 1, standardOutput ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(
            &actions, 2, standardError ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // No other descriptor of the test process (sockets of in-process servers and clients) reaches the child;
        // glibc ignores a close of a descriptor that is not open.
        for descriptor in 3..<1024 { posix_spawn_file_actions_addclose(&actions, Int32(descriptor)) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var inherited: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            let text = String(cString: variable)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[name] == nil { inherited.append(text) }
            entry += 1
        }
        let variables = inherited + environment.map { "\($0.key)=\($0.value)" }
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = argv.withUnsafeBufferPointer { argv in
            envp.withUnsafeBufferPointer { envp in
                posix_spawn(&pid, executable, &actions, nil, argv.baseAddress!, envp.baseAddress!)
            }
        }
        guard rc == 0 else { throw TestError("cannot start \(executable): error \(rc)") }
        processIdentifier = pid
    }

    /// Whether the child has not exited yet (reaps it when it has).
    package var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return true }
        status = raw
        return false
    }

    /// Blocks until the child exits, and reaps it.
    package func waitUntilExit() {
        while status == nil {
            var raw: Int32 = 0
            if waitpid(processIdentifier, &raw, 0) == processIdentifier { status = raw }
        }
    }

    /// The signal's number when ``terminationReason`` is `.uncaughtSignal`, else the exit code.
    package var terminationStatus: Int32 {
        guard let status else { return -1 }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Whether the child exited by itself or was killed by a signal (valid once it has exited).
    package var terminationReason: TerminationReason {
        guard let status else { return .exit }
        return status & 0x7F == 0 ? .exit : .uncaughtSignal
    }
}
