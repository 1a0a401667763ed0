/// One line of the scrobble log: Rockbox's `.scrobbler.log` format (AUDIOSCROBBLER/1.1), which
/// scrobbling tools (QTScrobbler, rockbox-scrobbler, web uploaders) read and submit.
///
/// The file opens with three header lines (`header`), then one line per listen, tab-separated:
/// artist, album, title, track number (empty when unknown), length in whole seconds, `L` (listened:
/// played past the play-count mark) or `S` (skipped), the Unix time its play-through began (UTC), and
/// the MusicBrainz track id (empty when unknown). A tag's tabs and line breaks become spaces, so a
/// tag never breaks the line or shifts the columns.
public struct Scrobble: Hashable, Sendable {
    /// `L` or `S`.
    public enum Rating: String, Hashable, Sendable {
        case listened = "L"
        case skipped = "S"
    }

    public var artist: String
    public var album: String
    public var title: String
    public var trackNumber: Int?
    public var durationSeconds: Int
    public var rating: Rating
    /// Unix seconds (UTC) when its play-through began.
    public var startUnix: Int64
    public var musicBrainzTrackID: String?

    public init(
        artist: String, album: String, title: String, trackNumber: Int?, durationSeconds: Int, rating: Rating,
        startUnix: Int64, musicBrainzTrackID: String?
    ) {
        self.artist = artist
        self.album = album
        self.title = title
        self.trackNumber = trackNumber
        self.durationSeconds = durationSeconds
        self.rating = rating
        self.startUnix = startUnix
        self.musicBrainzTrackID = musicBrainzTrackID
    }

    /// The header a new (or empty) log begins with; `version` is ClickWheel's.
    public static func header(version: String) -> String {
        "#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/ClickWheel \(field(version))\n"
    }

    /// The listen's line, with its newline.
    public var line: String {
        let fields = [
            Self.field(artist), Self.field(album), Self.field(title), trackNumber.map { String($0) } ?? "",
            String(durationSeconds), rating.rawValue, String(startUnix), Self.field(musicBrainzTrackID ?? ""),
        ]
        return fields.joined(separator: "\t") + "\n"
    }

    /// `text` with every tab and line break (LF, CR, and Unicode's other line separators) as a space.
    static func field(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Self.breaksLine) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars { out.append(Self.breaksLine(s) ? " " : s) }
        return String(out)
    }

    private static func breaksLine(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
