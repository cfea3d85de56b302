import EdgeStore
import TestSupport

extension ClickJournal {
    /// A journal on a directory a journal of this process has just given up (released, or freed): what the next
    /// start of a server does, waiting out a child process's copy of the lock (``afterTheDirectoryIsFree(_:)``).
    static func reopened(dataDirectory: String, segmentSize: Int = 64 << 20, maximumBytes: Int? = nil) throws
        -> ClickJournal
    {
        try afterTheDirectoryIsFree {
            try ClickJournal(dataDirectory: dataDirectory, segmentSize: segmentSize, maximumBytes: maximumBytes)
        }
    }
}
