public import ClickWheelCore
import Foundation
public import GRDB

/// MPD's stickers on songs (`sticker get|set|delete|list|find song …`), kept in the library database.
///
/// Names the device keeps itself are read from `play_state` under the names MPD clients already use
/// (jcorporation's mpd-stickers list, read by myMPD): `rating` (0…10, two per star), `playCount`,
/// `skipCount`, `lastPlayed`, `lastSkipped` (Unix seconds). A client may set or delete `rating` (the
/// device's own rating changes); the counts are the device's and refuse changes. Every other name is
/// stored as given in `stickers`. Both follow the track id, so they survive rescans and moves.
///
/// As in MPD 0.23: a sticker whose value is empty reads as missing (`get`) but is listed; `find`
/// compares values as text (`=`, `<`, `>`: "10" < "8").
///
/// Thread rules: any thread (GRDB serialises writes).
public struct StickerStore: Sendable {
    let db: any DatabaseWriter

    public init(_ db: any DatabaseWriter) { self.db = db }

    /// The stickers of the database `playlists` keeps its playlists in (the library's).
    public init(sameDatabaseAs playlists: StoredPlaylists) { self.db = playlists.db }

    public enum Failure: Error, Hashable, Sendable {
        /// The song has no sticker of that name (MPD: ACK 50 "no such sticker").
        case noSuchSticker
        /// A name the device counts itself (MPD clients may read it, not change it).
        case readOnly(String)
        /// A `rating` value that is not a number from 0 to 10.
        case badRating
    }

    /// How `find` compares values (MPD 0.23: as text).
    public enum Comparison: String, Sendable {
        case equal = "=", less = "<", greater = ">"
    }

    /// The device's own stickers: their names and the `play_state` expression giving their value
    /// (NULL when the song has none).
    static let deviceColumns: [(name: String, sql: String)] = [
        ("lastPlayed", "p.last_played"),
        ("lastSkipped", "p.last_skipped"),
        ("playCount", "nullif(p.play_count, 0)"),
        ("rating", "nullif(p.rating, 0)"),
        ("skipCount", "nullif(p.skip_count, 0)"),
    ]

    static func deviceColumn(_ name: String) -> String? {
        deviceColumns.first { $0.name == name }?.sql
    }

    /// The names the device keeps (read-only but for `rating`).
    public static var deviceNames: [String] { deviceColumns.map(\.name) }

    /// The value of sticker `name` on `track`; throws `noSuchSticker` when it has none (or an empty one).
    public func get(_ track: TrackID, _ name: String) throws -> String {
        let value = try db.read { db in
            if let column = Self.deviceColumn(name) {
                return try String.fetchOne(
                    db, sql: "SELECT CAST(\(column) AS TEXT) FROM play_state p WHERE p.track_id = ?", arguments: [track])
            }
            return try String.fetchOne(
                db, sql: "SELECT value FROM stickers WHERE track_id = ? AND name = ?", arguments: [track, name])
        }
        guard let value, !value.isEmpty else { throw Failure.noSuchSticker }
        return value
    }

    /// Every sticker of `track`, by name (byte order, as MPD lists them).
    public func list(_ track: TrackID) throws -> [(name: String, value: String)] {
        try db.read { db in
            var all = try Row.fetchAll(
                db, sql: "SELECT name, value FROM stickers WHERE track_id = ?", arguments: [track]
            ).map { (name: $0[0] as String, value: $0[1] as String) }
            if let row = try Row.fetchOne(
                db, sql: "SELECT \(Self.deviceColumns.map { "CAST(\($0.sql) AS TEXT)" }.joined(separator: ", ")) "
                    + "FROM play_state p WHERE p.track_id = ?", arguments: [track])
            {
                for (i, column) in Self.deviceColumns.enumerated() {
                    if let value = row[i] as String? { all.append((column.name, value)) }
                }
            }
            return all.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
    }

    /// Sets sticker `name` of `track`. `rating` sets the device's rating (an empty value clears it);
    /// the counts refuse. Returns true when the device's rating changed (menus and Now Playing show it).
    @discardableResult
    public func set(_ track: TrackID, _ name: String, _ value: String) throws -> Bool {
        if name == "rating" {
            if value.isEmpty { return try deleteRating(track) }
            guard let rating = Rating.parse(value) else { throw Failure.badRating }
            try PlayStateStore(db).rate(track, rating: rating)
            return true
        }
        if Self.deviceColumn(name) != nil { throw Failure.readOnly(name) }
        try db.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO stickers (track_id, name, value) VALUES (?, ?, ?)",
                arguments: [track, name, value])
        }
        return false
    }

    /// Deletes sticker `name` of `track`, or (nil) all it has that a client may delete: the stored
    /// ones and the rating (the counts stay). Throws `noSuchSticker` when there was nothing to delete.
    /// Returns true when the device's rating changed.
    @discardableResult
    public func delete(_ track: TrackID, _ name: String?) throws -> Bool {
        if let name, name == "rating" {
            guard try deleteRating(track) else { throw Failure.noSuchSticker }
            return true
        }
        if let name, Self.deviceColumn(name) != nil { throw Failure.readOnly(name) }
        let (deleted, ratingChanged) = try db.write { db -> (Bool, Bool) in
            if let name {
                try db.execute(sql: "DELETE FROM stickers WHERE track_id = ? AND name = ?", arguments: [track, name])
                return (db.changesCount > 0, false)
            }
            try db.execute(sql: "DELETE FROM stickers WHERE track_id = ?", arguments: [track])
            let stickers = db.changesCount > 0
            try db.execute(
                sql: "UPDATE play_state SET rating = NULL WHERE track_id = ? AND rating > 0", arguments: [track])
            let rating = db.changesCount > 0
            return (stickers || rating, rating)
        }
        guard deleted else { throw Failure.noSuchSticker }
        return ratingChanged
    }

    /// The songs under folder `directory` ("" for all) carrying sticker `name`, in path order, with
    /// its value; with `comparison`, only those whose value compares so to `value` (as text).
    public func find(
        under directory: String, _ name: String, _ comparison: Comparison? = nil, _ value: String = ""
    ) throws -> [(path: String, value: String)] {
        var arguments: StatementArguments = []
        var sql: String
        if let column = Self.deviceColumn(name) {
            // CROSS JOIN keeps play_state the outer loop: SQLite otherwise walks every track in path
            // order and looks each up in play_state, which holds only the played and rated ones.
            sql = """
                SELECT t.path, CAST(\(column) AS TEXT) AS v FROM play_state p CROSS JOIN tracks t ON t.id = p.track_id
                WHERE \(column) IS NOT NULL
                """
        } else {
            sql = "SELECT t.path, s.value AS v FROM stickers s JOIN tracks t ON t.id = s.track_id WHERE s.name = ?"
            arguments += [name]
        }
        if !directory.isEmpty {
            // The paths below `directory/`, by their bytes: `/` + 1 is `0`.
            sql += " AND t.path >= ? AND t.path < ?"
            arguments += [directory + "/", directory + "0"]
        }
        if let comparison {
            sql += " AND v \(comparison.rawValue) ?"
            arguments += [value]
        }
        sql += " ORDER BY t.path"
        return try db.read { db in
            // Kept prepared (a few shapes of query): compiling one cost more than running it.
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { (path: $0[0], value: $0[1]) }
        }
    }

    private func deleteRating(_ track: TrackID) throws -> Bool {
        try db.write { db in
            try db.execute(
                sql: "UPDATE play_state SET rating = NULL WHERE track_id = ? AND rating > 0", arguments: [track])
            return db.changesCount > 0
        }
    }
}
