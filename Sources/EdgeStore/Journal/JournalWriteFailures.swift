/// What the writers of a journal could not write, between two ``ClickJournal/takeFailures()``.
struct JournalWriteFailures: CustomStringConvertible {
    /// Clicks refused because they could not be written, or were not tried while their writer waited to retry.
    var refusedClicks = 0
    /// Attempts that failed: a segment that could not be created, or a write that did not complete.
    var failedAttempts = 0
    var lastError: String?

    var description: String {
        "could not journal \(refusedClicks) click\(refusedClicks == 1 ? "" : "s") (their taps were refused); "
            + "\(failedAttempts) failed attempt\(failedAttempts == 1 ? "" : "s")"
            + (lastError.map { ", the last: \($0)" } ?? "")
    }
}
