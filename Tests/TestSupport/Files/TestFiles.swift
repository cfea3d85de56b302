#if canImport(Glibc)
    import Glibc
#endif

/// Files the tests find on disk: the repository, its fixtures, and the built `tolt-edge` binary.
package enum TestFiles {
    /// The repository root: the nearest directory above this source file that holds `Package.swift`, so tests
    /// find it whatever the working directory, in any clone.
    package static let repositoryRoot: String? = {
        var path = #filePath
        while let slash = path.lastIndex(of: "/") {
            path = String(path[..<slash])
            if access(path + "/Package.swift", F_OK) == 0 { return path }
        }
        return nil
    }()

    /// The path of `relative` under `Tests/Fixtures/` (e.g. `corpus/ua-dev.tsv`), which must exist.
    package static func fixture(_ relative: String) throws -> String {
        guard let root = repositoryRoot else { throw TestError("no Package.swift above \(#filePath)") }
        let path = root + "/Tests/Fixtures/" + relative
        guard access(path, R_OK) == 0 else { throw TestError("fixture \(path) is missing or unreadable") }
        return path
    }

    /// The `tolt-edge` binary built beside the test bundle (`swift build` before `swift test`, as `make test`
    /// does), whatever the scratch path; `TOLT_EDGE_BINARY` names another (to run a test against an older build).
    package static var binary: String {
        if let path = getenv("TOLT_EDGE_BINARY") { return String(cString: path) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
            // The test runner may be inside the .xctest bundle directory.
            for _ in 0..<3 {
                if access(directory + "/tolt-edge", X_OK) == 0 { return directory + "/tolt-edge" }
                directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
            }
        }
        return (repositoryRoot ?? ".") + "/.build/debug/tolt-edge"
    }
}
