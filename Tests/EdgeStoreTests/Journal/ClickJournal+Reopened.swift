import EdgeStore
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension ClickJournal {
    /// A journal on a directory a journal of this process has just given up (released, or freed): what the next
    /// start of a server does. The directory's lock is its open file's, and a child process another test forks at
    /// that moment holds a copy of every descriptor from its fork to its exec, the lock's too, so the directory can
    /// look taken for that moment; this waits it out. A lock never given up still fails, after 5 s, and any other
    /// error at once.
    static func reopened(dataDirectory: String, segmentSize: Int = 64 << 20, maximumBytes: Int? = nil) throws
        -> ClickJournal
    {
        let deadline = TestClock.now() + 5
        while true {
            do {
                return try ClickJournal(
                    dataDirectory: dataDirectory, segmentSize: segmentSize, maximumBytes: maximumBytes)
            } catch let error as StoreError where "\(error)".contains("is in use") && TestClock.now() < deadline {
                usleep(10_000)
            }
        }
    }
}
