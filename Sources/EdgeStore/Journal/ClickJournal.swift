import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The click journal of one node: a directory of append-only segment files.
///
/// Loop threads append through their own ``JournalWriter``; the ``ClickIngester`` moves records into the
/// store and deletes each segment once it is sealed and consumed. Segments left by an earlier process
/// (after a crash) are sealed by definition and ingested first.
public final class ClickJournal: Sendable {
    /// The journal's directory.
    public let directory: String
    /// This node's id, kept in the data directory: it makes segment names unique across nodes of a shared store.
    public let nodeID: String
    /// The size each segment is created with.
    public let segmentSize: Int
    private let runID: String
    private let live = Mutex<Set<String>>([])
    private let failures = Mutex<[String]>([])
    /// A ready segment per stream, created and paged in ahead of time so that a loop thread never waits on
    /// file creation, block allocation or page faults when it moves to a new segment.
    private let spares = Mutex<[Int: MappedSegment]>([:])
    private let sequence = Atomic<Int>(0)
    private let housekeeper = JournalHousekeeper()

    /// Opens (creating) the journal under `dataDirectory/journal`.
    public init(dataDirectory: String, segmentSize: Int = 64 << 20) throws {
        directory = dataDirectory + "/journal"
        self.segmentSize = segmentSize
        guard FileSystem.makeDirectory(dataDirectory), FileSystem.makeDirectory(directory) else {
            throw StoreError.io("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        nodeID = try FileSystem.readOrCreate(dataDirectory + "/node-id") {
            EntityIDText.random(count: 16)
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        runID = String(now.tv_sec * 1000 + now.tv_nsec / 1_000_000) + "-" + String(getpid())
    }

    /// A writer for one loop thread; `stream` tells its segments apart from the other threads'.
    public func makeWriter(stream: Int) -> JournalWriter {
        prepareSpare(stream: stream)
        return JournalWriter(journal: self, stream: stream)
    }

    /// The next segment for `stream`: the prepared spare when there is one, else a new one made now. Asks for
    /// the following spare in the background either way.
    func nextSegment(stream: Int) throws -> MappedSegment {
        let spare = spares.withLock { $0.removeValue(forKey: stream) }
        defer { prepareSpare(stream: stream) }
        if let spare { return spare }
        return try openSegment(stream: stream)
    }

    /// Drops the unused spare of a stream (at shutdown): it is sealed empty, and the ingester deletes it.
    func discardSpare(stream: Int) {
        housekeeper.waitUntilIdle()
        guard let spare = spares.withLock({ $0.removeValue(forKey: stream) }) else { return }
        spare.base.storeBytes(of: UInt64(JournalFrame.sealMarker), as: UInt64.self)
        retire(spare)
        housekeeper.waitUntilIdle()
    }

    /// Unmaps a sealed segment and marks it no longer live, on the housekeeper: tearing down a 64 MiB
    /// mapping takes milliseconds, which a loop thread must not spend between two requests.
    func retire(_ segment: MappedSegment) {
        housekeeper.run { [self] in
            munmap(segment.base, segment.size)
            sealed(segment.name)
        }
    }

    private func prepareSpare(stream: Int) {
        housekeeper.run { [self] in
            guard spares.withLock({ $0[stream] == nil }) else { return }
            do {
                let segment = try openSegment(stream: stream)
                // Touch every page now: the block allocation and the page fault happen on this thread, not on
                // the loop thread that appends the first click to the page.
                var offset = 0
                while offset < segment.size {
                    segment.base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
                    offset += 4096
                }
                spares.withLock { $0[stream] = segment }
            } catch {
                report(error)
            }
        }
    }

    /// Segments a writer still appends to.
    func liveSegments() -> Set<String> { live.withLock { $0 } }

    /// Errors writers met, taken once, for the server to log off the loop thread.
    public func takeFailures() -> [String] {
        failures.withLock { list in
            defer { list = [] }; return list
        }
    }

    func report(_ error: Error) { failures.withLock { $0.append("\(error)") } }

    /// The checkpoint key of a segment: unique across the nodes that share one store.
    func checkpointKey(_ name: String) -> String { nodeID + "/" + name }

    func openSegment(stream: Int) throws -> MappedSegment {
        let number = String(sequence.wrappingAdd(1, ordering: .relaxed).newValue)
        let name = "\(runID)-\(String(repeating: "0", count: max(0, 8 - number.count)))\(number)-\(stream).journal"
        let path = directory + "/" + name
        // Live before the file exists: the ingester deletes any listed segment that no writer holds.
        live.withLock { _ = $0.insert(name) }
        func fail(_ what: String) -> StoreError {
            let error = StoreError.io("cannot \(what) \(path): \(String(cString: strerror(errno)))")
            unlink(path)
            sealed(name)
            return error
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail("create") }
        defer { Glibc.close(descriptor) }
        // Reserving the blocks up front means a full disk fails here, not as SIGBUS on a store into the map.
        if posix_fallocate(descriptor, 0, off_t(segmentSize)) != 0 {
            guard ftruncate(descriptor, off_t(segmentSize)) == 0 else { throw fail("size") }
        }
        guard let base = mmap(nil, segmentSize, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            base != MAP_FAILED
        else { throw fail("map") }
        return MappedSegment(name: name, base: base, size: segmentSize)
    }

    func sealed(_ name: String) {
        live.withLock { _ = $0.remove(name) }
    }

    /// The segment files present, oldest first.
    func segmentNames() -> [String] {
        FileSystem.list(directory).filter { $0.hasSuffix(".journal") }.sorted()
    }
}

/// Random lower-case hex text, for ids that are not entity ids.
enum EntityIDText {
    static func random(count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
