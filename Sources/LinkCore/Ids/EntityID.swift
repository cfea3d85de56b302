/// Prefixed, unguessable ids for the objects the admin creates: `org_`, `prg_`, `part_`, `cust_`, `comm_`.
public enum EntityID {
    /// Crockford's base 32 in lower case: no i, l, o or u to misread.
    static let alphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// A new id: the prefix, then 24 random base-32 characters (120 bits), from two draws of the generator
    /// (one system call each for the system generator, where drawing a character at a time took 24).
    ///
    ///     EntityID.make(prefix: "cust_")  // "cust_k3h0…"
    public static func make<R: RandomNumberGenerator>(prefix: String, using generator: inout R) -> String {
        var bytes = Array(prefix.utf8)
        for var bits in [generator.next() as UInt64, generator.next() as UInt64] {
            for _ in 0..<12 {
                bytes.append(alphabet[Int(bits & 31)])
                bits >>= 5
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new id from the system's random source.
    public static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(prefix: prefix, using: &generator)
    }
}
