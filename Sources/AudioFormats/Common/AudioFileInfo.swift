/// What a format reader learns about one file: the stream's facts, its exact length, its tags,
/// pictures and chapters. Pure data: the library maps it onto its own track record.
public struct AudioFileInfo: Equatable, Sendable {
    /// The container the file is (`flac`, `ogg`, `mp4`, `wav`, `aiff`).
    public var container: Container
    /// The codec inside it.
    public var codec: Codec
    public var sampleRate = 0
    public var channels = 0
    /// Bits per sample of a lossless or PCM stream (16, 24, 32); nil for a lossy one.
    public var bitsPerSample: Int?
    /// PCM samples are IEEE floats (WAV format 3, AIFF-C `fl32`/`fl64`).
    public var isFloat = false
    /// The exact playable length in samples per channel, after the encoder's delay and padding
    /// (what a gapless decoder yields); nil when the file does not say and it was not counted.
    public var samples: Int64?
    /// Samples per channel the decoder yields first and a gapless player drops (AAC priming, Opus pre-skip).
    public var encoderDelay = 0
    /// Samples per channel at the end that are padding.
    public var padding = 0
    /// Opus's output gain from `OpusHead` (Q7.8 dB: 256 is +1 dB), which a player applies on top of any
    /// ReplayGain or R128 gain; 0 for every other codec.
    public var outputGainQ78 = 0
    /// Average bitrate in kbit/s of the audio data (0 when unknown).
    public var bitrate = 0
    /// The tags, in the order found; a key may repeat (multiple values).
    public var tags: [Tag] = []
    /// Embedded pictures (`covr`, FLAC `PICTURE`, `METADATA_BLOCK_PICTURE`), in the order found.
    public var pictures: [Picture] = []
    /// Chapters in time order (MP4 `chpl` or a QuickTime chapter track).
    public var chapters: [FormatChapter] = []
    /// Where an ID3v2 tag sits inside the file (a WAV `id3 ` chunk, an AIFF `ID3 ` chunk): the library's
    /// ID3 reader reads it there.
    public var id3Range: Range<Int>?
    /// PCM only (WAV, AIFF): where the sample bytes lie (the `data` / `SSND` chunk's samples, clamped
    /// to the file), and their byte order (AIFF and AIFF-C `NONE`/`twos` big-endian; WAV and AIFF-C
    /// `sowt` little-endian). The project's PCM decoder plays exactly this range.
    public var dataRange: Range<Int>?
    public var bigEndian = false
    /// Problems that did not stop reading: (kind, reason), as the library's scan report lists them.
    public var problems: [FormatError] = []

    public init(container: Container, codec: Codec) {
        self.container = container
        self.codec = codec
    }

    /// The values of `key`, in order.
    public func values(_ key: TagKey) -> [String] { tags.filter { $0.key == key }.map(\.value) }
    /// The first value of `key`.
    public func first(_ key: TagKey) -> String? { tags.first { $0.key == key }?.value }

    public enum Container: String, Sendable, CaseIterable {
        case flac, ogg, mp4, wav, aiff
    }

    public enum Codec: String, Sendable, CaseIterable {
        case flac, vorbis, opus, aac, alac, pcm
    }
}

/// One tag value under a format-independent key. Values are text as the file holds them, trimmed of
/// NULs; numbers stay text ("3/12", "-6.50 dB"), the library parses them as it does ID3's.
public struct Tag: Hashable, Sendable {
    public var key: TagKey
    public var value: String
    public init(_ key: TagKey, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// The tag keys every format maps onto (MP4 atoms, Vorbis comment fields, RIFF INFO ids).
public enum TagKey: Hashable, Sendable {
    case title, artist, album, albumArtist, genre, composer, comment, date, grouping, lyrics
    /// As the file writes them: "3", or "3/12" where a Vorbis comment says so; MP4's `trkn` and `disk`
    /// give the number and the total as two keys.
    case trackNumber, trackTotal, discNumber, discTotal
    /// "1" for a compilation (MP4 `cpil`, Vorbis `COMPILATION`).
    case compilation
    case sortTitle, sortArtist, sortAlbum, sortAlbumArtist, sortComposer
    case bpm
    /// ReplayGain as written ("-6.50 dB", "0.988").
    case replayGainTrackGain, replayGainTrackPeak, replayGainAlbumGain, replayGainAlbumPeak
    /// Opus's R128 gains (Q7.8 dB integers as text, relative to -23 LUFS).
    case r128TrackGain, r128AlbumGain
    /// iTunes's Sound Check (`----:com.apple.iTunes:iTunNORM`): ten hex words.
    case iTunesNormalization
    case musicBrainzTrackID, musicBrainzAlbumID, musicBrainzArtistID, musicBrainzAlbumArtistID
    /// MP4 `stik` as its number ("1" music, "2" audiobook, "21" podcast, …).
    case mediaKind
    /// "1" when MP4 `pcst` is set.
    case podcast
    case podcastURL, podcastDescription, releaseDate
    /// Any other field, by its name as written (Vorbis field names upper-cased; MP4 freeform `----`
    /// atoms as "mean:name", e.g. "com.apple.iTunes:MOOD").
    case other(String)
}

/// An embedded picture: where its bytes are (a range of the file, or the bytes themselves when the
/// file stores it encoded, e.g. base64 in a Vorbis comment), its MIME type and its ID3/FLAC picture type.
public struct Picture: Hashable, Sendable {
    public enum Location: Hashable, Sendable {
        case range(Range<Int>)
        case bytes([UInt8])
    }
    public var location: Location
    public var mime: String
    /// The ID3/FLAC picture type (3: front cover); MP4 `covr` counts as 3.
    public var type: Int
    public init(location: Location, mime: String, type: Int) {
        self.location = location
        self.mime = mime
        self.type = type
    }
}

/// A chapter as the file writes it: where it starts (ms) and its title.
public struct FormatChapter: Hashable, Sendable {
    public var startMS: Int
    public var title: String
    public init(startMS: Int, title: String) {
        self.startMS = startMS
        self.title = title
    }
}
