internal import COpenSSL

/// HMAC-SHA256 of any message under one key, with OpenSSL's low-level SHA-256 and precomputed inner and outer
/// states (the same schedule ``ClickSigner`` uses), for values the server signs and later checks: the dashboard's
/// session cookies and CSRF tokens.
///
/// `@unchecked Sendable`: the prepared key is written once in `init` and only read afterwards (the HMAC copies the
/// prepared states before updating them).
final class MessageAuthenticator: @unchecked Sendable {
    private let key: UnsafeMutablePointer<tolt_hmac_key>

    init(key secret: [UInt8]) {
        key = .allocate(capacity: 1)
        key.initialize(to: tolt_hmac_key())
        secret.withUnsafeBufferPointer { tolt_hmac_key_init(key, $0.baseAddress, $0.count) }
    }

    deinit { key.deallocate() }

    /// The 32-byte HMAC-SHA256 of `message`.
    func code(for message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        message.withUnsafeBufferPointer { message in
            mac.withUnsafeMutableBufferPointer {
                tolt_hmac_sha256(key, message.baseAddress, message.count, $0.baseAddress)
            }
        }
        return mac
    }

    /// The HMAC of `message` in lower-case hex (64 characters).
    func hexCode(for message: String) -> String {
        Self.hex(code(for: Array(message.utf8)))
    }

    /// Whether two texts are equal, in time that depends on their lengths only.
    static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let left = Array(left.utf8)
        let right = Array(right.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Random bytes from OpenSSL's generator (the system's when it fails), in lower-case hex.
    static func randomHex(byteCount: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let ok = bytes.withUnsafeMutableBufferPointer { tolt_random_bytes($0.baseAddress, Int32($0.count)) }
        if ok != 1 {
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return hex(bytes)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
