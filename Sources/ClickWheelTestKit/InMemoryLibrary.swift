public import ClickWheelCore
import Synchronization

/// An in-memory twin of the SQLite library: the same `LibraryReading` contract over fixture tracks.
///
/// Lists are derived from the tracks the way the store derives them (iPod sort keys, songs of an
/// artist album by album, episodes newest first) and memoised until the next change. Counts every
/// `rows` call and the widest range asked for, so tests can check that menus read pages, not lists.
///
/// Thread rules: safe from any thread (one mutex around the state).
public final class InMemoryLibrary: LibraryReading {
    private struct State: Sendable {
        var tracks: [FixtureTrack] = []
        var playlists: [(name: String, tracks: [TrackID])] = []
        var ratings: [TrackID: Int] = [:]
        /// Play counts and the order of the last plays (a counter standing for the time).
        var plays: [TrackID: Int] = [:]
        var lastPlayed: [TrackID: Int] = [:]
        var playClock = 0
        var bookmarks: [TrackID: Bookmark] = [:]
        var memo: [BrowseList: [BrowseRow]] = [:]
        var model: Model?
        var rowCalls = 0
        var widestRange = 0
    }

    private let state: Mutex<State>

    public init(tracks: [FixtureTrack], playlists: [(name: String, tracks: [TrackID])] = []) {
        state = Mutex(State(tracks: tracks, playlists: playlists))
    }

    /// How many times `rows` was called, and the widest range asked for.
    public var rowReads: (calls: Int, widest: Int) {
        state.withLock { ($0.rowCalls, $0.widestRange) }
    }

    /// Changes the tracks (as a rescan would); ids are positions + 1, so keep earlier tracks in place
    /// to keep their ids.
    public func replaceTracks(_ tracks: [FixtureTrack]) {
        state.withLock {
            $0.tracks = tracks
            $0.memo = [:]
            $0.model = nil
        }
    }

    /// Stores a rating, 0…10 (what the shell does with `Effect.rate`).
    public func rate(_ id: TrackID, rating: Int) {
        state.withLock { $0.ratings[id] = rating }
    }

    /// Counts a play (what the shell does with `Effect.played`).
    public func played(_ id: TrackID) {
        state.withLock {
            $0.plays[id, default: 0] += 1
            $0.playClock += 1
            $0.lastPlayed[id] = $0.playClock
        }
    }

    /// Stores (nil: forgets) a podcast's place (what the shell does with `Effect.bookmark`).
    public func setBookmark(_ id: TrackID, _ bookmark: Bookmark?) {
        state.withLock { $0.bookmarks[id] = bookmark }
    }

    public func bookmark(of id: TrackID) throws -> Bookmark? {
        state.withLock { $0.bookmarks[id] }
    }

    public func count(of list: BrowseList) throws -> Int {
        state.withLock { Self.rows(of: list, in: &$0).count }
    }

    public func rows(of list: BrowseList, in range: Range<Int>) throws -> [BrowseRow] {
        state.withLock {
            $0.rowCalls += 1
            $0.widestRange = max($0.widestRange, range.count)
            let all = Self.rows(of: list, in: &$0)
            let r = range.clamped(to: 0..<all.count)
            return Array(all[r])
        }
    }

    public func index(of id: Int64, in list: BrowseList) throws -> Int? {
        state.withLock { Self.rows(of: list, in: &$0).firstIndex { $0.id == id } }
    }

    public func trackIDs(of list: BrowseList) throws -> [TrackID] {
        state.withLock { s in
            Self.rows(of: list, in: &s).filter { $0.kind == .song || $0.kind == .episode }.map(\.id)
        }
    }

    public func track(_ id: TrackID) throws -> TrackInfo? {
        state.withLock { s in
            guard id >= 1, id <= s.tracks.count else { return nil }
            let t = s.tracks[Int(id) - 1]
            let model = Self.model(&s)
            return TrackInfo(
                id: id, path: "\(t.artist)/\(t.album)/\(t.trackNumber) \(t.title).mp3", title: t.title,
                artist: t.artist, album: t.album, albumArtist: t.artist, genre: t.genre, composer: t.composer,
                trackNumber: t.trackNumber, durationMS: t.durationMS, isPodcast: t.isPodcast,
                isAudiobook: t.isAudiobook,
                albumID: model.albumIDs[Model.albumKey(t)], artistID: model.artistIDs[t.artist],
                rating: s.ratings[id] ?? 0)
        }
    }

    public func chapters(of id: TrackID) throws -> [Chapter] {
        state.withLock { s in id >= 1 && id <= s.tracks.count ? s.tracks[Int(id) - 1].chapters : [] }
    }

    public func statistics() throws -> LibraryStatistics {
        state.withLock { s in
            let music = s.tracks.filter { !$0.isPodcast }
            return LibraryStatistics(
                songs: music.filter { !$0.isAudiobook }.count, albums: Set(music.map(\.album)).count,
                artists: Set(music.map(\.artist)).count, podcastEpisodes: s.tracks.count - music.count,
                totalDurationMS: s.tracks.reduce(0) { $0 + Int64($1.durationMS) })
        }
    }

    /// The smart playlists from the plays and ratings kept here (never memoised: they change with them).
    private static func smartRows(_ smart: SmartPlaylist, in s: inout State) -> [BrowseRow] {
        let songs = rows(of: .songs, in: &s)
        let (plays, last, ratings) = (s.plays, s.lastPlayed, s.ratings)
        switch smart {
        case .mostPlayed:
            return Array(songs.filter { plays[$0.id, default: 0] > 0 }.sorted {
                (plays[$0.id]!, last[$0.id] ?? 0, -$0.id) > (plays[$1.id]!, last[$1.id] ?? 0, -$1.id)
            }.prefix(SmartPlaylist.shortLength))
        case .recentlyPlayed:
            return Array(songs.filter { last[$0.id] != nil }.sorted { last[$0.id]! > last[$1.id]! }
                .prefix(SmartPlaylist.shortLength))
        case .topRated:
            return songs.filter { ratings[$0.id, default: 0] >= Rating.topRatedMinimum }.sorted {
                (ratings[$0.id]!, plays[$0.id, default: 0], -$0.id) > (ratings[$1.id]!, plays[$1.id, default: 0], -$1.id)
            }.map { var row = $0; row.rating = ratings[$0.id]!; return row }
        case .neverPlayed:
            return songs.filter { plays[$0.id, default: 0] == 0 }
        case .recentlyAdded:
            return rows(of: .smart(.recentlyAdded), in: &s)
        }
    }

    private static func model(_ s: inout State) -> Model {
        if let m = s.model { return m }
        let m = Model(s.tracks)
        s.model = m
        return m
    }

    private static func rows(of list: BrowseList, in s: inout State) -> [BrowseRow] {
        if case .smart(let smart) = list, smart != .recentlyAdded { return smartRows(smart, in: &s) }
        if let rows = s.memo[list] { return rows }
        let rows = model(&s).rows(of: list, playlists: s.playlists)
        s.memo[list] = rows
        return rows
    }
}
