import EdgeStore
import TestSupport

extension StoreFixture {
    /// A journal on the fixture's data directory and the writer of its loop 0, as a one-loop server opens them
    /// (segments of `segmentSize` bytes: the server's 64 MiB unless a test wants several segments). The journal
    /// tests' common start; one that needs two loops, a marker, a bound, or a journal reopened after a crash
    /// (``ClickJournal/reopened(dataDirectory:segmentSize:maximumBytes:)``) says so itself.
    func openJournal(segmentSize: Int = 64 << 20) throws -> (journal: ClickJournal, writer: JournalWriter) {
        let journal = try ClickJournal(dataDirectory: directory, segmentSize: segmentSize)
        return (journal, journal.makeWriter(stream: 0))
    }

    /// ``openJournal()`` and an ingester into another connection to the store, as the server's ingest thread has
    /// (no repeat window, no log): for a test that makes the writes and the ingest passes one by one.
    func openJournalAndIngester() throws -> (journal: ClickJournal, writer: JournalWriter, ingester: ClickIngester) {
        let (journal, writer) = try openJournal()
        return (journal, writer, ClickIngester(journal: journal, store: try reopen()))
    }
}
