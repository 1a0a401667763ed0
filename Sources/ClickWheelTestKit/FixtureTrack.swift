public import ClickWheelCore

/// One track of an in-memory library, as a fixture declares it.
public struct FixtureTrack: Hashable, Sendable {
    public var title: String
    public var artist: String
    public var album: String
    public var genre: String
    public var composer: String?
    public var trackNumber: Int
    public var durationMS: Int
    public var isPodcast: Bool
    /// For episodes: never played (the blue dot) and started but not finished.
    public var unplayed: Bool
    public var partlyPlayed: Bool
    /// On a compilation (TCMP=1): listed under Music → Compilations, and its artist left out of Artists
    /// unless every other song of theirs is too.
    public var isCompilation: Bool
    /// A part of an audiobook (its album is the book): out of Songs, in Music → Audiobooks.
    public var isAudiobook: Bool
    /// For a partly played episode or part: how far it was listened to (its book's progress counts it).
    public var positionMS: Int
    /// The file's chapters (empty: none).
    public var chapters: [Chapter]

    public init(
        title: String, artist: String, album: String, genre: String = "Rock", composer: String? = nil,
        trackNumber: Int = 1, durationMS: Int = 200_000, isPodcast: Bool = false, unplayed: Bool = false,
        partlyPlayed: Bool = false, isCompilation: Bool = false, isAudiobook: Bool = false, positionMS: Int = 0,
        chapters: [Chapter] = []
    ) {
        self.isAudiobook = isAudiobook
        self.positionMS = positionMS
        self.chapters = chapters
        self.title = title
        self.artist = artist
        self.album = album
        self.genre = genre
        self.composer = composer
        self.trackNumber = trackNumber
        self.durationMS = durationMS
        self.isPodcast = isPodcast
        self.unplayed = unplayed
        self.partlyPlayed = partlyPlayed
        self.isCompilation = isCompilation
    }
}
