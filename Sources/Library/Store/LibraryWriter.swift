import ClickWheelCore
import Foundation
import GRDB

/// Writes scanned tracks into the database: tracks, their artist/album/genre/composer rows, multi-value
/// lists and podcast episodes. Keeps name → id caches so a scan looks each artist, album and genre up
/// once, not once per track.
///
/// Thread rules: used by the scanner's writing thread only, inside its transactions.
struct LibraryWriter {
    /// Artist rows by name, and whether a sort tag made the row's key (else the name did).
    private var artists: [String: (id: Int64, tagged: Bool)] = [:]
    private var albums: [AlbumKey: Int64] = [:]
    private var genres: [String: Int64] = [:]
    private var composers: [String: Int64] = [:]
    private var shows: [String: Int64] = [:]

    private struct AlbumKey: Hashable {
        var artist: Int64
        var title: String
    }

    /// A writer with empty caches, for scans that write no track.
    static var empty: LibraryWriter { LibraryWriter() }

    private init() {}

    init(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, name, sort_key FROM artists") {
            // A key other than the name's own came from a sort tag.
            let name: String = row[1], key: String = row[2]
            artists[name] = (row[0], key != SortKey.make(name))
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, artist_id, title FROM albums") {
            albums[AlbumKey(artist: row[1], title: row[2])] = row[0]
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM genres") { genres[row[1]] = row[0] }
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM composers") { composers[row[1]] = row[0] }
        for row in try Row.fetchAll(db, sql: "SELECT id, title FROM podcast_shows") { shows[row[1]] = row[0] }
    }

    /// Inserts a track, or replaces the row `id` (a changed or moved file keeps its id and play state).
    mutating func write(
        _ m: TrackMetadata, path: TrackPath, size: Int, mtimeNS: Int64, addedAt: Int64, replacing id: Int64?,
        in db: Database
    ) throws -> Int64 {
        let artistName = m.menuArtist
        let artistID = try artist(artistName, sortTag: Self.sortTag(of: artistName, in: m),
                                  various: artistName == LibraryNames.variousArtists, db)
        let albumID = try album(m, artistID: artistID, db)
        let genreID = try m.genres.first.map { try named(&genres, "genres", $0, db) }
        let composerID = try m.composers.first.map { try named(&composers, "composers", $0, db) }
        let titleKey = m.sortTitle.map { SortKey.make($0, dropArticle: false) } ?? SortKey.make(m.title)
        let artistKey = m.sortArtist.map { SortKey.make($0, dropArticle: false) } ?? SortKey.make(m.artists.first ?? "")
        let albumKey = m.sortAlbum.map { SortKey.make($0, dropArticle: false) } ?? SortKey.make(m.album)
        let values: [(any DatabaseValueConvertible)?] = [
            path.display, path.bytes.map { Data($0) }, size, mtimeNS, m.title, m.artists.joined(separator: "; "), m.album,
            m.albumArtists.isEmpty ? nil : m.albumArtists.joined(separator: "; "),
            m.genres.isEmpty ? nil : m.genres.joined(separator: "; "),
            m.composers.isEmpty ? nil : m.composers.joined(separator: "; "), m.comment, m.year, m.date,
            m.trackNumber, m.trackTotal, m.discNumber, m.discTotal, m.durationMS, m.samples, m.bitrate, m.sampleRate,
            m.channels, m.isVBR, m.isCompilation, m.hasArtwork, m.artworkMIME, m.artworkOffset, m.artworkSize,
            m.trackGain, m.trackPeak, m.albumGain, m.albumPeak, m.sortTitle, m.sortArtist, m.sortAlbum,
            m.sortAlbumArtist, titleKey, artistKey, albumKey, m.tagFormat, m.musicBrainzTrackID, m.isPodcast,
            artistID, albumID, genreID, composerID, m.fingerprint, addedAt, m.isAudiobook, m.sampleFormat,
        ]
        let trackID: Int64
        if let id {
            let sql = "UPDATE tracks SET " + Self.columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?"
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values + [id]))
            trackID = id
            try db.execute(sql: "DELETE FROM track_values WHERE track_id = ?", arguments: [id])
        } else {
            let sql = "INSERT INTO tracks (" + Self.columns.joined(separator: ", ") + ") VALUES ("
                + Array(repeating: "?", count: Self.columns.count).joined(separator: ", ") + ")"
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
            trackID = db.lastInsertedRowID
        }
        for (field, list) in [("artist", m.artists), ("album_artist", m.albumArtists), ("genre", m.genres),
                              ("composer", m.composers)] where list.count > 1 {
            for (i, v) in list.enumerated() {
                try db.cachedStatement(sql: "INSERT INTO track_values (track_id, field, position, value) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [trackID, field, i, v])
            }
        }
        if m.isPodcast {
            let show = m.podcastShow ?? m.album
            let showID = try podcastShow(show, feed: m.feedURL, db)
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO podcast_episodes (track_id, show_id, release_date, description, feed_url)
                VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [trackID, showID, m.releaseDate, m.podcastDescription, m.feedURL])
        } else if id != nil {
            try db.execute(sql: "DELETE FROM podcast_episodes WHERE track_id = ?", arguments: [trackID])
        }
        if id != nil {
            try db.cachedStatement(sql: "DELETE FROM chapters WHERE track_id = ?").execute(arguments: [trackID])
        }
        for (i, c) in m.chapters.enumerated() {
            try db.cachedStatement(
                sql: "INSERT INTO chapters (track_id, idx, start_ms, end_ms, title) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [trackID, i, c.startMS, c.endMS, c.title])
        }
        return trackID
    }

    static let columns = [
        "path", "path_bytes", "size", "mtime_ns", "title", "artist", "album", "album_artist", "genre", "composer",
        "comment", "year", "date", "track_number", "track_total", "disc_number", "disc_total", "duration_ms",
        "samples", "bitrate", "sample_rate", "channels", "is_vbr", "is_compilation", "has_artwork", "artwork_mime",
        "artwork_offset", "artwork_size", "rg_track_gain", "rg_track_peak", "rg_album_gain", "rg_album_peak",
        "sort_title", "sort_artist", "sort_album", "sort_album_artist", "title_key", "artist_key", "album_key",
        "tag_format", "musicbrainz_trackid", "is_podcast", "artist_id", "album_id", "genre_id", "composer_id",
        "fingerprint", "added_at", "is_audiobook", "sample_format",
    ]

    /// The sort tag a track gives its menu artist `name`, if any: TSO2 (the album artist's, and the menu
    /// artist is the track's album artist), else TSOP when `name` is the track's one artist: an album
    /// artist without TSO2 whose track's artist is the same name with TSOP "Olsen, Marguerite" files
    /// under O. A TSOP written for another name (a compilation's track artist, filed under Various
    /// Artists) says nothing about `name`.
    static func sortTag(of name: String, in m: TrackMetadata) -> String? {
        if let tag = m.sortAlbumArtist { return tag }
        // TSOP holds one value: it is the artist's own only when the track names one artist.
        return m.artists == [name] ? m.sortArtist : nil
    }

    /// The artist row named `name`. A sort tag sets its key; a row keyed by its name alone (made from
    /// tracks without one) takes the first tag a later track gives it, so the Artists list sorts a
    /// name by its own sort tag wherever one of its tracks has it, whatever the scan order.
    private mutating func artist(_ name: String, sortTag: String?, various: Bool, _ db: Database) throws -> Int64 {
        let tagKey = sortTag.map { SortKey.make($0, dropArticle: false) }
        if let known = artists[name] {
            if let tagKey, !known.tagged {
                try db.execute(sql: "UPDATE artists SET sort_key = ? WHERE id = ?", arguments: [tagKey, known.id])
                artists[name] = (known.id, true)
            }
            return known.id
        }
        try db.execute(
            sql: "INSERT INTO artists (name, sort_key, is_various) VALUES (?, ?, ?)",
            arguments: [name, tagKey ?? SortKey.make(name), various])
        artists[name] = (db.lastInsertedRowID, tagKey != nil)
        return db.lastInsertedRowID
    }

    private mutating func album(_ m: TrackMetadata, artistID: Int64, _ db: Database) throws -> Int64 {
        let k = AlbumKey(artist: artistID, title: m.album)
        if let id = albums[k] { return id }
        let key = m.sortAlbum.map { SortKey.make($0, dropArticle: false) } ?? SortKey.make(m.album)
        try db.execute(
            sql: "INSERT INTO albums (title, artist_id, sort_key, is_compilation, year) VALUES (?, ?, ?, ?, ?)",
            arguments: [m.album, artistID, key, m.isCompilation, m.year])
        albums[k] = db.lastInsertedRowID
        return db.lastInsertedRowID
    }

    private mutating func podcastShow(_ title: String, feed: String?, _ db: Database) throws -> Int64 {
        if let id = shows[title] { return id }
        try db.execute(
            sql: "INSERT INTO podcast_shows (title, sort_key, feed_url) VALUES (?, ?, ?)",
            arguments: [title, SortKey.make(title), feed])
        shows[title] = db.lastInsertedRowID
        return db.lastInsertedRowID
    }

    private func named(_ cache: inout [String: Int64], _ table: String, _ name: String, _ db: Database) throws -> Int64 {
        if let id = cache[name] { return id }
        try db.execute(sql: "INSERT INTO \(table) (name, sort_key) VALUES (?, ?)", arguments: [name, SortKey.make(name)])
        cache[name] = db.lastInsertedRowID
        return db.lastInsertedRowID
    }

    /// Removes artists, albums, genres, composers and shows no track refers to any more.
    mutating func pruneOrphans(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM albums WHERE id NOT IN (SELECT album_id FROM tracks);
            DELETE FROM artists WHERE id NOT IN (SELECT artist_id FROM tracks) AND id NOT IN (SELECT artist_id FROM albums);
            DELETE FROM genres WHERE id NOT IN (SELECT genre_id FROM tracks WHERE genre_id IS NOT NULL);
            DELETE FROM composers WHERE id NOT IN (SELECT composer_id FROM tracks WHERE composer_id IS NOT NULL);
            DELETE FROM podcast_shows WHERE id NOT IN (SELECT show_id FROM podcast_episodes);
            """)
        try self = LibraryWriter(db)
    }

    /// Recomputes every menu position (`ord`): music only, podcasts have their own menu. Artists has a
    /// second numbering without the compilations' artists (`solo_ord`), Compilations its own
    /// (`albums.compilation_ord`); an album is a compilation while one of its songs is (a retagged song
    /// moves it at the next scan). Songs leaves audiobooks out (Music → Audiobooks lists their albums by
    /// `book_ord`).
    static func renumber(_ db: Database) throws {
        try db.execute(sql: """
            UPDATE tracks SET ord = NULL WHERE (is_podcast = 1 OR is_audiobook = 1) AND ord IS NOT NULL;
            UPDATE tracks SET ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY title_key, artist_key, album_key, id) - 1 AS r
                FROM tracks WHERE is_podcast = 0 AND is_audiobook = 0) AS o
            WHERE tracks.id = o.id AND tracks.ord IS NOT o.r;
            UPDATE artists SET ord = NULL;
            UPDATE artists SET ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, name) - 1 AS r FROM artists
                WHERE id IN (SELECT artist_id FROM tracks WHERE is_podcast = 0)) AS o
            WHERE artists.id = o.id;
            UPDATE albums SET ord = NULL;
            UPDATE albums SET ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, title, id) - 1 AS r FROM albums
                WHERE id IN (SELECT album_id FROM tracks WHERE is_podcast = 0)) AS o
            WHERE albums.id = o.id;
            UPDATE artists SET solo_ord = NULL WHERE solo_ord IS NOT NULL;
            UPDATE artists SET solo_ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, name) - 1 AS r FROM artists
                WHERE id IN (SELECT artist_id FROM tracks WHERE is_podcast = 0 AND is_compilation = 0)) AS o
            WHERE artists.id = o.id;
            UPDATE albums SET is_compilation = c.v FROM (
                SELECT album_id, max(is_compilation) AS v FROM tracks GROUP BY album_id) AS c
            WHERE albums.id = c.album_id AND albums.is_compilation IS NOT c.v;
            UPDATE albums SET compilation_ord = NULL WHERE compilation_ord IS NOT NULL;
            UPDATE albums SET compilation_ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, title, id) - 1 AS r FROM albums
                WHERE is_compilation = 1 AND ord IS NOT NULL) AS o
            WHERE albums.id = o.id;
            DELETE FROM genre_artists;
            INSERT INTO genre_artists (genre_id, ord, artist_id)
                SELECT genre_id, row_number() OVER (PARTITION BY genre_id ORDER BY a.ord) - 1, artist_id
                FROM (SELECT DISTINCT genre_id, artist_id FROM tracks WHERE genre_id IS NOT NULL AND is_podcast = 0) g
                JOIN artists a ON a.id = g.artist_id;
            UPDATE genres SET ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, name) - 1 AS r FROM genres) AS o
            WHERE genres.id = o.id;
            UPDATE composers SET ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, name) - 1 AS r FROM composers) AS o
            WHERE composers.id = o.id;
            UPDATE play_state SET song_ord = t.ord FROM tracks t
                WHERE t.id = play_state.track_id AND play_state.song_ord IS NOT t.ord;
            UPDATE listening_version SET value = value + 1;
            UPDATE albums SET book_ord = NULL WHERE book_ord IS NOT NULL;
            UPDATE albums SET book_ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, title, id) - 1 AS r FROM albums
                WHERE id IN (SELECT album_id FROM tracks INDEXED BY tracks_audiobook WHERE is_audiobook = 1)) AS o
            WHERE albums.id = o.id;
            UPDATE podcast_shows SET ord = o.r FROM (
                SELECT id, row_number() OVER (ORDER BY sort_key, title) - 1 AS r FROM podcast_shows) AS o
            WHERE podcast_shows.id = o.id;
            """)
    }
}

/// A path relative to the music folder: its display text and, when that text is lossy, the exact bytes.
struct TrackPath: Hashable {
    var display: String
    /// Raw bytes, only when they are not valid UTF-8.
    var bytes: [UInt8]?

    init(raw: [UInt8]) {
        let (text, valid) = TextDecoding.utf8(raw)
        display = text
        bytes = valid ? nil : raw
    }

    init(display: String, bytes: [UInt8]?) {
        self.display = display
        self.bytes = bytes
    }

    var raw: [UInt8] { bytes ?? Array(display.utf8) }
}
