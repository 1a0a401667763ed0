/// A track's row id in the library.
public typealias TrackID = Int64

/// What the UI, playback and the MPD server know of one track.
public struct TrackInfo: Hashable, Sendable {
    public var id: TrackID
    /// Path relative to the music folder, UTF-8 (invalid bytes of a file name shown as U+FFFD).
    public var path: String
    public var title: String
    public var artist: String
    public var album: String
    public var albumArtist: String
    public var genre: String?
    public var composer: String?
    public var year: Int?
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var discNumber: Int?
    public var discTotal: Int?
    /// Exact (gapless) duration in milliseconds.
    public var durationMS: Int
    public var isPodcast: Bool
    /// Part of an audiobook (genre Audiobook, ID3 genre 183, or under a top `Audiobooks/` folder): resumes
    /// like an episode and plays at the spoken-word speed, as podcasts do.
    public var isAudiobook: Bool
    public var hasArtwork: Bool
    /// The album's row id (Browse Album from a song's context menu), nil when unknown.
    public var albumID: Int64?
    /// The artist's row id (Browse Artist), nil when unknown.
    public var artistID: Int64?
    /// The user's rating, 0…10: two per star (`Rating`), so a client's half star is kept.
    public var rating: Int

    public init(
        id: TrackID, path: String, title: String, artist: String, album: String, albumArtist: String,
        genre: String? = nil, composer: String? = nil, year: Int? = nil, trackNumber: Int? = nil,
        trackTotal: Int? = nil, discNumber: Int? = nil, discTotal: Int? = nil, durationMS: Int,
        isPodcast: Bool = false, isAudiobook: Bool = false, hasArtwork: Bool = false, albumID: Int64? = nil, artistID: Int64? = nil,
        rating: Int = 0
    ) {
        self.id = id
        self.path = path
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.genre = genre
        self.composer = composer
        self.year = year
        self.trackNumber = trackNumber
        self.trackTotal = trackTotal
        self.discNumber = discNumber
        self.discTotal = discTotal
        self.durationMS = durationMS
        self.isPodcast = isPodcast
        self.isAudiobook = isAudiobook
        self.hasArtwork = hasArtwork
        self.albumID = albumID
        self.artistID = artistID
        self.rating = rating
    }

    /// Spoken word: a podcast episode or an audiobook part. These resume where they were left and play at the
    /// spoken-word speed (Settings → Audiobooks).
    public var isSpokenWord: Bool { isPodcast || isAudiobook }
}
