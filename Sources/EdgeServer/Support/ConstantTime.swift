/// Comparison of secrets in a time that depends on the expected secret's length only: not on where a guess first
/// differs, nor on the guess's length.
enum ConstantTime {
    /// Whether `given` equals `expected`.
    static func equal(given: [UInt8], expected: [UInt8]) -> Bool {
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
