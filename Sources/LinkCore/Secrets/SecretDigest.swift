/// How secrets are kept at rest: as `sha256:` and the hex SHA-256 of the secret, never the secret itself. A secret
/// key or webhook authorization presented with a request is hashed the same way and looked up or compared by its
/// digest. The keys are random and long (a generated secret key has 120 bits), so an unsalted hash is enough: a
/// stolen database does not give anyone a key that the API accepts.
///
///     SecretDigest.of("sk_demo")  // "sha256:1f2c…"
public enum SecretDigest {
    /// The prefix that marks a stored value as a digest.
    public static let prefix = "sha256:"

    /// The digest of `secret`.
    public static func of(_ secret: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = Array(prefix.utf8)
        for byte in SHA256.hash(Array(secret.utf8)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether a stored value is already a digest (stores written before digests hold plain values until their
    /// migration).
    public static func isDigest(_ value: String) -> Bool {
        value.utf8.count == prefix.utf8.count + 64 && value.hasPrefix(prefix)
    }

    /// Whether `secret` is the one whose digest is `digest`, in time that depends on neither's content.
    public static func matches(_ secret: String, digest: String) -> Bool {
        let presented = Array(of(secret).utf8)
        let stored = Array(digest.utf8)
        guard presented.count == stored.count else { return false }
        var difference: UInt8 = 0
        for index in stored.indices { difference |= presented[index] ^ stored[index] }
        return difference == 0
    }
}
