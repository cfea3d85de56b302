import LinkCore

/// A per-loop-thread cache of User-Agent verdicts.
///
/// Real traffic repeats a few hundred User-Agents (current Safari and Chrome builds, the big in-app
/// browsers), so most taps skip the classifier: a hash and one byte comparison cost a fraction of a full
/// classification. Direct-mapped and bounded (1024 entries of up to 256 bytes); longer strings are not
/// cached. Used by one thread only, so it takes no lock.
final class UserAgentCache {
    static let slotCount = 1024
    static let maximumLength = 256

    private let classifier: UserAgentClassifier
    private let keys: UnsafeMutableRawPointer
    private var lengths = [Int](repeating: -1, count: UserAgentCache.slotCount)
    private var verdicts = [UserAgentClass](
        repeating: UserAgentClass(label: .bot, platform: .other), count: UserAgentCache.slotCount)

    init(classifier: UserAgentClassifier) {
        self.classifier = classifier
        keys = .allocate(byteCount: Self.slotCount * Self.maximumLength, alignment: 8)
    }

    deinit { keys.deallocate() }

    /// The classifier's verdict for `userAgent`, from the cache when it holds the same bytes.
    @inline(__always)
    func classify(_ userAgent: UnsafeRawBufferPointer) -> UserAgentClass {
        let count = userAgent.count
        guard count > 0, count <= Self.maximumLength else { return classifier.classify(userAgent) }
        let slot = Int(truncatingIfNeeded: ByteHash.hash(userAgent)) & (Self.slotCount - 1)
        let stored = keys + slot * Self.maximumLength
        if lengths[slot] == count && memcmp(stored, userAgent.baseAddress!, count) == 0 {
            return verdicts[slot]
        }
        let verdict = classifier.classify(userAgent)
        stored.copyMemory(from: userAgent.baseAddress!, byteCount: count)
        lengths[slot] = count
        verdicts[slot] = verdict
        return verdict
    }
}

#if canImport(Glibc)
    import Glibc
#endif
