import Synchronization

/// The lines an ingester logs, kept for a test to read.
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    var append: @Sendable (String) -> Void { { line in self.storage.withLock { $0.append(line) } } }
}
