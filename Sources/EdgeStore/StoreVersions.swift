/// What of this build's store formats `tolt-edge --version` names: the schema steps it knows on each store, the
/// oldest a store may be at for builds before it to still run on it, and the journal's format. These, not a release
/// number, decide what an upgrade or a rollback can do (README, Upgrading).
public enum StoreVersions {
    /// One line each: `SQLite store: schema 11 (builds knowing 9 steps or more run on it)`, PostgreSQL's, then
    /// `click journal: format 2`.
    public static var summary: String {
        """
        SQLite store: schema \(SQLiteMigrations.steps.count) (builds knowing \(SQLiteMigrations.compatibleVersion) \
        steps or more run on it)
        PostgreSQL store: schema \(PostgresMigrations.steps.count) (builds knowing \
        \(PostgresMigrations.compatibleVersion) steps or more run on it)
        click journal: format \(JournalFrame.formatVersion)
        """
    }
}
