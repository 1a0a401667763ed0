import Foundation
import ClickWheelCore
import GRDB

/// The SQL behind one `BrowseList`: how to count it, fetch a page, list its ids and find an item.
///
/// Lists with an `ord` column page by range (`ord >= lo AND ord < hi`); the others by LIMIT/OFFSET
/// over an index that already has their order, so no page sorts.
struct ListQuery {
    var kind: BrowseRow.Kind
    /// Selects `id, title, detail, sort_key[, unplayed, partly]` in list order, without LIMIT.
    var selectSQL: String
    var arguments: StatementArguments = []
    /// For ord-paged lists: the table whose `ord` gives the position.
    var ordTable: String?

    init(_ list: BrowseList) {
        let song = """
            SELECT t.id, t.title, t.artist AS detail, t.title_key AS sort_key FROM tracks t
            """
        switch list {
        case .artists:
            kind = .artist
            selectSQL = "SELECT id, name AS title, NULL AS detail, sort_key FROM artists WHERE ord IS NOT NULL ORDER BY ord"
            ordTable = "artists"
        case .albums:
            kind = .album
            selectSQL = """
                SELECT al.id, al.title, ar.name AS detail, al.sort_key FROM albums al JOIN artists ar ON ar.id = al.artist_id
                WHERE al.ord IS NOT NULL ORDER BY al.ord
                """
            ordTable = "albums"
        case .songs:
            kind = .song
            selectSQL = song + " WHERE t.ord IS NOT NULL ORDER BY t.ord"
            ordTable = "tracks"
        case .genres:
            kind = .genre
            selectSQL = "SELECT id, name AS title, NULL AS detail, sort_key FROM genres WHERE ord IS NOT NULL ORDER BY ord"
            ordTable = "genres"
        case .composers:
            kind = .composer
            selectSQL = "SELECT id, name AS title, NULL AS detail, sort_key FROM composers WHERE ord IS NOT NULL ORDER BY ord"
            ordTable = "composers"
        case .podcastShows:
            kind = .podcastShow
            selectSQL = """
                SELECT s.id, s.title, NULL AS detail, s.sort_key,
                       (SELECT count(*) FROM podcast_episodes e LEFT JOIN play_state p ON p.track_id = e.track_id
                        WHERE e.show_id = s.id AND ifnull(p.played, 0) = 0) AS unplayed
                FROM podcast_shows s WHERE s.ord IS NOT NULL ORDER BY s.ord
                """
            ordTable = "podcast_shows"
        case .playlists:
            kind = .playlist
            selectSQL = "SELECT id, name AS title, NULL AS detail, sort_key FROM playlists ORDER BY is_on_the_go DESC, sort_key, id"
        case .recentlyAdded:
            kind = .song
            selectSQL = """
                SELECT * FROM (\(song) WHERE t.is_podcast = 0 ORDER BY t.added_at DESC, t.id DESC LIMIT \(Self.recentLimit))
                """
        case .albumsOfArtist(let artist):
            kind = .album
            selectSQL = """
                SELECT id, title, CAST(year AS TEXT) AS detail, sort_key FROM albums
                WHERE artist_id = ? AND id IN (SELECT album_id FROM tracks WHERE artist_id = ? AND is_podcast = 0)
                ORDER BY ifnull(year, 9999), sort_key, id
                """
            arguments = [artist, artist]
        case .songsOfArtist(let artist):
            kind = .song
            selectSQL = song + """
                 INDEXED BY tracks_artist WHERE t.artist_id = ? AND t.is_podcast = 0
                ORDER BY t.album_key, t.album_id, t.disc_number, t.track_number, t.title_key
                """
            arguments = [artist]
        case .songsOfAlbum(let album):
            kind = .song
            selectSQL = song + " WHERE t.album_id = ? ORDER BY t.disc_number, t.track_number, t.title_key, t.id"
            arguments = [album]
        case .artistsOfGenre(let genre):
            kind = .artist
            selectSQL = """
                SELECT id, name AS title, NULL AS detail, sort_key FROM artists
                WHERE id IN (SELECT artist_id FROM tracks WHERE genre_id = ?) ORDER BY ord
                """
            arguments = [genre]
        case .albumsOfGenreArtist(let genre, let artist):
            kind = .album
            selectSQL = """
                SELECT id, title, CAST(year AS TEXT) AS detail, sort_key FROM albums
                WHERE id IN (SELECT album_id FROM tracks WHERE genre_id = ? AND artist_id = ?)
                ORDER BY ifnull(year, 9999), sort_key, id
                """
            arguments = [genre, artist]
        case .songsOfGenre(let genre):
            kind = .song
            selectSQL = song + """
                 INDEXED BY tracks_genre WHERE t.genre_id = ?
                ORDER BY t.artist_key, t.album_key, t.disc_number, t.track_number
                """
            arguments = [genre]
        case .songsOfComposer(let composer):
            kind = .song
            selectSQL = song + " WHERE t.composer_id = ? ORDER BY t.title_key"
            arguments = [composer]
        case .episodesOfShow(let show):
            kind = .episode
            selectSQL = """
                SELECT t.id, t.title, e.release_date AS detail, t.title_key AS sort_key,
                       CASE WHEN ifnull(p.played, 0) = 0 THEN 1 ELSE 0 END AS unplayed,
                       ifnull(p.resume_ms, 0) > 0 AND ifnull(p.played, 0) = 0 AS partly
                FROM podcast_episodes e JOIN tracks t ON t.id = e.track_id
                LEFT JOIN play_state p ON p.track_id = e.track_id
                WHERE e.show_id = ? ORDER BY e.release_date DESC, t.id DESC
                """
            arguments = [show]
        case .songsOfPlaylist(let playlist):
            kind = .song
            selectSQL = """
                SELECT t.id, t.title, t.artist AS detail, t.title_key AS sort_key
                FROM playlist_entries pe JOIN tracks t ON t.id = pe.track_id
                WHERE pe.playlist_id = ? ORDER BY pe.position
                """
            arguments = [playlist]
        }
    }

    /// How many songs "Recently Added" shows.
    static let recentLimit = 100

    var countSQL: String {
        if let t = ordTable { return "SELECT ifnull(max(ord) + 1, 0) FROM \(t)" }
        return "SELECT count(*) FROM (\(selectSQL))"
    }

    var idsSQL: String { "SELECT id FROM (\(selectSQL))" }

    var ordOfIDSQL: String? { ordTable.map { "SELECT ord FROM \($0) WHERE id = ?" } }

    func page(_ range: Range<Int>) -> (String, StatementArguments) {
        if let t = ordTable {
            // The ORDER BY ord of selectSQL walks the ord index from the range's start.
            let alias = t == "tracks" ? "t." : t == "albums" ? "al." : t == "podcast_shows" ? "s." : ""
            let sql = selectSQL.replacingFirst(
                "ORDER BY \(alias)ord", with: "AND \(alias)ord >= \(range.lowerBound) AND \(alias)ord < \(range.upperBound) ORDER BY \(alias)ord")
            return (sql, arguments)
        }
        return (selectSQL + " LIMIT \(range.count) OFFSET \(range.lowerBound)", arguments)
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = range(of: target) else { return self }
        return replacingCharacters(in: r, with: replacement)
    }
}
