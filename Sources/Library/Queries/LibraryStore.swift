public import ClickWheelCore
public import GRDB

/// The library as the menus and the MPD server read it: `LibraryReading` over the SQLite database.
///
/// Long lists (Songs, Artists, Albums, Genres, Composers, Podcasts) page by their precomputed `ord`
/// column, an index range lookup whatever the page; short lists (an artist's albums, an album's songs)
/// page through covering indexes. Reads go through a `DatabasePool`, so they run beside a scan.
///
/// Thread rules: safe from any thread; every call is a short, blocking read.
public final class LibraryStore: LibraryReading, @unchecked Sendable {
    let db: any DatabaseReader
    let neverPlayed = NeverPlayed()

    /// `@unchecked Sendable`: a GRDB reader, which is itself thread-safe, and `NeverPlayed` (Sendable).
    public init(_ db: any DatabaseReader) {
        self.db = db
    }

    public func count(of list: BrowseList) throws -> Int {
        if case .search(let text) = list { return try db.read { try SearchQuery(text).counts($0).reduce(0, +) } }
        if list == .smart(.neverPlayed) { return try db.read { try neverPlayed.count($0) } }
        let q = ListQuery(list)
        return try db.read { db in
            try Int.fetchOne(db.cachedStatement(sql: q.countSQL), arguments: q.ord == nil ? q.arguments : []) ?? 0
        }
    }

    public func rows(of list: BrowseList, in range: Range<Int>) throws -> [BrowseRow] {
        guard !range.isEmpty, range.lowerBound >= 0 else { return [] }
        if case .search(let text) = list { return try db.read { try SearchQuery(text).rows($0, in: range) } }
        let q = ListQuery(list)
        if list == .smart(.neverPlayed) {
            return try db.read { db in
                try neverPlayed.rows(db, in: range, columns: q.columns).map { Self.browseRow($0, kind: q.kind) }
            }
        }
        return try db.read { db in
            let (sql, args) = q.page(range)
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: args).map { row in
                Self.browseRow(row, kind: q.kind)
            }
        }
    }

    public func index(of id: Int64, in list: BrowseList) throws -> Int? {
        if case .search = list {
            let rows = try self.rows(of: list, in: 0..<(try count(of: list)))
            return rows.firstIndex { $0.id == id }
        }
        if list == .smart(.neverPlayed) { return try db.read { try neverPlayed.index(of: id, $0) } }
        let q = ListQuery(list)
        return try db.read { db in
            if let sql = q.ordOfIDSQL { return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) }
            let ids = try Int64.fetchAll(db.cachedStatement(sql: q.idsSQL), arguments: q.arguments)
            return ids.firstIndex(of: id)
        }
    }

    public func trackIDs(of list: BrowseList) throws -> [TrackID] {
        if case .search(let text) = list { return try db.read { try SearchQuery(text).trackIDs($0) } }
        let q = ListQuery(list)
        guard q.kind == .song || q.kind == .episode else { return [] }
        return try db.read { try Int64.fetchAll($0.cachedStatement(sql: q.idsSQL), arguments: q.arguments) }
    }

    public func track(_ id: TrackID) throws -> TrackInfo? {
        try db.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT t.*, ifnull(p.rating, 0) AS rating FROM tracks t LEFT JOIN play_state p ON p.track_id = t.id
                    WHERE t.id = ?
                    """), arguments: [id]
            ).map(Self.trackInfo)
        }
    }

    public func chapters(of id: TrackID) throws -> [Chapter] {
        try db.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT start_ms, end_ms, title FROM chapters WHERE track_id = ? ORDER BY idx"),
                arguments: [id]
            ).map { Chapter(startMS: $0[0], endMS: $0[1], title: $0[2]) }
        }
    }

    public func statistics() throws -> LibraryStatistics {
        try db.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM tracks WHERE is_podcast = 0 AND is_audiobook = 0) AS songs,
                       (SELECT count(*) FROM albums WHERE ord IS NOT NULL) AS albums,
                       (SELECT count(*) FROM artists WHERE ord IS NOT NULL) AS artists,
                       (SELECT count(*) FROM tracks WHERE is_podcast = 1) AS episodes,
                       (SELECT ifnull(sum(duration_ms), 0) FROM tracks) AS duration
                """)!
            return LibraryStatistics(
                songs: row["songs"], albums: row["albums"], artists: row["artists"], podcastEpisodes: row["episodes"],
                totalDurationMS: row["duration"])
        }
    }

    static func browseRow(_ row: Row, kind: BrowseRow.Kind) -> BrowseRow {
        BrowseRow(
            id: row["id"], kind: kind, title: row["title"], detail: row["detail"],
            initial: SortKey.initial(ofKey: row["sort_key"] ?? ""), unplayed: row["unplayed"] ?? 0,
            partlyPlayed: row["partly"] ?? false, rating: row["rating"] ?? 0, progress: row["progress"])
    }

    static func trackInfo(_ r: Row) -> TrackInfo {
        TrackInfo(
            id: r["id"], path: r["path"], title: r["title"], artist: r["artist"], album: r["album"],
            albumArtist: r["album_artist"] ?? r["artist"], genre: r["genre"], composer: r["composer"], year: r["year"],
            trackNumber: r["track_number"], trackTotal: r["track_total"], discNumber: r["disc_number"],
            discTotal: r["disc_total"], durationMS: r["duration_ms"], isPodcast: r["is_podcast"],
            isAudiobook: r["is_audiobook"],
            hasArtwork: r["has_artwork"], albumID: r["album_id"], artistID: r["artist_id"], rating: r["rating"])
    }
}
