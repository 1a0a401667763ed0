import ClickWheelCore
import GRDB

/// The SQL behind one `BrowseList`: how to count it, fetch a page, list its ids and find an item.
///
/// Long lists page by a precomputed position (`ord >= ? AND ord < ?` on an index: the same cost for
/// the first and the last page); short lists by LIMIT/OFFSET over an index that already has their
/// order, so no page sorts. Every statement's text is constant per list kind, so it is prepared once
/// per connection (`cachedStatement`) and only bound afterwards.
struct ListQuery {
    var kind: BrowseRow.Kind
    /// `id, title, detail, sort_key[, unplayed, partly]`.
    var columns: String
    /// FROM, JOINs and WHERE: shared by rows and count.
    var from: String
    /// ORDER BY clause (without the keywords).
    var order: String
    var arguments: StatementArguments = []
    /// For position-paged lists: the qualified `ord` column and the table it belongs to.
    var ord: (column: String, table: String)?
    /// A list's own count and page statements (the page's arguments: LIMIT, OFFSET), where the
    /// generic ones would read too much.
    var count: String?
    var page: String?

    /// A podcast episode's marks from its play state (`p`), the iPod's "New" rule: unplayed when never
    /// played (no play count, not marked played) and no place remembered; partly played when a place is
    /// remembered and it is not finished. `podcastShows` counts its episodes by the same rule.
    static let podcastMarks = """
        CASE WHEN ifnull(p.played, 0) = 0 AND ifnull(p.play_count, 0) = 0 AND ifnull(p.resume_ms, 0) = 0
            THEN 1 ELSE 0 END AS unplayed,
        ifnull(p.resume_ms, 0) > 0 AND ifnull(p.played, 0) = 0 AS partly
        """

    /// A book part's marks from its play state (`p`): not finished, partly played.
    static let episodeMarks = """
        CASE WHEN ifnull(p.played, 0) = 0 THEN 1 ELSE 0 END AS unplayed,
        ifnull(p.resume_ms, 0) > 0 AND ifnull(p.played, 0) = 0 AS partly
        """

    init(_ list: BrowseList) {
        let songColumns = "t.id, t.title, t.artist AS detail, t.title_key AS sort_key"
        let named = "id, name AS title, NULL AS detail, sort_key"
        switch list {
        case .artists:
            (kind, columns, from, order) = (.artist, named, "FROM artists WHERE ord IS NOT NULL", "ord")
            ord = ("ord", "artists")
        case .artistsWithoutCompilations:
            (kind, columns, from, order) = (.artist, named, "FROM artists WHERE solo_ord IS NOT NULL", "solo_ord")
            ord = ("solo_ord", "artists")
        case .compilations:
            kind = .album
            columns = "al.id, al.title, ar.name AS detail, al.sort_key"
            from = "FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE al.compilation_ord IS NOT NULL"
            order = "al.compilation_ord"
            ord = ("al.compilation_ord", "albums")
        case .albums:
            kind = .album
            columns = "al.id, al.title, ar.name AS detail, al.sort_key"
            from = "FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE al.ord IS NOT NULL"
            order = "al.ord"
            ord = ("al.ord", "albums")
        case .songs:
            (kind, columns, from, order) = (.song, songColumns, "FROM tracks t WHERE t.ord IS NOT NULL", "t.ord")
            ord = ("t.ord", "tracks")
        case .genres:
            (kind, columns, from, order) = (.genre, named, "FROM genres WHERE ord IS NOT NULL", "ord")
            ord = ("ord", "genres")
        case .composers:
            (kind, columns, from, order) = (.composer, named, "FROM composers WHERE ord IS NOT NULL", "ord")
            ord = ("ord", "composers")
        case .podcastShows:
            kind = .podcastShow
            columns = """
                s.id, s.title, NULL AS detail, s.sort_key,
                (SELECT count(*) FROM podcast_episodes e LEFT JOIN play_state p ON p.track_id = e.track_id
                 WHERE e.show_id = s.id AND ifnull(p.played, 0) = 0 AND ifnull(p.play_count, 0) = 0
                 AND ifnull(p.resume_ms, 0) = 0) AS unplayed
                """
            (from, order) = ("FROM podcast_shows s WHERE s.ord IS NOT NULL", "s.ord")
            ord = ("s.ord", "podcast_shows")
        case .playlists:
            (kind, columns, from, order) = (.playlist, named, "FROM playlists", "is_on_the_go DESC, sort_key, id")
        case .smart(let smart):
            kind = .song
            (columns, from, order) = Self.smart(smart, songColumns: songColumns)
            if smart == .topRated {
                // Counted and paged over play_state's partial index alone (episodes have no Songs
                // position), the tracks joined for the page's rows only: a walk past 5,000 rated songs
                // never reads their wide rows.
                let rated = """
                    FROM play_state INDEXED BY play_state_rating
                    WHERE rating >= \(Rating.topRatedMinimum) AND song_ord IS NOT NULL
                    """
                count = "SELECT count(*) \(rated)"
                page = """
                    SELECT \(columns) FROM (SELECT track_id, rating, play_count \(rated)
                    ORDER BY rating DESC, play_count DESC, track_id LIMIT ? OFFSET ?) p
                    JOIN tracks t ON t.id = p.track_id ORDER BY \(order)
                    """
            }
        case .albumsOfArtist(let artist):
            kind = .album
            columns = "id, title, CAST(year AS TEXT) AS detail, sort_key"
            (from, order) = ("FROM albums WHERE artist_id = ? AND ord IS NOT NULL", "ifnull(year, 9999), sort_key, id")
            arguments = [artist]
        case .songsOfArtist(let artist):
            kind = .song
            columns = songColumns
            from = "FROM tracks t INDEXED BY tracks_artist WHERE t.artist_id = ? AND t.is_podcast = 0"
            order = "t.album_key, t.album_id, t.disc_number, t.track_number, t.title_key"
            arguments = [artist]
        case .songsOfAlbum(let album):
            kind = .song
            columns = songColumns
            (from, order) = ("FROM tracks t WHERE t.album_id = ?", "t.disc_number, t.track_number, t.title_key, t.id")
            arguments = [album]
        case .artistsOfGenre(let genre):
            kind = .artist
            columns = "a.id, a.name AS title, NULL AS detail, a.sort_key"
            from = "FROM genre_artists g JOIN artists a ON a.id = g.artist_id WHERE g.genre_id = ?"
            order = "g.ord"
            arguments = [genre]
        case .albumsOfGenreArtist(let genre, let artist):
            kind = .album
            columns = "id, title, CAST(year AS TEXT) AS detail, sort_key"
            from = "FROM albums WHERE id IN (SELECT album_id FROM tracks WHERE genre_id = ? AND artist_id = ?)"
            order = "ifnull(year, 9999), sort_key, id"
            arguments = [genre, artist]
        case .songsOfGenre(let genre):
            kind = .song
            columns = songColumns
            from = "FROM tracks t INDEXED BY tracks_genre WHERE t.genre_id = ? AND t.is_podcast = 0"
            order = "t.artist_key, t.album_key, t.disc_number, t.track_number"
            arguments = [genre]
        case .songsOfComposer(let composer):
            kind = .song
            columns = songColumns
            (from, order) = ("FROM tracks t WHERE t.composer_id = ?", "t.title_key")
            arguments = [composer]
        case .episodesOfShow(let show):
            kind = .episode
            columns = "t.id, t.title, e.release_date AS detail, t.title_key AS sort_key, " + Self.podcastMarks
            from = """
                FROM podcast_episodes e JOIN tracks t ON t.id = e.track_id
                LEFT JOIN play_state p ON p.track_id = e.track_id WHERE e.show_id = ?
                """
            order = "e.release_date DESC, e.track_id DESC"
            arguments = [show]
        case .audiobooks:
            // Few rows: paged by LIMIT/OFFSET in book order. The progress: finished parts whole, started
            // ones up to their place, over the whole book's length.
            kind = .album
            columns = """
                al.id, al.title, ar.name AS detail, al.sort_key,
                (SELECT 100 * sum(CASE WHEN ifnull(p.played, 0) = 1 THEN t.duration_ms
                                       ELSE min(ifnull(p.resume_ms, 0), t.duration_ms) END) / max(1, sum(t.duration_ms))
                 FROM tracks t INDEXED BY tracks_audiobook LEFT JOIN play_state p ON p.track_id = t.id
                 WHERE t.album_id = al.id AND t.is_audiobook = 1) AS progress
                """
            from = "FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE al.book_ord IS NOT NULL"
            order = "al.book_ord"
        case .partsOfBook(let book):
            kind = .episode
            columns = "t.id, t.title, t.artist AS detail, t.title_key AS sort_key, " + Self.episodeMarks
            from = """
                FROM tracks t INDEXED BY tracks_audiobook LEFT JOIN play_state p ON p.track_id = t.id
                WHERE t.album_id = ? AND t.is_audiobook = 1
                """
            order = "t.disc_number, t.track_number, t.title_key, t.id"
            arguments = [book]
        case .search:
            preconditionFailure("search lists are served by SearchQuery")
        case .songsOfPlaylist(let playlist):
            kind = .song
            columns = songColumns
            from = "FROM playlist_entries pe JOIN tracks t ON t.id = pe.track_id WHERE pe.playlist_id = ?"
            order = "pe.position"
            arguments = [playlist]
        }
    }

    /// The smart playlists' columns, FROM and ORDER BY. The short lists take their 25 songs in a
    /// subquery (an index walk that stops at 25); My Top Rated pages in the order of its partial index,
    /// so no page sorts. Never Played's pages are served by `NeverPlayed` (by Songs position); this SQL
    /// counts and lists its ids. Podcast episodes are never in them, as on the iPod.
    static func smart(_ smart: SmartPlaylist, songColumns: String) -> (String, String, String) {
        let short = SmartPlaylist.shortLength
        switch smart {
        case .mostPlayed:
            return (songColumns, """
                FROM tracks t JOIN play_state p ON p.track_id = t.id WHERE t.id IN (
                SELECT p2.track_id FROM play_state p2 INDEXED BY play_state_plays JOIN tracks t2 ON t2.id = p2.track_id
                WHERE p2.play_count > 0 AND t2.is_podcast = 0
                ORDER BY p2.play_count DESC, p2.last_played DESC, p2.track_id LIMIT \(short))
                """, "p.play_count DESC, p.last_played DESC, t.id")
        case .recentlyPlayed:
            return (songColumns, """
                FROM tracks t JOIN play_state p ON p.track_id = t.id WHERE t.id IN (
                SELECT p2.track_id FROM play_state p2 INDEXED BY play_state_recent JOIN tracks t2 ON t2.id = p2.track_id
                WHERE p2.last_played IS NOT NULL AND t2.is_podcast = 0 ORDER BY p2.last_played DESC, p2.track_id DESC
                LIMIT \(short))
                """, "p.last_played DESC, t.id DESC")
        case .topRated:
            return (songColumns + ", p.rating AS rating", """
                FROM play_state p INDEXED BY play_state_rating JOIN tracks t ON t.id = p.track_id
                WHERE p.rating >= \(Rating.topRatedMinimum) AND p.song_ord IS NOT NULL
                """, "p.rating DESC, p.play_count DESC, p.track_id")
        case .recentlyAdded:
            return (songColumns, """
                FROM tracks t WHERE t.id IN (SELECT id FROM tracks INDEXED BY tracks_added WHERE is_podcast = 0
                ORDER BY added_at DESC, id DESC LIMIT \(SmartPlaylist.recentlyAddedLimit))
                """, "t.added_at DESC, t.id DESC")
        case .neverPlayed:
            return (songColumns, """
                FROM tracks t LEFT JOIN play_state p ON p.track_id = t.id
                WHERE t.ord IS NOT NULL AND ifnull(p.play_count, 0) = 0
                """, "t.ord")
        }
    }

    var countSQL: String {
        if let count { return count }
        if let ord { return "SELECT ifnull(max(\(ordName)) + 1, 0) FROM \(ord.table)" }
        return "SELECT count(*) \(from)"
    }

    /// The position column's own name (`ord`, `solo_ord`, …), unqualified.
    var ordName: String { ord.map { String($0.column.split(separator: ".").last!) } ?? "ord" }

    var idsSQL: String { "SELECT \(columns.prefix { $0 != "," }) \(from) ORDER BY \(order)" }

    var ordOfIDSQL: String? { ord.map { "SELECT \(ordName) FROM \($0.table) WHERE id = ?" } }

    /// The page statement's text (constant per list kind) and its arguments.
    func page(_ range: Range<Int>) -> (String, StatementArguments) {
        if let page { return (page, arguments + [range.count, range.lowerBound]) }
        if let ord {
            return ("SELECT \(columns) \(from) AND \(ord.column) >= ? AND \(ord.column) < ? ORDER BY \(order)",
                    arguments + [range.lowerBound, range.upperBound])
        }
        return ("SELECT \(columns) \(from) ORDER BY \(order) LIMIT ? OFFSET ?", arguments + [range.count, range.lowerBound])
    }
}
