public import GRDB
import ClickWheelCore
import Foundation

/// Playlists made on the device or by MPD clients (`save`, `playlistadd`, …), kept in the library
/// database beside the indexed `.m3u` files (rows with no path), so they survive power cuts with the
/// rest of the state and show in the Playlists menu. The music folder's `.m3u` files are the user's
/// and stay read-only here.
///
/// Thread rules: any thread (GRDB serialises writes); every change is one transaction.
public struct StoredPlaylists: Sendable {
    let db: any DatabaseWriter

    public init(_ db: any DatabaseWriter) { self.db = db }

    public enum Failure: Error, Hashable, Sendable {
        /// Empty, or holds a `/` (MPD: ACK 2 "Bad playlist name").
        case badName
        /// No playlist has that name (MPD: ACK 50 "No such playlist").
        case noSuchPlaylist
        /// `save` over an existing name (MPD: ACK 56 "Playlist already exists").
        case exists
        /// A position past the end (MPD: ACK 2 "Bad song index").
        case badIndex
        /// An `.m3u` file of the music folder (not changed by ClickWheel).
        case readOnly
        /// The name of one of the device's smart playlists (computed, never stored).
        case smartPlaylist
        /// An addition past `maxLength` (MPD: ACK 51 "Stored playlist is too large").
        case tooLarge
    }

    /// The longest playlist MPD clients may grow with `playlistadd`: MPD's `max_playlist_length`, the
    /// queue's limit too. Without it one client could grow a list without end: every addition rewrites
    /// the whole list, and every answer about it grows, the service's memory with them (the soak's
    /// figures: contrib/soak/README.md, Found). `save` copies the queue, limited already for
    /// clients; a longer queue built on the wheel is saved whole.
    public static let maxLength = PlayQueue.clientLimit

    /// Names and change times (Unix seconds), in creation order.
    public func all() throws -> [(name: String, modified: Int64)] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT name, mtime_ns FROM playlists WHERE path IS NULL AND is_on_the_go = 0 ORDER BY id")
                .map { (name: $0[0], modified: ($0[1] as Int64? ?? 0) / 1_000_000_000) }
        }
    }

    /// The track ids of playlist `name` (entries whose track is gone left out), nil when there is none.
    public func tracks(_ name: String) throws -> [Int64]? {
        try db.read { db in
            guard let id = try Self.id(of: name, db) else { return nil }
            return try Int64.fetchAll(db, sql: """
                SELECT track_id FROM playlist_entries WHERE playlist_id = ? AND track_id IS NOT NULL ORDER BY position
                """, arguments: [id])
        }
    }

    /// `save`: a new playlist holding `tracks`.
    public func create(_ name: String, tracks: [Int64]) throws {
        try Self.check(name)
        try db.write { db in
            guard try Self.id(of: name, db) == nil else { throw Failure.exists }
            try Self.ensureWritable(name, db)
            let id = try Self.insert(name, db)
            try Self.write(tracks, into: id, db)
        }
    }

    /// `playlistadd`: appends (or inserts at `position`), creating the playlist when it is new. All or
    /// nothing: an addition that would make it longer than `maxLength` changes nothing.
    public func add(_ tracks: [Int64], to name: String, at position: Int? = nil) throws {
        try Self.check(name)
        try db.write { db in
            try Self.ensureWritable(name, db)
            let id = try Self.id(of: name, db) ?? Self.insert(name, db)
            var list = try Self.entries(id, db)
            let at = position ?? list.count
            guard at <= list.count else { throw Failure.badIndex }
            guard list.count + tracks.count <= Self.maxLength else { throw Failure.tooLarge }
            list.insert(contentsOf: tracks.map { Optional($0) }, at: at)
            try Self.write(list, into: id, db)
        }
    }

    /// `playlistclear`, `playlistdelete`, `playlistmove`: edits the entries of an existing playlist.
    public func edit(_ name: String, _ change: @Sendable (inout [Int64?]) throws(Failure) -> Void) throws {
        try db.write { db in
            try Self.ensureWritable(name, db)
            guard let id = try Self.id(of: name, db) else { throw Failure.noSuchPlaylist }
            var list = try Self.entries(id, db)
            try change(&list)
            try Self.write(list, into: id, db)
        }
    }

    public func remove(_ name: String) throws {
        try db.write { db in
            try Self.ensureWritable(name, db)
            guard let id = try Self.id(of: name, db) else { throw Failure.noSuchPlaylist }
            try db.execute(sql: "DELETE FROM playlists WHERE id = ?", arguments: [id])
        }
    }

    public func rename(_ name: String, to new: String) throws {
        try Self.check(new)
        try db.write { db in
            try Self.ensureWritable(name, db)
            guard let id = try Self.id(of: name, db) else { throw Failure.noSuchPlaylist }
            guard try Self.id(of: new, db) == nil else { throw Failure.exists }
            try db.execute(
                sql: "UPDATE playlists SET name = ?, sort_key = ?, mtime_ns = ? WHERE id = ?",
                arguments: [new, SortKey.make(new), Self.nowNS(), id])
        }
    }

    static func check(_ name: String) throws {
        guard !name.isEmpty, !name.contains("/") else { throw Failure.badName }
        if SmartPlaylist.named(name) != nil { throw Failure.smartPlaylist }
    }

    static func id(of name: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM playlists WHERE path IS NULL AND is_on_the_go = 0 AND name = ?", arguments: [name])
    }

    /// A name that is the path of one of the music folder's playlist files is not ours to change.
    static func ensureWritable(_ name: String, _ db: Database) throws {
        if SmartPlaylist.named(name) != nil { throw Failure.smartPlaylist }
        if try Int64.fetchOne(db, sql: "SELECT id FROM playlists WHERE path = ?", arguments: [name]) != nil {
            throw Failure.readOnly
        }
    }

    static func insert(_ name: String, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO playlists (path, name, sort_key, mtime_ns) VALUES (NULL, ?, ?, ?)",
            arguments: [name, SortKey.make(name), nowNS()])
        return db.lastInsertedRowID
    }

    static func entries(_ id: Int64, _ db: Database) throws -> [Int64?] {
        try Row.fetchAll(db, sql: "SELECT track_id FROM playlist_entries WHERE playlist_id = ? ORDER BY position", arguments: [id])
            .map { $0[0] as Int64? }
    }

    /// Replaces the entries; `target` keeps each track's path so a rescan can find it again. A track gone
    /// from the library since it was queued (its file deleted, the scan done) is left out: its path went with
    /// its row, and its id would break the foreign key (`save` would answer with SQLite's constraint error).
    static func write(_ tracks: [Int64?], into id: Int64, _ db: Database) throws {
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM tracks WHERE id = ?")
        let tracks = try tracks.filter { t in try t.map { try Bool.fetchOne(exists, arguments: [$0]) ?? false } ?? true }
        try db.execute(sql: "DELETE FROM playlist_entries WHERE playlist_id = ?", arguments: [id])
        let insert = try db.cachedStatement(sql: """
            INSERT INTO playlist_entries (playlist_id, position, target, track_id)
            VALUES (?, ?, coalesce((SELECT path FROM tracks WHERE id = ?), ''), ?)
            """)
        for (i, track) in tracks.enumerated() { try insert.execute(arguments: [id, i, track, track]) }
        try db.execute(sql: "UPDATE playlists SET size = ?, mtime_ns = ? WHERE id = ?", arguments: [tracks.count, nowNS(), id])
    }

    static func nowNS() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000_000) }
}
