import Foundation
import GRDB
import GRDBSQLite

extension Catalog {
    /// Reads the songs under `directory` ("" for all) in path order one at a time, from a database
    /// cursor, for listings written straight from the row (`listall`, `listallinfo`): the set is never
    /// in memory whole, however large the library. `song` gets each song as the database statement
    /// holds it, columns read in place (no record, no string per value); the `ListedSong` is valid only
    /// during its call. First `folders` (unless nil) gets the songs' folders as runs in path order (a
    /// folder comes again when subfolders sort between its songs), each with the newest modification
    /// time of its songs in the run (Unix seconds; "" is the music folder itself).
    ///
    /// A listing that must wait (its client reads slowly) lets go of the database while it waits: once
    /// `shouldPause` says so before a song, the read transaction ends after the songs of that path, `wait`
    /// runs with no transaction open, and a new one goes on after that path. So a stalled client never
    /// holds one of the pool's few readers (the menus and every other client need them). Everything
    /// read without a pause comes from one transaction; a listing that pauses sees changes committed
    /// meanwhile in what it has not read yet, and never lists a song twice.
    ///
    /// Thread rules: any thread but an event loop; it blocks for as long as `song` and `wait` take.
    public func forEachListedSong(
        under directory: String, folders: (([(folder: String, newest: Int64)]) throws -> Void)?,
        song: (ListedSong) throws -> Void, pausesWhen shouldPause: () -> Bool = { false }, wait: () throws -> Void = {}
    ) throws {
        try pausableRead(wait: wait) { db, after in
            let values = try Self.multiValues(db)
            let (filter, args) = Self.below(directory, after: after)
            if after == nil, let folders { try folders(try Self.folderRuns(db, filter: filter, args: args)) }
            let statement = try db.cachedStatement(
                sql: "SELECT \(ListedSong.columns) FROM tracks \(filter) ORDER BY path")
            let cursor = try Row.fetchCursor(statement, arguments: args)
            let raw = statement.sqliteStatement
            var pause = PauseBoundary()
            while try cursor.next() != nil {
                let multi = values.isEmpty ? nil : values[sqlite3_column_int64(raw, ListedSong.Column.id.rawValue)]
                let listed = ListedSong(statement: raw, multiValues: multi)
                if let path = listed.text(.path), let resume = pause.check(path, shouldPause) { return resume }
                try song(listed)
            }
            return nil
        }
    }

    /// Runs `pass` in read transactions until one reads to the end (returns nil). A pass that stops
    /// early returns the path it stopped after; `wait` runs between the transactions, and the next pass
    /// reads the songs after that path.
    private func pausableRead(wait: () throws -> Void, _ pass: (Database, _ after: String?) throws -> String?) throws {
        var after: String?
        repeat {
            let start = after
            after = try db.read { db in try pass(db, start) }
            if after != nil { try wait() }
        } while after != nil
    }

    /// For every folder under `directory` ("" for all) that holds songs directly, the newest of their
    /// modification times (Unix seconds); the key is the folder's path ("" for the music folder).
    public func folderTimes(under directory: String) throws -> [String: Int64] {
        try db.read { db in
            let (filter, args) = Self.below(directory)
            return try Self.folderTimes(db, filter: filter, args: args)
        }
    }

    /// The songs directly in `directory` ("" for the music folder), not in its subfolders, in path order.
    public func songs(directlyIn directory: String) throws -> [SongRecord] {
        try db.read { db in
            let values = try Self.multiValues(db)
            let sql = directory.isEmpty
                ? "SELECT \(Self.columns) FROM tracks WHERE instr(path, '/') = 0 ORDER BY path"
                : "SELECT \(Self.columns) FROM tracks WHERE path > ? AND path < ? AND instr(substr(path, ?), '/') = 0 ORDER BY path"
            let args: StatementArguments = directory.isEmpty
                ? [] : [directory + "/", directory + "0", directory.unicodeScalars.count + 2]
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: args).map { Self.record($0, values) }
        }
    }

    /// The WHERE clause for the songs under `directory`; with `after`, only those whose path sorts after it
    /// (a paused listing going on; `after` is itself under `directory`).
    static func below(_ directory: String, after: String? = nil) -> (String, StatementArguments) {
        switch (directory.isEmpty, after) {
        case (true, nil): ("", [])
        case (true, let after?): ("WHERE path > ?", [after])
        case (false, let after): ("WHERE path > ? AND path < ?", [after ?? directory + "/", directory + "0"])
        }
    }

    static func folderTimes(_ db: Database, filter: String, args: StatementArguments) throws -> [String: Int64] {
        var times: [String: Int64] = [:]
        for run in try folderRuns(db, filter: filter, args: args) {
            times[run.folder] = max(times[run.folder] ?? .min, run.newest)
        }
        return times
    }

    /// The songs' folders as they come in path order, with each run's newest modification time (Unix
    /// seconds): a folder comes once, unless subfolders sort between its songs (then once per run).
    static func folderRuns(_ db: Database, filter: String, args: StatementArguments) throws -> [(folder: String, newest: Int64)] {
        // One light pass over the path index first (a GROUP BY on the folder, computed in SQL with
        // rtrim, costs ten times more).
        // The path's bytes are compared in place (no string per row): only a new folder makes one.
        var runs: [(folder: String, newest: Int64)] = []
        var folder: [UInt8]?
        var newest: Int64 = 0
        func flush() {
            guard let folder else { return }
            runs.append((String(decoding: folder, as: UTF8.self), newest / 1_000_000_000))
        }
        let statement = try db.cachedStatement(sql: "SELECT path, mtime_ns FROM tracks \(filter) ORDER BY path")
        let paths = try Row.fetchCursor(statement, arguments: args)
        let raw = statement.sqliteStatement
        while try paths.next() != nil {
            let ns = sqlite3_column_int64(raw, 1)
            guard let text = sqlite3_column_text(raw, 0) else { continue }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, 0)))
            let parent = bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]
            if let current = folder, current.count == parent.count,
                current.isEmpty || current.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text, current.count) == 0 })
            {
                newest = max(newest, ns)
            } else {
                flush()
                folder = Array(parent)
                newest = ns
            }
        }
        flush()
        return runs
    }
}

/// Where a listing may stop to let go of the database (`Catalog.forEachListedSong`): after all the songs of
/// one path, since the next transaction goes on from the first path after it (a path that is not valid
/// UTF-8 is stored with U+FFFD, so two songs may share one; they go out in one transaction).
struct PauseBoundary {
    /// The path of the song read when a pause was asked for.
    private var path: [UInt8]?

    /// Before each song, with its path: the path to go on after, when the transaction should end here.
    mutating func check(_ next: UnsafeBufferPointer<UInt8>, _ shouldPause: () -> Bool) -> String? {
        if let path {
            return path.elementsEqual(next) ? nil : String(decoding: path, as: UTF8.self)
        }
        if shouldPause() { path = Array(next) }
        return nil
    }
}

/// One song of `Catalog.forEachListedSong`, read in place from the database statement: valid only
/// during the call that hands it out.
public struct ListedSong {
    /// The columns read, by position (`Column`).
    static let columns = """
        path, mtime_ns, title, artist, album, album_artist, genre, composer, date, track_number, disc_number, \
        comment, musicbrainz_trackid, sort_artist, sort_album, sort_album_artist, duration_ms, sample_rate, channels, id
        """

    public enum Column: Int32, Sendable {
        case path, modifiedNS, title, artist, album, albumArtist, genre, composer, date, trackNumber, discNumber
        case comment, musicBrainzTrackID, sortArtist, sortAlbum, sortAlbumArtist, durationMS, sampleRate, channels, id
    }

    let statement: SQLiteStatement
    /// The song's values of a multi-valued tag ("artist", "album_artist", "genre", "composer") when it
    /// has several of one (`SongRecord` reads those instead of the column).
    public let multiValues: [String: [String]]?

    /// The column's text as `String(cString:)` reads it (as `SongRecord` does): SQLite's UTF-8 bytes up
    /// to the first NUL (the terminator, unless the value holds one), nil when NULL.
    @inline(__always)
    public func text(_ column: Column) -> UnsafeBufferPointer<UInt8>? {
        // NULL for a NULL value only (an empty text is an empty C string), barring out-of-memory.
        // (`strlen` costs less than asking SQLite for the length: sqlite3_column_value with
        // sqlite3_value_text and sqlite3_value_bytes made reading a listing's texts an eighth slower.)
        guard let start = sqlite3_column_text(statement, column.rawValue) else { return nil }
        return UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)))
    }

    /// The column's integer, nil when NULL.
    @inline(__always)
    public func integer(_ column: Column) -> Int64? {
        let value = sqlite3_column_value(statement, column.rawValue)
        guard sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        return sqlite3_value_int64(value)
    }

    /// The column's integer, 0 when NULL (`integer(column) ?? 0`, in one call into SQLite instead of three).
    @inline(__always)
    public func number(_ column: Column) -> Int64 {
        sqlite3_column_int64(statement, column.rawValue)
    }
}
