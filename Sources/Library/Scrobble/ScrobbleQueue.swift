public import ClickWheelCore
public import GRDB

/// The listens waiting for the scrobble log, in the library database (`scrobble_queue`, migration 0005).
///
/// A listen is written here before anything else, so a kill -9 or a power cut loses none: these
/// writes run with `PRAGMA synchronous = FULL` (the library's connection otherwise uses NORMAL, which
/// may lose the last transactions on a power cut), so a committed listen is on disk.
///
/// Thread rules: any thread (GRDB serialises writes); `ScrobbleLog` calls `add` on the engine's queue
/// and the rest on its own queue.
public struct ScrobbleQueue: Sendable {
    let db: any DatabaseWriter

    public init(_ db: any DatabaseWriter) { self.db = db }

    /// A queued listen: its line's fields (the start time once known), and where it stands.
    public struct Entry: Hashable, Sendable {
        public var id: Int64
        public var bootID: String
        public var startBootMS: Int64
        /// Its line; `startUnix` is 0 until the start time is known (`isResolved`).
        public var scrobble: Scrobble
        public var isResolved: Bool
        /// The log's size before the append that holds its line, when that append began.
        public var logOffset: Int64?
    }

    /// Queues a listen of `track` with its tags as they are now. Returns false (and queues nothing)
    /// when the track is not in the library (deleted meanwhile).
    @discardableResult
    public func add(
        _ track: TrackID, rating: Scrobble.Rating, bootID: String, startBootMS: Int64, startUnix: Int64?
    ) throws -> Bool {
        try durably { db in
            try db.execute(
                sql: """
                    INSERT INTO scrobble_queue
                        (artist, album, title, track_number, duration_s, rating, musicbrainz_trackid,
                         boot_id, start_boot_ms, start_unix)
                    SELECT artist, album, title, track_number, (duration_ms + 500) / 1000, ?, musicbrainz_trackid,
                           ?, ?, ?
                    FROM tracks WHERE id = ?
                    """, arguments: [rating.rawValue, bootID, startBootMS, startUnix, track])
            return db.changesCount > 0
        }
    }

    /// Every queued listen, oldest first.
    public func all() throws -> [Entry] {
        try db.read { db in try Row.fetchAll(db, sql: "SELECT * FROM scrobble_queue ORDER BY id").map(Self.entry) }
    }

    /// Gives each listen without a start time one worked back from the boot clock: now − (boot clock now
    /// − boot clock at its start), when it was made in this boot. Deletes those made in another boot,
    /// whose start cannot be known, and returns how many.
    public func resolve(bootID: String, bootNowMS: Int64, unixNowMS: Int64) throws -> Int {
        try durably { db in
            try db.execute(
                sql: """
                    UPDATE scrobble_queue SET start_unix = (? - (? - start_boot_ms)) / 1000
                    WHERE start_unix IS NULL AND boot_id = ?
                    """, arguments: [unixNowMS, bootNowMS, bootID])
            try db.execute(sql: "DELETE FROM scrobble_queue WHERE start_unix IS NULL")
            return db.changesCount
        }
    }

    /// Up to `limit` listens whose start time is known and whose line is not appended yet, oldest first.
    public func nextBatch(limit: Int) throws -> [Entry] {
        try db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM scrobble_queue WHERE start_unix IS NOT NULL AND log_offset IS NULL
                    ORDER BY id LIMIT ?
                    """, arguments: [limit]
            ).map(Self.entry)
        }
    }

    /// The listens of an append that began and was not confirmed (the service stopped between the
    /// append and the delete), oldest first: empty when there is none.
    public func unconfirmed() throws -> [Entry] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM scrobble_queue WHERE log_offset IS NOT NULL ORDER BY id")
                .map(Self.entry)
        }
    }

    /// Notes that the lines of `ids` are about to be appended at `offset` (the log's size before).
    public func markAppending(_ ids: [Int64], at offset: Int64) throws {
        try durably { db in
            try db.execute(
                sql: "UPDATE scrobble_queue SET log_offset = ? WHERE id IN \(Self.placeholders(ids))",
                arguments: StatementArguments([offset] + ids))
        }
    }

    /// Forgets that the lines of `ids` were being appended (they will be appended again).
    public func unmark(_ ids: [Int64]) throws {
        try durably { db in
            try db.execute(
                sql: "UPDATE scrobble_queue SET log_offset = NULL WHERE id IN \(Self.placeholders(ids))",
                arguments: StatementArguments(ids))
        }
    }

    /// Deletes written listens.
    public func delete(_ ids: [Int64]) throws {
        try durably { db in
            try db.execute(
                sql: "DELETE FROM scrobble_queue WHERE id IN \(Self.placeholders(ids))",
                arguments: StatementArguments(ids))
        }
    }

    /// How many listens wait.
    public func count() throws -> Int {
        try db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM scrobble_queue") ?? 0 }
    }

    /// `body` in a transaction committed with `synchronous = FULL` (on disk when it returns), the
    /// connection's own setting restored after.
    private func durably<T>(_ body: (Database) throws -> T) throws -> T {
        try db.writeWithoutTransaction { db in
            let before = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = \(before)") }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// `(?,?,…)`, one `?` per id.
    private static func placeholders(_ ids: [Int64]) -> String {
        "(" + ids.map { _ in "?" }.joined(separator: ",") + ")"
    }

    private static func entry(_ row: Row) -> Entry {
        let start: Int64? = row["start_unix"]
        let rating = Scrobble.Rating(rawValue: row["rating"]) ?? .listened
        return Entry(
            id: row["id"], bootID: row["boot_id"], startBootMS: row["start_boot_ms"],
            scrobble: Scrobble(
                artist: row["artist"], album: row["album"], title: row["title"], trackNumber: row["track_number"],
                durationSeconds: row["duration_s"], rating: rating, startUnix: start ?? 0,
                musicBrainzTrackID: row["musicbrainz_trackid"]),
            isResolved: start != nil, logOffset: row["log_offset"])
    }
}
