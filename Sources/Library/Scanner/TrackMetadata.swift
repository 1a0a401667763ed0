public import ClickWheelCore

/// Everything the indexer learns about one audio file: tags (after fallbacks), stream facts, problems.
public struct TrackMetadata: Equatable, Sendable {
    public var title = ""
    public var artists: [String] = []
    public var album = ""
    public var albumArtists: [String] = []
    public var genres: [String] = []
    public var composers: [String] = []
    public var comment: String?
    public var year: Int?
    public var date: String?
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var discNumber: Int?
    public var discTotal: Int?
    public var isCompilation = false
    public var sortTitle: String?
    public var sortArtist: String?
    public var sortAlbum: String?
    public var sortAlbumArtist: String?
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?
    public var musicBrainzTrackID: String?
    public var tagFormat = "none"

    public var isPodcast = false
    public var podcastShow: String?
    public var releaseDate: String?
    public var podcastDescription: String?
    public var feedURL: String?

    /// Part of an audiobook (`Audiobooks.classify`).
    public var isAudiobook = false
    /// ID3v2 chapters, in time order (`ChapterFrames.normalized`); empty when the file has none.
    public var chapters: [Chapter] = []

    public var hasArtwork = false
    public var artworkMIME: String?
    public var artworkOffset: Int?
    public var artworkSize: Int?

    /// Exact gapless length in samples per channel.
    public var samples: Int64 = 0
    public var sampleRate = 0
    public var channels = 0
    /// MPD's sample format field ("24", "f"; see Migrations/0008_formats.sql); nil: 16 bits (MP3).
    public var sampleFormat: String?
    /// Average bitrate in kbit/s.
    public var bitrate = 0
    public var isVBR = false

    /// Problems that did not stop indexing: (kind, reason), e.g. ("junk-before-audio", "70000 bytes …").
    public var problems: [ScanProblem] = []

    public init() {}

    /// Length in milliseconds, rounded.
    public var durationMS: Int {
        sampleRate > 0 ? Int((samples * 1000 + Int64(sampleRate / 2)) / Int64(sampleRate)) : 0
    }

    /// The artist the Artists menu files this track under: the album artist, else the first artist.
    public var menuArtist: String {
        if let a = albumArtists.first, !a.isEmpty { return a }
        if isCompilation { return LibraryNames.variousArtists }
        return artists.first ?? LibraryNames.unknownArtist
    }

    /// A hash of the tags and the length that identifies the same recording under another path.
    public var fingerprint: Int64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ s: String) {
            for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            h = (h ^ 0x1F) &* 0x0000_0100_0000_01B3
        }
        mix(title)
        mix(artists.joined(separator: "\u{1E}"))
        mix(album)
        mix(String(trackNumber ?? 0))
        mix(String(discNumber ?? 0))
        mix(String(samples))
        return Int64(bitPattern: h)
    }
}

/// A file that was skipped, or indexed with a problem, and why.
public struct ScanProblem: Equatable, Sendable, Codable {
    /// A stable keyword: empty, not-audio, appledouble, unreadable, vanished, unsupported-format (a
    /// format ClickWheel does not play), unsupported (a codec or variant of a format it does), damaged
    /// (skipped); junk-before-audio, truncated, invalid-text, tag-overflow, invalid-filename,
    /// length-unknown, damaged (indexed).
    public var kind: String
    /// One line for a person.
    public var reason: String

    public init(_ kind: String, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
}

/// Names the library uses where tags say nothing.
public enum LibraryNames {
    public static let unknownArtist = "Unknown Artist"
    public static let unknownAlbum = "Unknown Album"
    public static let variousArtists = "Various Artists"
}
