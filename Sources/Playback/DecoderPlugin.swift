public import AudioFormats

/// One decoder plugin, MPD-style: a name, the file suffixes and MIME types it plays, how to recognise
/// its files by their first bytes, and how to open one. The MPD `decoders` command prints the table;
/// the library's index picks the files it scans by the suffixes.
///
/// Thread rules: a value (`Sendable`); `open` runs on the audio thread, the rest anywhere.
public struct DecoderPlugin: Sendable {
    /// Its name, suffixes and MIME types (`FormatCatalog`, which the index and `decoders` read too).
    public let entry: FormatCatalog.Plugin
    /// MPD's plugin name (`mpg123`, `flac`, `vorbis`, `opus`, `ffmpeg`, `pcm`).
    public var name: String { entry.name }
    /// Lower-case file suffixes without the dot, in the order `decoders` lists them.
    public var suffixes: [String] { entry.suffixes }
    public var mimeTypes: [String] { entry.mimeTypes }
    /// Whether a file's first bytes (after any ID3v2 tag) are this plugin's: true, false, or nil when the
    /// format has no signature to tell (MPEG audio without a tag).
    let claims: @Sendable (FileHead) -> Bool?
    /// Opens a track with Sound Check on or off, given its first bytes.
    let open: @Sendable (AudioTrack, _ soundCheck: Bool, FileHead) throws(PlaybackError) -> any TrackDecoder
}

/// The first bytes of a file, for telling formats apart: past an ID3v2 tag when there is one (some FLAC
/// and WAV files carry one in front).
struct FileHead: Sendable {
    /// The bytes after the ID3v2 tag (or from the start), up to 64.
    var bytes: [UInt8]
    /// True when the file starts with an ID3v2 tag.
    var id3: Bool

    /// True when `signature` (ASCII) is at `offset`.
    func has(_ signature: String, at offset: Int = 0) -> Bool {
        let s = Array(signature.utf8)
        return bytes.count >= offset + s.count && Array(bytes[offset..<offset + s.count]) == s
    }
}
