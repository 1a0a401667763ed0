/// The library as the UI and the control server see it: lists read by index, never whole.
///
/// Implemented by `Library.LibraryStore` (SQLite through GRDB) and, for tests, by an in-memory twin.
/// Every list is ordered the way the iPod shows it (sort keys: case- and diacritic-insensitive,
/// leading articles ignored, numbers compared as numbers). Calls are synchronous and cheap: a page is
/// found through an index, never by a pass over the whole list (Search, which matches inside names,
/// is the one that scans), so the engine may read one on any wheel step (the budget and the figures:
/// contrib/bench/README.md, menu queries).
///
/// Thread rules: implementations are safe to call from any thread.
public protocol LibraryReading: Sendable {
    /// How many rows `list` has.
    func count(of list: BrowseList) throws -> Int
    /// The rows of `list` at `range` (clamped to the list's bounds).
    func rows(of list: BrowseList, in range: Range<Int>) throws -> [BrowseRow]
    /// Where the item with `id` sits in `list` now, or nil when it is gone (keeps a cursor on the same
    /// item when the library changes under it).
    func index(of id: Int64, in list: BrowseList) throws -> Int?
    /// The track ids of a song list, in list order (what "select a song" queues: ids only).
    func trackIDs(of list: BrowseList) throws -> [TrackID]
    /// Everything the Now Playing screen and the MPD server show of one track.
    func track(_ id: TrackID) throws -> TrackInfo?
    /// Counts for Settings → About and MPD's `stats`.
    func statistics() throws -> LibraryStatistics
    /// The rows of `list` that share row `index`'s initial letter (`BrowseRow.initial`), for the letter
    /// jump of a fast spin; nil when `index` is out of range. Lists sorted by name keep each initial's
    /// rows together. The default binary-searches through `rows(of:in:)`; a store with an index on the
    /// sort key answers in one lookup.
    func initialBlock(containing index: Int, in list: BrowseList) throws -> Range<Int>?
    /// A podcast's or audiobook's remembered place (`play_state.resume_ms`), nil when none or played.
    /// The default remembers nothing.
    func bookmark(of id: TrackID) throws -> Bookmark?
    /// A file's chapters in order (ID3v2 `CHAP`/`CTOC`), empty when it has none. The default has none.
    func chapters(of id: TrackID) throws -> [Chapter]
}

extension LibraryReading {
    public func bookmark(of id: TrackID) throws -> Bookmark? { nil }

    public func chapters(of id: TrackID) throws -> [Chapter] { [] }

    public func initialBlock(containing index: Int, in list: BrowseList) throws -> Range<Int>? {
        try searchInitialBlock(containing: index, in: list)
    }

    /// `initialBlock` by binary search through `rows(of:in:)`: for implementations without an index.
    public func searchInitialBlock(containing index: Int, in list: BrowseList) throws -> Range<Int>? {
        let count = try count(of: list)
        guard index >= 0, index < count, let here = try rows(of: list, in: index..<(index + 1)).first?.initial
        else { return nil }
        // First index of `range` whose initial satisfies `test` (monotonic over the range).
        func first(in range: Range<Int>, _ test: (Character) -> Bool) throws -> Int {
            var lo = range.lowerBound, hi = range.upperBound
            while lo < hi {
                let mid = (lo + hi) / 2
                if let initial = try rows(of: list, in: mid..<(mid + 1)).first?.initial, test(initial) {
                    hi = mid
                } else {
                    lo = mid + 1
                }
            }
            return lo
        }
        let start = try first(in: 0..<index) { $0 == here }
        let end = try first(in: (index + 1)..<count) { $0 != here }
        return start..<end
    }
}

/// A list the menus can show. The associated ids are row ids of the library's tables.
public enum BrowseList: Hashable, Sendable {
    case playlists
    case artists
    case albums
    case songs
    case genres
    case composers
    /// One of the iPod's smart playlists (Top 25 Most Played, Recently Added, …): computed live.
    case smart(SmartPlaylist)
    case podcastShows
    case albumsOfArtist(Int64)
    /// Every song of an artist, album by album ("All Songs" under an artist).
    case songsOfArtist(Int64)
    case songsOfAlbum(Int64)
    case artistsOfGenre(Int64)
    case albumsOfGenreArtist(genre: Int64, artist: Int64)
    case songsOfGenre(Int64)
    case songsOfComposer(Int64)
    case episodesOfShow(Int64)
    case songsOfPlaylist(Int64)
    /// Artists, then albums, then songs whose name contains `text` (compared by sort key: case and
    /// accents ignored), for Music → Search.
    case search(String)
    /// Music → Compilations: the compilation albums (TCMP=1), in Albums order.
    case compilations
    /// Artists while compilations are kept apart (the iPod's default): the artists with at least one
    /// song that is not on a compilation, so Various Artists and an album artist of compilations alone
    /// are left out; `artists` keeps them all.
    case artistsWithoutCompilations
    /// Music → Audiobooks: the books (albums of audiobook parts), by title; rows of kind `.album` with
    /// `progress`.
    case audiobooks
    /// A book's parts in order (disc, track, title), as rows of kind `.episode` (played marks).
    case partsOfBook(Int64)
}

/// One row of a list: what a menu line shows plus what selecting it needs.
public struct BrowseRow: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case artist, album, song, genre, composer, playlist, podcastShow, episode }
    public var id: Int64
    public var kind: Kind
    public var title: String
    /// A second line where the layout has room (the artist of a song, an album's artist, …).
    public var detail: String?
    /// The first character of the sort key, upper-cased ("#" for digits and symbols): the letter-jump key.
    public var initial: Character
    /// Unplayed episodes of a show, or 1 for an unplayed episode.
    public var unplayed: Int
    /// True for an episode that was started and not finished.
    public var partlyPlayed: Bool
    /// A song's rating, 0…10 (two per star; `Rating`), where the list shows it (My Top Rated), else 0.
    public var rating: Int
    /// A book's listened share in percent (finished parts whole, started ones to their place), nil elsewhere.
    public var progress: Int?

    public init(
        id: Int64, kind: Kind, title: String, detail: String? = nil, initial: Character, unplayed: Int = 0,
        partlyPlayed: Bool = false, rating: Int = 0, progress: Int? = nil
    ) {
        self.rating = rating
        self.progress = progress
        self.id = id
        self.kind = kind
        self.title = title
        self.detail = detail
        self.initial = initial
        self.unplayed = unplayed
        self.partlyPlayed = partlyPlayed
    }
}

/// Library-wide counts.
public struct LibraryStatistics: Hashable, Sendable {
    public var songs: Int
    public var albums: Int
    public var artists: Int
    public var podcastEpisodes: Int
    /// Sum of all durations, milliseconds.
    public var totalDurationMS: Int64

    public init(songs: Int, albums: Int, artists: Int, podcastEpisodes: Int, totalDurationMS: Int64) {
        self.songs = songs
        self.albums = albums
        self.artists = artists
        self.podcastEpisodes = podcastEpisodes
        self.totalDurationMS = totalDurationMS
    }
}
