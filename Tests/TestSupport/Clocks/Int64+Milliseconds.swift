/// Durations in the milliseconds ``WallClock`` counts, so an offset reads `-2 * .hour`.
extension Int64 {
    package static let hour: Int64 = 3_600_000
    package static let day: Int64 = 86_400_000
}
