public import ClickWheelCore
public import GRDB
import GRDBSQLite

/// One song as the MPD protocol shows it: path, tags (all values), format and length.
public struct SongRecord: Sendable, Hashable {
    public var id: Int64
    /// Path relative to the music folder.
    public var path: String
    /// Modification time, Unix seconds.
    public var modified: Int64
    public var title: String
    public var artists: [String]
    public var album: String
    public var albumArtists: [String]
    public var genres: [String]
    public var composers: [String]
    public var date: String?
    public var trackNumber: Int?
    public var discNumber: Int?
    public var comment: String?
    public var musicBrainzTrackID: String?
    public var sortArtist: String?
    public var sortAlbum: String?
    public var sortAlbumArtist: String?
    public var durationMS: Int
    public var samples: Int64
    public var sampleRate: Int
    public var channels: Int
    public var bitrate: Int
    /// MPD's sample format field: "16", "24", "f" (`Format:`, `audio:`).
    public var sampleFormat: String = "16"
}

/// Whole-library reads for the control server: songs by folder, playlists, counts. Unlike the menus'
/// paged lists these return whole sets, as MPD's protocol does.
///
/// Thread rules: any thread; each call is one short read.
public struct Catalog: Sendable {
    let db: any DatabaseReader

    public init(_ db: any DatabaseReader) { self.db = db }

    /// The track ids of a smart playlist, in its order (computed now).
    public func smartPlaylist(_ playlist: SmartPlaylist) throws -> [Int64] {
        try LibraryStore(db).trackIDs(of: .smart(playlist))
    }

    /// Songs whose path lies under `directory` ("" for all), in path order; podcasts included.
    public func songs(under directory: String) throws -> [SongRecord] {
        try db.read { db in
            let values = try Self.multiValues(db)
            let sql = directory.isEmpty
                ? "SELECT \(Self.columns) FROM tracks ORDER BY path"
                : "SELECT \(Self.columns) FROM tracks WHERE path > ? AND path < ? ORDER BY path"
            let args: StatementArguments = directory.isEmpty ? [] : [directory + "/", directory + "0"]
            return try Self.records(db, sql: sql, arguments: args, values)
        }
    }

    /// The songs with these ids, in the given order (unknown ids are left out).
    public func songs(ids: [Int64]) throws -> [SongRecord] {
        guard !ids.isEmpty else { return [] }
        return try db.read { db in
            var byID: [Int64: SongRecord] = [:]
            for chunk in stride(from: 0, to: ids.count, by: 500) {
                let part = Array(Set(ids[chunk..<min(ids.count, chunk + 500)]))
                let marks = Array(repeating: "?", count: part.count).joined(separator: ",")
                // Multi-valued tags of just these songs (a status or currentsong reads one).
                var values: [Int64: [String: [String]]] = [:]
                for row in try Row.fetchAll(db, sql: """
                    SELECT track_id, field, value FROM track_values WHERE track_id IN (\(marks)) ORDER BY track_id, field, position
                    """, arguments: StatementArguments(part))
                {
                    values[row[0], default: [:]][row[1], default: []].append(row[2])
                }
                let sql = "SELECT \(Self.columns) FROM tracks WHERE id IN (\(marks))"
                for r in try Self.records(db, sql: sql, arguments: StatementArguments(part), values, cached: false) {
                    byID[r.id] = r
                }
            }
            return ids.compactMap { byID[$0] }
        }
    }

    /// The stored playlists and the music folder's playlist files (`allPlaylists`).
    public typealias AllPlaylists = (
        stored: [(name: String, modified: Int64)], files: [(path: String, name: String, modified: Int64)]
    )

    /// The stored playlists (as `StoredPlaylists.all` lists them) and the music folder's (as `playlists`),
    /// in one read with statements kept prepared: `lsinfo` of the music folder lists both, and two reads
    /// cost it more than the rest of its answer.
    public func allPlaylists() throws -> AllPlaylists {
        try db.read { db in
            let stored = try Row.fetchAll(db.cachedStatement(
                sql: "SELECT name, mtime_ns FROM playlists WHERE path IS NULL AND is_on_the_go = 0 ORDER BY id"
            )).map { (name: $0[0] as String, modified: ($0[1] as Int64? ?? 0) / 1_000_000_000) }
            let files = try Row.fetchAll(db.cachedStatement(
                sql: "SELECT path, name, mtime_ns FROM playlists WHERE path IS NOT NULL ORDER BY path"
            )).map { (path: $0[0] as String, name: $0[1] as String, modified: ($0[2] as Int64? ?? 0) / 1_000_000_000) }
            return (stored, files)
        }
    }

    /// The music folder's playlists: path (relative), name, modification time (Unix seconds).
    public func playlists() throws -> [(path: String, name: String, modified: Int64)] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT path, name, mtime_ns FROM playlists WHERE path IS NOT NULL ORDER BY path").map {
                (path: $0[0], name: $0[1], modified: ($0[2] as Int64? ?? 0) / 1_000_000_000)
            }
        }
    }

    /// The resolved entries of the playlist at `path` (missing files left out), as track ids.
    public func playlistTracks(path: String) throws -> [Int64]? {
        try db.read { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM playlists WHERE path = ?", arguments: [path]) else {
                return nil
            }
            return try Int64.fetchAll(db, sql: """
                SELECT track_id FROM playlist_entries WHERE playlist_id = ? AND track_id IS NOT NULL ORDER BY position
                """, arguments: [id])
        }
    }

    /// What `stats` tells of the library.
    public typealias Statistics = (artists: Int, albums: Int, songs: Int, playtimeSeconds: Int, updated: Int64)

    /// MPD's `stats` counts: distinct Artist and Album values, songs, total seconds, last change.
    public func statistics() throws -> Statistics {
        try db.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM (
                            SELECT artist FROM tracks t WHERE NOT EXISTS
                                (SELECT 1 FROM track_values v WHERE v.track_id = t.id AND v.field = 'artist')
                            UNION SELECT value FROM track_values WHERE field = 'artist')) AS artists,
                       (SELECT count(DISTINCT album) FROM tracks) AS albums,
                       (SELECT count(*) FROM tracks) AS songs,
                       (SELECT ifnull(sum(duration_ms), 0) / 1000 FROM tracks) AS playtime,
                       (SELECT ifnull(max(added_at), 0) FROM tracks) AS updated
                """)!
            return (row["artists"], row["albums"], row["songs"], row["playtime"], row["updated"])
        }
    }

    static func multiValues(_ db: Database) throws -> [Int64: [String: [String]]] {
        // Only tracks with several values of a field have rows here: a small table, read whole, from
        // the statement (no row copies), each track's values gathered before they go in.
        var out: [Int64: [String: [String]]] = [:]
        let statement = try db.cachedStatement(sql: "SELECT track_id, field, value FROM track_values ORDER BY track_id, field, position")
        let rows = try Row.fetchCursor(statement)
        let raw = statement.sqliteStatement
        var track: Int64?
        var fields: [String: [String]] = [:]
        var field = ""
        var values: [String] = []
        while try rows.next() != nil {
            let id = sqlite3_column_int64(raw, 0)
            // (Text read as GRDB's String reads it: up to a NUL, invalid UTF-8 repaired.)
            let name = sqlite3_column_text(raw, 1).map { String(cString: $0) } ?? ""
            let value = sqlite3_column_text(raw, 2).map { String(cString: $0) } ?? ""
            if id != track || name != field {
                if !values.isEmpty { fields[field, default: []].append(contentsOf: values) }
                values.removeAll()
                field = name
            }
            if id != track {
                if let track { out[track, default: [:]].merge(fields) { $0 + $1 } }
                fields.removeAll()
                track = id
            }
            values.append(value)
        }
        if let track {
            if !values.isEmpty { fields[field, default: []].append(contentsOf: values) }
            out[track, default: [:]].merge(fields) { $0 + $1 }
        }
        return out
    }

    /// The columns `records` reads, in the order it reads them by position (a lookup by name costs a
    /// scan of the row's columns, per field, per song).
    static let columns = """
        id, path, mtime_ns, title, artist, album, album_artist, genre, composer, date, track_number, disc_number, \
        comment, musicbrainz_trackid, sort_artist, sort_album, sort_album_artist, duration_ms, samples, sample_rate, \
        channels, bitrate, sample_format
        """

    /// The songs `sql` (selecting `columns`) gives, each read from the statement's current row in place
    /// (text as GRDB reads it, with `String(cString:)`; a NULL as nil), one row at a time: decoding
    /// through GRDB's `Row` would cost more than the rest of the read, and an array of all rows first
    /// would raise the peak memory, which the allocator keeps. `cached`: the statement is kept for the
    /// next call (not for SQL that changes with its arguments' count).
    static func records(
        _ db: Database, sql: String, arguments: StatementArguments, _ values: [Int64: [String: [String]]], cached: Bool = true
    ) throws -> [SongRecord] {
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let s = statement.sqliteStatement
        @inline(__always) func text(_ i: Int32) -> String? { sqlite3_column_text(s, i).map { String(cString: $0) } }
        @inline(__always) func int(_ i: Int32) -> Int? {
            sqlite3_column_type(s, i) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(s, i))
        }
        var songs: [SongRecord] = []
        while try rows.next() != nil {
            let id = sqlite3_column_int64(s, 0)
            let v = values[id]
            func list(_ field: String, _ index: Int32) -> [String] {
                if let many = v?[field] { return many }
                return text(index).map { [$0] } ?? []
            }
            songs.append(SongRecord(
                id: id, path: text(1) ?? "", modified: sqlite3_column_int64(s, 2) / 1_000_000_000, title: text(3) ?? "",
                artists: list("artist", 4), album: text(5) ?? "", albumArtists: list("album_artist", 6),
                genres: list("genre", 7), composers: list("composer", 8), date: text(9),
                trackNumber: int(10), discNumber: int(11), comment: text(12),
                musicBrainzTrackID: text(13), sortArtist: text(14), sortAlbum: text(15),
                sortAlbumArtist: text(16), durationMS: int(17) ?? 0, samples: Int64(int(18) ?? 0),
                sampleRate: int(19) ?? 0, channels: int(20) ?? 0, bitrate: int(21) ?? 0,
                sampleFormat: text(22) ?? "16"))
        }
        return songs
    }
}
