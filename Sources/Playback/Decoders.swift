import AudioFormats

/// The decoder plugins, one per library or file format, and the choice of one for a file.
///
/// A file is opened by the plugin of its suffix unless its first bytes say it is another plugin's
/// format (a `.mp3` that is FLAC, an `.ogg` holding Opus); a file whose suffix no plugin has goes by its
/// first bytes alone. When the chosen plugin cannot open the file, one its bytes point to is tried.
///
/// Thread rules: the table is constant (any thread); `open` on the audio thread.
public enum Decoders {
    /// Every plugin, in the order the MPD `decoders` command lists them.
    public static let all: [DecoderPlugin] = [
        DecoderPlugin(
            entry: FormatCatalog.mpg123,
            claims: { head in
                if FileSignature.isOtherContainer(head) { return false }
                return head.id3 ? true : nil
            },
            open: { track, soundCheck, _ throws(PlaybackError) in try Mpg123Decoder(track, soundCheck: soundCheck) }),
        DecoderPlugin(
            entry: FormatCatalog.flac,
            claims: { $0.has("fLaC") || ($0.has("OggS") && $0.has("\u{7F}FLAC", at: 28)) },
            open: { track, soundCheck, head throws(PlaybackError) in
                try FLACDecoder(track, soundCheck: soundCheck, ogg: head.has("OggS"))
            }),
        DecoderPlugin(
            entry: FormatCatalog.vorbis,
            claims: { $0.has("OggS") && $0.has("\u{01}vorbis", at: 28) },
            open: { track, soundCheck, _ throws(PlaybackError) in try VorbisDecoder(track, soundCheck: soundCheck) }),
        DecoderPlugin(
            entry: FormatCatalog.opus,
            claims: { $0.has("OggS") && $0.has("OpusHead", at: 28) },
            open: { track, soundCheck, _ throws(PlaybackError) in try OpusDecoder(track, soundCheck: soundCheck) }),
        DecoderPlugin(
            entry: FormatCatalog.ffmpeg,
            claims: { $0.has("ftyp", at: 4) || FileSignature.isADTS($0) },
            open: { track, soundCheck, _ throws(PlaybackError) in try FFmpegDecoder(track, soundCheck: soundCheck) }),
        DecoderPlugin(
            entry: FormatCatalog.pcm,
            claims: {
                ($0.has("RIFF") && $0.has("WAVE", at: 8))
                    || ($0.has("FORM") && ($0.has("AIFF", at: 8) || $0.has("AIFC", at: 8)))
            },
            open: { track, soundCheck, _ throws(PlaybackError) in try PCMDecoder(track, soundCheck: soundCheck) }),
    ]

    /// The plugin called `name`.
    public static func plugin(named name: String) -> DecoderPlugin? { all.first { $0.name == name } }

    /// The first plugin that plays files ending in `.suffix` (any case).
    public static func plugin(forSuffix suffix: String) -> DecoderPlugin? {
        let s = suffix.lowercased()
        return all.first { $0.suffixes.contains(s) }
    }

    /// Every suffix some plugin plays (for the index's choice of files).
    public static let suffixes: Set<String> = Set(all.flatMap(\.suffixes))

    /// Opens `track` with the plugin its suffix and first bytes choose (see the type's comment).
    static func open(_ track: AudioTrack, soundCheck: Bool) throws(PlaybackError) -> any TrackDecoder {
        let head = try FileSignature.head(of: track)
        let suffix = FileSignature.suffix(of: track.pathBytes)
        let bySuffix = all.filter { $0.suffixes.contains(suffix) && $0.claims(head) != false }
        let byBytes = all.filter { $0.claims(head) == true }
        var candidates: [DecoderPlugin] = []
        for p in bySuffix + byBytes where !candidates.contains(where: { $0.name == p.name }) { candidates.append(p) }
        guard !candidates.isEmpty else {
            let known = all.contains { $0.suffixes.contains(suffix) }
            throw PlaybackError(
                known
                    ? "\(track.path) is not a .\(suffix) file (its first bytes are no format ClickWheel plays)"
                    : "\(track.path): no decoder for this file (unknown suffix and first bytes)")
        }
        var firstError: PlaybackError?
        for plugin in candidates {
            do {
                return try plugin.open(track, soundCheck, head)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError!
    }
}
