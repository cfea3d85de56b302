import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A new empty directory under `/tmp` for one test; call ``remove()`` in a `defer`.
///
/// Every test gets its own directory (data directories, journals, child process output), so tests that run in
/// parallel never share a file.
package struct TemporaryDirectory: Sendable {
    /// What every such directory's path starts with; ``remove()`` deletes nothing else.
    package static let prefix = "/tmp/tolt-edge-test-"

    package let path: String

    /// Creates the directory (`mkdtemp`, mode 0700).
    package init() throws {
        var template = Array((Self.prefix + "XXXXXX").utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestError("mkdtemp \(Self.prefix)XXXXXX failed: errno \(errno)")
        }
        path = String(cString: result)
    }

    /// Removes the directory and everything in it. Only a path made by ``init()`` is removed, so a mistake
    /// in a test cannot delete anything else.
    package func remove() {
        guard path.hasPrefix(Self.prefix), !path.contains("/../") else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
