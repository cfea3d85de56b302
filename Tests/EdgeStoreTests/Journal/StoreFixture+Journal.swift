import EdgeStore
import TestSupport

extension StoreFixture {
    /// A journal on the fixture's data directory and the writer of its loop 0, as a one-loop server opens them.
    /// The journal tests' common start; one that needs two loops, another segment size or marker, or a journal
    /// reopened after a crash (``ClickJournal/reopened(dataDirectory:segmentSize:maximumBytes:)``) says so itself.
    func openJournal() throws -> (journal: ClickJournal, writer: JournalWriter) {
        let journal = try ClickJournal(dataDirectory: directory)
        return (journal, journal.makeWriter(stream: 0))
    }

    /// ``openJournal()`` and an ingester into another connection to the store, as the server's ingest thread has
    /// (no repeat window, no log): for a test that makes the writes and the ingest passes one by one.
    func openJournalAndIngester() throws -> (journal: ClickJournal, writer: JournalWriter, ingester: ClickIngester) {
        let (journal, writer) = try openJournal()
        return (journal, writer, ClickIngester(journal: journal, store: try reopen()))
    }
}
