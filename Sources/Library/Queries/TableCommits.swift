import GRDB

/// Tells when a committed transaction wrote one of some tables, whoever wrote it in this process (every
/// write goes through the one database writer): what the control server keeps in memory of those
/// tables is then read again. Tables `WITHOUT ROWID` cannot be watched (SQLite reports no row changes
/// of theirs).
///
/// Thread rules: `changed` runs on the writer's queue, at the commit, before the writing call returns;
/// it must be quick and must not touch the database.
public final class TableCommits: Sendable {
    private let observer: Observer

    /// Starts watching `tables` through `playlists`' database writer (the library's). The watch lasts
    /// as long as this object.
    public init(_ playlists: StoredPlaylists, tables: Set<String>, changed: @escaping @Sendable () -> Void) {
        observer = Observer(tables: tables, changed: changed)
        playlists.db.add(transactionObserver: observer)
    }

    /// `@unchecked Sendable`: GRDB calls it on the writer's queue only, one transaction at a time, so
    /// `wrote` is never touched from two threads at once; the rest is immutable.
    private final class Observer: TransactionObserver, @unchecked Sendable {
        let tables: Set<String>
        let changed: @Sendable () -> Void
        /// The transaction under way wrote a watched table.
        var wrote = false

        init(tables: Set<String>, changed: @escaping @Sendable () -> Void) {
            self.tables = tables
            self.changed = changed
        }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { tables.contains(eventKind.tableName) }
        func databaseDidChange() { wrote = true }
        func databaseDidChange(with event: DatabaseEvent) { wrote = true }

        func databaseDidCommit(_ db: Database) {
            if wrote { changed() }
            wrote = false
        }

        func databaseDidRollback(_ db: Database) { wrote = false }
    }
}
