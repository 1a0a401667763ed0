/// The formats ClickWheel plays, as data: one entry per decoder plugin with its file suffixes and MIME
/// types (what MPD's `decoders` command lists and the index's folder walk takes), and the audio formats
/// it knows it does not play (reported by `index --report`, not passed over in silence).
///
/// The decoders themselves live in Playback (`Decoders`), which opens a file by these entries; the
/// table is here, in the lowest layer, so the library and the control server read the same one.
public enum FormatCatalog {
    /// One decoder plugin, MPD-style.
    public struct Plugin: Hashable, Sendable {
        /// MPD's plugin name (`mpg123`, `flac`, `vorbis`, `opus`, `ffmpeg`, `pcm`).
        public let name: String
        /// Lower-case file suffixes without the dot, in the order `decoders` lists them.
        public let suffixes: [String]
        public let mimeTypes: [String]
    }

    public static let mpg123 = Plugin(name: "mpg123", suffixes: ["mp3"], mimeTypes: ["audio/mpeg"])
    public static let flac = Plugin(name: "flac", suffixes: ["flac"], mimeTypes: ["audio/flac", "audio/x-flac"])
    public static let vorbis = Plugin(
        name: "vorbis", suffixes: ["ogg", "oga"],
        mimeTypes: ["audio/ogg", "application/ogg", "audio/vorbis", "audio/x-vorbis+ogg"])
    public static let opus = Plugin(name: "opus", suffixes: ["opus", "ogg", "oga"], mimeTypes: ["audio/opus", "audio/ogg"])
    public static let ffmpeg = Plugin(
        name: "ffmpeg", suffixes: ["m4a", "m4b", "mp4", "aac"],
        mimeTypes: ["audio/mp4", "audio/m4a", "audio/x-m4a", "audio/x-m4b", "audio/aac", "audio/aacp"])
    public static let pcm = Plugin(
        name: "pcm", suffixes: ["wav", "aif", "aiff", "aifc"],
        mimeTypes: ["audio/wav", "audio/x-wav", "audio/aiff", "audio/x-aiff"])

    /// Every plugin, in the order `decoders` lists them.
    public static let plugins: [Plugin] = [mpg123, flac, vorbis, opus, ffmpeg, pcm]

    /// Every suffix some plugin plays.
    public static let playableSuffixes: Set<String> = Set(plugins.flatMap(\.suffixes))

    /// Audio formats met in real libraries that ClickWheel does not play, by suffix, with a name a
    /// person knows them by (MPD plays some through plugins ClickWheel does not have).
    public static let unplayable: [String: String] = [
        "wma": "Windows Media Audio", "asf": "Windows Media Audio", "ape": "Monkey's Audio", "wv": "WavPack",
        "mpc": "Musepack", "mp+": "Musepack", "m4p": "iTunes Store audio with DRM", "dsf": "DSD (DSF)",
        "dff": "DSD (DFF)", "mka": "Matroska audio", "ra": "RealAudio", "rm": "RealAudio", "mid": "MIDI",
        "midi": "MIDI", "mod": "a tracker module", "xm": "a tracker module", "it": "a tracker module",
        "s3m": "a tracker module", "amr": "AMR speech", "ac3": "Dolby Digital", "dts": "DTS",
        "mp2": "MPEG layer II", "spx": "Speex", "tta": "True Audio", "shn": "Shorten", "au": "Sun audio",
    ]

    /// The lower-case suffix of a file name (raw bytes), without the dot; empty when it has none.
    public static func suffix(of name: some BidirectionalCollection<UInt8>) -> String {
        guard let dot = name.lastIndex(of: 0x2E) else { return "" }
        let tail = name[name.index(after: dot)...]
        guard !tail.isEmpty, tail.count <= 8, !tail.contains(0x2F) else { return "" }
        return String(decoding: tail.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
