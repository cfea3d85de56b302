/// Prefixed, unguessable ids for the objects the admin creates: `org_`, `prg_`, `part_`, `cust_`, `comm_`.
public enum EntityID {
    static let alphabet: [UInt8] = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// A new id: the prefix, then 22 random base-36 characters (over 113 bits).
    ///
    ///     EntityID.make(prefix: "cust_")  // "cust_k3l0…"
    public static func make<R: RandomNumberGenerator>(prefix: String, using generator: inout R) -> String {
        var bytes = Array(prefix.utf8)
        for _ in 0..<22 { bytes.append(alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new id from the system's random source.
    public static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(prefix: prefix, using: &generator)
    }
}
