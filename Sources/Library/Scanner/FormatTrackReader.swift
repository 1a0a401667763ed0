import AudioFormats
import ClickWheelCore
import Mpg123

/// Reads a FLAC, Ogg (Vorbis, Opus), MP4 (AAC, ALAC), WAV or AIFF file into `TrackMetadata` through the
/// project's own format readers: tags, the exact length, artwork and chapters, reading only the ranges
/// those need (the headers, an MP4's `moov` wherever it lies, an Ogg stream's last page).
///
/// Thread rules: any scanning thread (it keeps no state). Never throws for a bad file: the outcome says
/// why it was skipped.
enum FormatTrackReader {
    /// `id3` reads the ID3v2 tag a WAV or AIFF file holds in a chunk (the MP3 reader's libmpg123).
    static func read(
        _ file: FileReader, relativePath: String, feed: Podcasts.FeedEpisode? = nil,
        id3: (Range<Int>) -> ID3v2Tag? = { _ in nil }
    ) -> TrackReader.Outcome {
        let info: AudioFileInfo
        do {
            info = try AudioFileReader.read(FileSource(file: file))
        } catch {
            return .skipped(ScanProblem(error.kind == "io" ? "unreadable" : error.kind, error.reason))
        }
        guard info.sampleRate > 0, info.channels > 0 else {
            return .skipped(ScanProblem("damaged", "no sample rate or channel count in the stream's header"))
        }
        var m = TrackMetadata()
        m.sampleRate = info.sampleRate
        m.channels = info.channels
        m.bitrate = info.bitrate
        m.isVBR = [.vorbis, .opus, .aac].contains(info.codec)
        m.sampleFormat = sampleFormat(info)
        if let samples = info.samples {
            m.samples = samples
        } else {
            m.problems.append(ScanProblem("length-unknown", "the file does not say how long it is"))
        }
        for p in info.problems where p.kind != "invalid-text" { m.problems.append(ScanProblem(p.kind, p.reason)) }
        let suffix = FormatCatalog.suffix(of: relativePath.utf8)
        FormatTagMapping.apply(info, suffix: suffix, to: &m)
        // WAV and AIFF may carry an ID3v2 tag in a chunk (iTunes writes AIFF's so): it wins over RIFF INFO.
        if let range = info.id3Range, let tag = id3(range) {
            let format = m.tagFormat
            TagMapping.apply(tag, layout: nil, to: &m)
            if format != "none" { m.tagFormat = format + "+" + m.tagFormat }
        }
        Podcasts.classify(relativePath: relativePath, &m, feed: feed)
        Audiobooks.classify(relativePath: relativePath, &m)
        PathHints.apply(relativePath: relativePath, to: &m)
        m.chapters = FormatTagMapping.chapters(info, durationMS: m.durationMS)
        if m.album.isEmpty { m.album = LibraryNames.unknownAlbum }
        if m.artists.isEmpty { m.artists = [LibraryNames.unknownArtist] }
        return .track(m)
    }

    /// MPD's sample format field for the file's audio: floats for float PCM and the lossy codecs (MPD's
    /// decoders give floats for them), else the stream's bits; nil for 16 bits, the column's default.
    static func sampleFormat(_ info: AudioFileInfo) -> String? {
        if info.isFloat || [.vorbis, .opus, .aac].contains(info.codec) { return "f" }
        guard let bits = info.bitsPerSample, bits != 16 else { return nil }
        return String(bits)
    }

    /// The scanner's positioned reads as the format readers' `ByteSource`.
    struct FileSource: ByteSource {
        let file: FileReader
        var size: Int { file.size }

        func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
            guard offset >= 0 else { return [] }
            do {
                return try file.read(at: offset, count: count)
            } catch {
                guard case .io(let reason) = error else { throw FormatError("io", "\(error)") }
                throw FormatError("io", reason)
            }
        }
    }
}
