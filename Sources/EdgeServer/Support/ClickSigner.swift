internal import COpenSSL
import LinkCore
import Synchronization

/// Mints and verifies click ids: a timestamp, the code's reference, random bytes, and an HMAC-SHA256 tag.
///
/// `@unchecked Sendable`: the prepared key is written once, in `init` or by ``install(secret:)``, and only read
/// afterwards (the HMAC copies the prepared states before updating them). A key installed late (a node that started
/// while its store was down) is installed before the first configuration is published, and nothing mints or verifies
/// before it sees that configuration through an acquiring load (the watcher's generation), which orders the key's
/// bytes before it.
final class ClickSigner: @unchecked Sendable {
    private let key: UnsafeMutablePointer<tolt_hmac_key>
    private let installed = Atomic<Bool>(false)
    private let installing = Mutex<Void>(())

    init(secret: [UInt8]) {
        key = .allocate(capacity: 1)
        key.initialize(to: tolt_hmac_key())
        secret.withUnsafeBufferPointer { tolt_hmac_key_init(key, $0.baseAddress, $0.count) }
        installed.store(true, ordering: .releasing)
    }

    /// A signer without its key yet: ``install(secret:)`` gives it, once the store can be read.
    init() {
        key = .allocate(capacity: 1)
        key.initialize(to: tolt_hmac_key())
    }

    /// Whether the key is there.
    var hasKey: Bool { installed.load(ordering: .acquiring) }

    /// Installs the key `secret()` reads, unless one is there. Throws what `secret` threw.
    func install(secret: () throws -> [UInt8]) throws {
        try installing.withLock { _ in
            guard !hasKey else { return }
            let bytes = try secret()
            bytes.withUnsafeBufferPointer { tolt_hmac_key_init(key, $0.baseAddress, $0.count) }
            installed.store(true, ordering: .releasing)
        }
    }

    deinit { key.deallocate() }

    /// Writes a new click id's text (``ClickID/encodedLength`` bytes) to `output`.
    @inline(__always)
    func mint(
        timestampMilliseconds: UInt64, codeReference: UInt32, random: UInt64, into output: UnsafeMutableRawPointer
    ) {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { scratch in
            let raw = scratch.baseAddress!
            ClickID.writeSignedBytes(
                timestampMilliseconds: timestampMilliseconds, codeReference: codeReference, random: random, into: raw)
            let mac = raw + 32
            tolt_hmac_sha256(
                key, raw.assumingMemoryBound(to: UInt8.self), ClickID.signedByteCount,
                mac.assumingMemoryBound(to: UInt8.self))
            (raw + ClickID.signedByteCount).copyMemory(from: mac, byteCount: ClickID.tagByteCount)
            ClickID.encode(UnsafeRawBufferPointer(start: raw, count: ClickID.byteCount), into: output)
        }
    }

    /// The HMAC-SHA256 of `message` under the click signing key, or `nil` while the signer has no key: the root from
    /// which keys for other purposes are derived (the dashboard's sessions), so every node of a store derives the same.
    func code(for message: [UInt8]) -> [UInt8]? {
        guard hasKey else { return nil }
        var mac = [UInt8](repeating: 0, count: 32)
        message.withUnsafeBufferPointer { message in
            mac.withUnsafeMutableBufferPointer {
                tolt_hmac_sha256(key, message.baseAddress, message.count, $0.baseAddress)
            }
        }
        return mac
    }

    /// Whether a parsed click id carries a valid tag (compared in constant time).
    func verify(_ id: ClickID) -> Bool {
        guard hasKey else { return false }
        let signed = id.signedBytes
        var mac = [UInt8](repeating: 0, count: 32)
        signed.withUnsafeBufferPointer { message in
            mac.withUnsafeMutableBufferPointer {
                tolt_hmac_sha256(key, message.baseAddress, message.count, $0.baseAddress)
            }
        }
        var difference: UInt8 = 0
        for index in 0..<ClickID.tagByteCount { difference |= mac[index] ^ id.tag[index] }
        return id.tag.count == ClickID.tagByteCount && difference == 0
    }
}

/// Random 64-bit values for click ids, drawn from OpenSSL's generator 4 KiB at a time. One per loop thread.
final class RandomPool {
    private var buffer = [UInt64](repeating: 0, count: 512)
    private var next = 512

    /// Fills the pool at once, so the first click does not pay for OpenSSL loading its configuration and
    /// seeding this thread's generator (about 2 ms).
    init() { refill() }

    @inline(__always)
    func nextValue() -> UInt64 {
        if next == buffer.count { refill() }
        defer { next += 1 }
        return buffer[next]
    }

    private func refill() {
        let ok = buffer.withUnsafeMutableBytes {
            tolt_random_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32($0.count))
        }
        if ok != 1 {
            // OpenSSL's generator failing is a broken system; the system generator is the safe fallback.
            var generator = SystemRandomNumberGenerator()
            for index in buffer.indices { buffer[index] = generator.next() }
        }
        next = 0
    }
}
