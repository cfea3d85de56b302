import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The click journal of one node: a directory of append-only segment files.
///
/// Loop threads append through their own ``JournalWriter``; the ``ClickIngester`` moves records into the
/// store and deletes each segment once it is sealed and consumed. Segments left by an earlier process
/// (after a crash) are sealed by definition and ingested first. That holds only while one journal at a time uses the
/// directory: the journal holds ``DataDirectoryLock`` from its start until ``release()``, and a second one is refused.
public final class ClickJournal: Sendable {
    /// The journal's directory.
    public let directory: String
    /// This node's id, made once and kept in `<data>/node-id` (0600): every segment's name carries it, and so does
    /// every checkpoint key, so that nodes sharing a store never take each other's segments for their own.
    public let nodeID: String
    /// The size past which a writer moves on to a new segment.
    public let segmentSize: Int
    /// The bound on bytes written and not yet ingested (`--journal-max-bytes`), shared out among the writers.
    public let room: JournalRoom
    private let runID: String
    /// This journal's claim on the data directory: without it, another one would take our open segments for an
    /// earlier process's and delete them under our writers.
    private let lock: DataDirectoryLock
    /// The segments writers hold, with their writers' markers and how far the ingester has committed each.
    private let live = Mutex<[String: LiveSegment]>([:])
    private let failures = Mutex(JournalWriteFailures())
    private let sequence = Atomic<Int>(0)

    /// Opens (creating) the journal under `dataDirectory/journal`. `maximumBytes` bounds the bytes written and not yet
    /// ingested (``JournalRoom``); by default half the room the volume has for the journal now
    /// (``defaultMaximumBytes(directory:)``). Throws at once, when another journal holds the data directory (another
    /// `tolt-edge serve`, or a server of this process not yet stopped), having made nothing but the directory (when it
    /// was missing) and its lock file.
    public init(dataDirectory: String, segmentSize: Int = 64 << 20, maximumBytes: Int? = nil) throws {
        directory = dataDirectory + "/journal"
        self.segmentSize = segmentSize
        guard FileSystem.makeDirectory(dataDirectory) else {
            throw StoreError.io("cannot create \(dataDirectory): \(String(cString: strerror(errno)))")
        }
        guard FileSystem.isDirectory(dataDirectory) else {
            throw StoreError.io("cannot create \(dataDirectory): \(String(cString: strerror(ENOTDIR)))")
        }
        // Before anything else of the directory is touched.
        lock = try DataDirectoryLock(dataDirectory: dataDirectory)
        // Segments hold whole client addresses until they are ingested (`--ip-storage` applies in the store), so the
        // directory is the server's user's alone: created 0700, and made so when an older build left it 0755.
        guard FileSystem.makeDirectory(directory, mode: 0o700), chmod(directory, 0o700) == 0 else {
            throw StoreError.io("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        let nodeFile = dataDirectory + "/node-id"
        let node = try FileSystem.readOrCreate(nodeFile, mode: 0o600) { EntityIDText.random(count: 16) }
        guard Self.isNodeID(node) else {
            throw StoreError.io(
                "\(nodeFile) does not hold a node id (32 lower-case hex characters); it names this node's journal "
                    + "segments in a shared store: restore it, or remove it once the journal is empty")
        }
        _ = chmod(nodeFile, 0o600)
        nodeID = node
        room = JournalRoom(
            maximumBytes: maximumBytes ?? Self.defaultMaximumBytes(directory: dataDirectory + "/journal"))
        // The time first, so names sort oldest first; the node id, so that two nodes (or two data directories of
        // one process, started in the same millisecond) never name a segment alike.
        runID = String(Clock.epochMilliseconds()) + "-" + node + "-" + String(getpid())
    }

    /// Gives the data directory up, so that another journal (a server started after this one stopped) may open it.
    /// Call it once no writer writes any more and the ingester is done: ``EdgeServer/stop()`` does, last. Calling it
    /// again does nothing; the process ending (or the journal being freed) releases it too.
    public func release() {
        lock.release()
    }

    /// Whether `text` is a node id as ``init(dataDirectory:segmentSize:maximumBytes:)`` makes them.
    static func isNodeID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A writer for one loop thread; `stream` tells its segments apart from the other threads'.
    public func makeWriter(stream: Int) -> JournalWriter {
        // Every byte on disk counts as unread until the ingester measures better: a writer never starts with more
        // room than there is.
        JournalWriter(journal: self, stream: stream, allowance: room.register(unread: totalBytes))
    }

    /// A writer with a chosen marker, for tests that pin bytes.
    func makeWriter(stream: Int, marker: UInt32) -> JournalWriter {
        JournalWriter(journal: self, stream: stream, allowance: room.register(unread: totalBytes), marker: marker)
    }

    /// Segments a writer still appends to, with the marker its frames carry and where the ingester reports progress.
    func liveSegments() -> [String: LiveSegment] { live.withLock { $0 } }

    /// What writers could not write since the last call, taken once, for the server to log off the loop threads:
    /// one line (how many clicks were refused, how many writes failed, the last error), or none.
    public func takeFailures() -> [String] {
        let taken = failures.withLock { failures in
            defer { failures = JournalWriteFailures() }
            return failures
        }
        return taken.refusedClicks == 0 && taken.failedAttempts == 0 ? [] : [taken.description]
    }

    /// Counts clicks a writer could not write (answered 503), and the error of the attempt, when it made one.
    func refused(clicks: Int, error: String?) {
        failures.withLock { failures in
            failures.refusedClicks += clicks
            if let error {
                failures.failedAttempts += 1
                failures.lastError = error
            }
        }
    }

    /// Whether this journal's writers created the segment (not an earlier process, nor another node).
    func isOwnSegment(_ name: String) -> Bool { name.hasPrefix(runID + "-") }

    /// The checkpoint key of a segment: unique across the nodes that share one store.
    func checkpointKey(_ name: String) -> String { nodeID + "/" + name }

    /// Creates a segment for the writer of `stream` and writes its header. When either fails, no file is left.
    func openSegment(stream: Int, marker: UInt32) throws -> OpenSegment {
        let number = String(sequence.wrappingAdd(1, ordering: .relaxed).newValue)
        let name = "\(runID)-\(String(repeating: "0", count: max(0, 8 - number.count)))\(number)-\(stream).journal"
        let path = directory + "/" + name
        // Live before the file exists: the ingester deletes any listed segment that no writer holds.
        let ingested = IngestedOffset()
        live.withLock { $0[name] = LiveSegment(marker: marker, ingested: ingested) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let error = StoreError.io("cannot create \(path): \(String(cString: strerror(errno)))")
            sealed(name)
            throw error
        }
        do {
            try JournalFrame.segmentHeader(marker: marker).withUnsafeBytes {
                try FileDescriptor.writeAll(descriptor, $0)
            }
        } catch {
            close(descriptor)
            unlink(path)
            sealed(name)
            throw StoreError.io("cannot write \(path): \(error)")
        }
        return OpenSegment(name: name, descriptor: descriptor, ingested: ingested)
    }

    func sealed(_ name: String) {
        live.withLock { _ = $0.removeValue(forKey: name) }
    }

    /// The bytes of every segment file present: an upper bound on what waits to be ingested.
    public func totalBytes() -> Int {
        segmentNames().reduce(0) { total, name in
            var info = stat()
            return stat(directory + "/" + name, &info) == 0 ? total + Int(info.st_size) : total
        }
    }

    /// How many bytes the journal may hold before clicks are ingested even under load: a quarter of the room
    /// the data volume has for it (`held`, the journal's current ``totalBytes()``, plus the free space), at
    /// least 256 MiB; 1 GiB when the volume cannot be asked.
    public func backlogLimit(held: Int) -> Int {
        var volume = statvfs()
        guard statvfs(directory, &volume) == 0 else { return 1 << 30 }
        let free = Int(volume.f_bavail) &* Int(volume.f_frsize)
        return max(256 << 20, (held + free) / 4)
    }

    /// The default bound on unread journal bytes: half the room the journal's volume has for it now (the segments
    /// present plus the free space), so that a node whose store cannot take clicks refuses taps before the volume
    /// is full and keeps room for the store and logs beside it; 4 GiB when the volume cannot be asked.
    public static func defaultMaximumBytes(directory: String) -> Int {
        var volume = statvfs()
        guard statvfs(directory, &volume) == 0 else { return 4 << 30 }
        let free = Int(volume.f_bavail) &* Int(volume.f_frsize)
        let held = FileSystem.list(directory).reduce(0) { total, name in
            var info = stat()
            return stat(directory + "/" + name, &info) == 0 ? total + Int(info.st_size) : total
        }
        return max(1 << 20, (held + free) / 2)
    }

    /// The segment files present, oldest first.
    func segmentNames() -> [String] {
        FileSystem.list(directory).filter { $0.hasSuffix(".journal") }.sorted()
    }
}

/// A segment a writer holds, as the ingester sees it.
struct LiveSegment: Sendable {
    /// The marker its frames carry.
    let marker: UInt32
    /// Where the ingester says how far it has committed the segment, for its writer to seal it once it idles.
    let ingested: IngestedOffset
}

/// How far the ingester has committed one live segment: the byte offset just past the last frame it stored. The
/// ingester alone stores it, after each commit; the segment's writer alone loads it (one atomic load, on its loop
/// thread, to decide whether an idle segment may be sealed). A new one per segment, so a late store for a segment
/// already sealed never speaks for the next.
final class IngestedOffset: Sendable {
    let offset = Atomic<Int>(0)
}

/// Random lower-case hex text, for ids that are not entity ids.
enum EntityIDText {
    static func random(count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
