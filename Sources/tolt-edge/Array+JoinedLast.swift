extension Array where Element == String {
    /// The elements joined by `separator`, the last two by `last`: `a, b or c`.
    func joined(separator: String, last: String) -> String {
        count < 2 ? joined() : dropLast().joined(separator: separator) + last + self[count - 1]
    }
}
