import EdgeStore
import LinkCore

/// `tolt-edge prune`: deletes old clicks, for a retention period.
enum PruneCommand {
    static let usage = """
        usage: tolt-edge prune --before DATE [--data DIR | --store URL]

        Deletes every click created before DATE, of every organization, and prints how many. DATE is a day
        (2026-06-01, midnight UTC) or an RFC 3339 time (2026-06-01T12:00:00+02:00), not after now. Clicks are deleted in
        batches of \(batchSize), each its own short transaction, so a running server keeps ingesting meanwhile.
        Customers keep their click_id.

        \(DataDirectory.storeHelp)

        """

    /// Clicks one transaction deletes: small enough that the ingester waits for the write lock a few milliseconds
    /// at most.
    static let batchSize = 1000

    static func run(_ arguments: [String]) -> Int32 {
        Output.command(usage: usage) {
            let options = try CommandLineOptions(arguments, valued: ["data", "store", "before"], switches: ["help"])
            if options.flags.contains("help") {
                Output.out(usage)
                return 0
            }
            guard let text = options.value("before") else {
                throw CommandLineOptions.UsageError(message: "prune needs --before DATE")
            }
            guard let before = Timestamp.parseDateOrTime(text) else {
                throw CommandLineOptions.UsageError(
                    message: "--before \(text): not a date (YYYY-MM-DD) or an RFC 3339 time (2026-06-01T00:00:00Z)")
            }
            // A mistyped year (2062 for 2026) deleted every click without a word. No click is created in the future,
            // so a later time only ever means "all of them": that is asked for with now's time, written out.
            let now = Clock.epochMilliseconds()
            guard before <= now else {
                throw CommandLineOptions.UsageError(
                    message: "--before \(text) is in the future, which would delete every click; to delete every "
                        + "click so far, give the time now (--before \(Timestamp.format(now)))")
            }
            let store = try DataDirectory.openStore(options)
            var deleted = 0
            while true {
                let count = try store.deleteClicks(createdBefore: before, limit: batchSize)
                deleted += count
                if count < batchSize { break }
            }
            let noun = deleted == 1 ? "click" : "clicks"
            Output.out("deleted \(deleted) \(noun) created before \(Timestamp.format(before))\n")
            return 0
        }
    }
}
