public import ClickWheelCore
import GRDB

extension LibraryStore {
    /// Where each sorted list keeps its sort key, the order its position column (`ord` unless said)
    /// follows, and a filter.
    private static let sortedTables:
        [String: (table: String, key: String, order: String, filter: String, ord: String)] = [
        "songs": ("tracks", "title_key", "title_key, artist_key, album_key, id", "AND is_podcast = 0", "ord"),
        "artists": ("artists", "sort_key", "sort_key, name", "", "ord"),
        // Artists without the compilations' artists: few rows lack a position, so the walk past them is short.
        "artistsWithoutCompilations": ("artists", "sort_key", "sort_key, name", "", "solo_ord"),
        "albums": ("albums", "sort_key", "sort_key, title, id", "", "ord"),
        "genres": ("genres", "sort_key", "sort_key, name", "", "ord"),
        "composers": ("composers", "sort_key", "sort_key, name", "", "ord"),
        "podcastShows": ("podcast_shows", "sort_key", "sort_key, title", "", "ord"),
    ]

    /// The letter-jump block of the long lists from the sort-key index: two index lookups, whatever the
    /// list's length; other lists fall back to the port's binary search.
    public func initialBlock(containing index: Int, in list: BrowseList) throws -> Range<Int>? {
        let name: String
        switch list {
        case .songs: name = "songs"
        case .artists: name = "artists"
        case .artistsWithoutCompilations: name = "artistsWithoutCompilations"
        case .albums: name = "albums"
        case .genres: name = "genres"
        case .composers: name = "composers"
        case .podcastShows: name = "podcastShows"
        default: return try searchInitialBlock(containing: index, in: list)
        }
        let t = Self.sortedTables[name]!
        return try db.read { db in
            let countSQL = "SELECT ifnull(max(\(t.ord)) + 1, 0) FROM \(t.table)"
            let count = try Int.fetchOne(db.cachedStatement(sql: countSQL)) ?? 0
            let keySQL = "SELECT \(t.key) FROM \(t.table) WHERE \(t.ord) = ?"
            guard index >= 0, index < count,
                let key = try String.fetchOne(db.cachedStatement(sql: keySQL), arguments: [index])
            else { return nil }
            // The group of an initial is the key's class and first character (digits and symbols: one "#" group).
            let prefix = key.hasPrefix("2") ? "2" : String(key.prefix(2))
            let first = """
                SELECT \(t.ord) FROM \(t.table) WHERE \(t.key) >= ? AND \(t.ord) IS NOT NULL \(t.filter)
                ORDER BY \(t.order) LIMIT 1
                """
            let lower = try Int.fetchOne(db.cachedStatement(sql: first), arguments: [prefix]) ?? index
            let upper = try Int.fetchOne(db.cachedStatement(sql: first), arguments: [prefix + "\u{10FFFF}"]) ?? count
            return lower..<upper
        }
    }
}
