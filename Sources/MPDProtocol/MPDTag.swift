/// The song tags MPD 0.23 knows, with their wire spelling.
///
/// Input is matched ignoring ASCII case everywhere (`list artist`, `tagtypes enable TITLE`);
/// output always uses `name`. `Comment` exists but is not among the 30 that `tagtypes` lists.
public enum MPDTag: String, Sendable, Hashable, CaseIterable {
    case artist = "Artist"
    case artistSort = "ArtistSort"
    case album = "Album"
    case albumSort = "AlbumSort"
    case albumArtist = "AlbumArtist"
    case albumArtistSort = "AlbumArtistSort"
    case title = "Title"
    case track = "Track"
    case name = "Name"
    case genre = "Genre"
    case date = "Date"
    case originalDate = "OriginalDate"
    case composer = "Composer"
    case composerSort = "ComposerSort"
    case performer = "Performer"
    case conductor = "Conductor"
    case work = "Work"
    case movement = "Movement"
    case movementNumber = "MovementNumber"
    case ensemble = "Ensemble"
    case location = "Location"
    case grouping = "Grouping"
    case comment = "Comment"
    case disc = "Disc"
    case label = "Label"
    case musicBrainzArtistID = "MUSICBRAINZ_ARTISTID"
    case musicBrainzAlbumID = "MUSICBRAINZ_ALBUMID"
    case musicBrainzAlbumArtistID = "MUSICBRAINZ_ALBUMARTISTID"
    case musicBrainzTrackID = "MUSICBRAINZ_TRACKID"
    case musicBrainzReleaseTrackID = "MUSICBRAINZ_RELEASETRACKID"
    case musicBrainzWorkID = "MUSICBRAINZ_WORKID"

    /// The wire spelling, e.g. `AlbumArtist`.
    public var name: String { rawValue }

    /// The tags `tagtypes` lists by default, in MPD's order (every tag but `Comment`).
    public static let tagtypes: [MPDTag] = allCases.filter { $0 != .comment }

    /// Looks a tag up by name, ignoring ASCII case.
    public init?(name: MPDArgument) {
        guard let tag = MPDTag.allCases.first(where: { name.equalsIgnoringCase($0.rawValue) }) else { return nil }
        self = tag
    }

    /// Looks a tag up by name, ignoring ASCII case.
    public init?(name: String) {
        self.init(name: MPDArgument(name))
    }
}
