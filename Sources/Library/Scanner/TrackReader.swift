import AudioFormats
import Glibc
import Mpg123

/// Reads one audio file into `TrackMetadata`: FLAC, Ogg, MP4, WAV and AIFF (known by their first
/// bytes) through the project's own format readers (`FormatTrackReader`); MP3 as follows: tags through libmpg123 plus `ID3v2Layout`, the exact
/// length (libmpg123's gapless length where a Xing/Info/VBRI header gives the frame count, a full
/// `mpg123_scan` where none does or the file is cut short), and path fallbacks.
///
/// Reads only what those need (issue 23): the ID3v2 frames by their headers with the artwork
/// payloads skipped (libmpg123 gets them as zeros, `Mpg123Source`), the first frames, the last 128
/// bytes, each as an exact `pread` with read-ahead off; the audio of a file without a header frame
/// in one sequential, buffered pass.
///
/// Thread rules: one reader per scanning thread (it owns a libmpg123 handle). Never throws for a bad
/// file: the outcome says why it was skipped.
final class TrackReader {
    enum Outcome {
        case track(TrackMetadata)
        case skipped(ScanProblem)
    }

    private let handle: Mpg123Handle
    /// How far past the tag the first frame is searched for.
    static let junkSearchLimit = 1 << 20

    init() throws(Mpg123Error) {
        handle = try Mpg123Handle(flags: [.quiet, .gapless])
        try handle.setResyncLimit(Self.junkSearchLimit)
        try handle.allowNativeRatesS16()
    }

    /// Reads the file at `path` (absolute, raw bytes), known to the walker as `relativePath`. `feed`: what
    /// the podcast subscription that downloaded the file says of it (what the file's own tags lack).
    func read(path: [UInt8], relativePath: String, feed: Podcasts.FeedEpisode? = nil) -> Outcome {
        let fd = path.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            let e = errno
            if e == ENOENT { return .skipped(ScanProblem("vanished", "the file disappeared during the scan")) }
            return .skipped(ScanProblem("unreadable", "cannot open: \(String(cString: strerror(e)))"))
        }
        defer { Glibc.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            return .skipped(ScanProblem("unreadable", "cannot stat: \(String(cString: strerror(errno)))"))
        }
        let size = Int(st.st_size)
        if size == 0 { return .skipped(ScanProblem("empty", "the file is empty (0 bytes)")) }
        // Tags and headers are read in exact ranges: no read-ahead into the artwork they skip.
        FileAdvice.random(fd)
        do {
            return try read(FileReader(fd: fd, size: size), relativePath: relativePath, feed: feed)
        } catch {
            guard case .io(let reason) = error else { return .skipped(ScanProblem("unreadable", "\(error)")) }
            return .skipped(ScanProblem("unreadable", reason))
        }
    }

    private func read(_ file: FileReader, relativePath: String, feed: Podcasts.FeedEpisode?) throws(ScanError) -> Outcome {
        if file.prefix.starts(with: [0x00, 0x05, 0x16, 0x07]) {
            return .skipped(ScanProblem("appledouble", "a macOS AppleDouble resource file, not audio"))
        }
        if AudioFileReader.container(ofPrefix: file.prefix) != nil {
            return FormatTrackReader.read(file, relativePath: relativePath, feed: feed) { range in id3Tag(of: file, in: range) }
        }
        var m = TrackMetadata()
        let layout = try ID3v2Layout(file)
        if let layout, layout.overflows {
            m.problems.append(ScanProblem("tag-overflow", "the ID3v2 header claims a tag longer than the file"))
        }
        let tagEnd = layout?.end ?? 0
        guard let audio = try AudioStart.find(in: file, from: tagEnd, limit: Self.junkSearchLimit) else {
            return .skipped(ScanProblem("not-audio", "no MPEG audio frames found"))
        }
        if audio.offset > tagEnd, layout?.overflows != true {
            m.problems.append(
                ScanProblem("junk-before-audio", "\(audio.offset - tagEnd) bytes of junk before the first MPEG frame"))
        }

        // Length: exact from the header's frame count (gapless-trimmed by libmpg123), else a full scan.
        // An ID3v1 tag counts only after the audio's start: a frame header found inside the tag's own bytes
        // made this negative (and the bitrate with it; fuzz target 2).
        let tagAtEnd = Self.hasID3v1(file) && file.size - 128 >= audio.offset ? 128 : 0
        let audioBytes = file.size - audio.offset - tagAtEnd
        var mustScan = audio.vbrHeader?.frames == nil
        var truncated = false
        if let declared = audio.vbrHeader?.bytes, declared > audioBytes + 4 {
            m.problems.append(
                ScanProblem("truncated", "the stream ends \(declared - audioBytes) bytes before its header says"))
            truncated = true
            mustScan = true
        }
        // libmpg123 reads the file through exact preads, the artwork payloads as zeros (it skips APIC
        // frames by their size, never reading into them). A file read whole (a scan, or decoding a
        // truncated one) streams its audio: sequential advice, the kernel told to fetch it all now,
        // and one pread per 256 KiB.
        let start = layout?.overflows == true ? audio.offset : 0
        if mustScan {
            FileAdvice.sequential(file.fd)
            FileAdvice.willNeed(file.fd, from: audio.offset, count: file.size - audio.offset)
        }
        let source = Mpg123Source(
            fd: file.fd, size: Int64(file.size), start: Int64(start),
            skipped: layout?.skippableRanges(fileSize: file.size) ?? [],
            bufferedFrom: mustScan ? Int64(audio.offset) : nil)
        defer { handle.closeStream() }
        do {
            try handle.open(source)
            let format = try handle.format()
            m.sampleRate = format.sampleRate
            m.channels = format.channels
        } catch {
            return .skipped(ScanProblem("not-audio", "libmpg123 cannot decode it: \(error.message)"))
        }
        var decoded: Int64?
        if truncated {
            // A cut file ends inside what the LAME tag calls padding: count what the decoder really gives.
            decoded = decodedSamples(channels: m.channels)
        } else if mustScan {
            try? handle.scan()
        }
        guard let samples = decoded ?? handle.length, samples > 0 else {
            return .skipped(ScanProblem("not-audio", "libmpg123 found no decodable frames"))
        }
        m.samples = samples
        m.isVBR = audio.vbrHeader.map { $0.kind != .info } ?? false
        m.bitrate = Int((Int64(audioBytes) * 8 * Int64(m.sampleRate)) / max(1, samples * 1000))
        if audio.vbrHeader == nil { m.isVBR = audio.bitratesVary }

        let (v1, v2) = handle.id3Tags()
        if let v2 { TagMapping.apply(v2, layout: layout, to: &m) }
        if let v1 { TagMapping.apply(v1, to: &m) }
        Podcasts.classify(relativePath: relativePath, &m, feed: feed)
        Audiobooks.classify(relativePath: relativePath, &m)
        PathHints.apply(relativePath: relativePath, to: &m)
        if let layout, !layout.chapters.isEmpty {
            m.chapters = ChapterFrames.normalized(
                layout.chapters, toc: layout.tableOfContents, durationMS: m.durationMS)
        }
        if m.album.isEmpty { m.album = LibraryNames.unknownAlbum }
        if m.artists.isEmpty { m.artists = [LibraryNames.unknownArtist] }
        return .track(m)
    }

    /// The ID3v2 tag a WAV or AIFF file holds in a chunk (`range`), through libmpg123's tag parser: the
    /// stream it sees is the tag's bytes alone (it finds no audio after it, which is expected here).
    func id3Tag(of file: FileReader, in range: Range<Int>) -> ID3v2Tag? {
        let source = Mpg123Source(fd: file.fd, size: Int64(range.upperBound), start: Int64(range.lowerBound))
        defer { handle.closeStream() }
        guard (try? handle.open(source)) != nil else { return nil }
        _ = try? handle.format()
        return handle.id3Tags().v2
    }

    /// Decodes the whole stream and counts the samples per channel it yields.
    private func decodedSamples(channels: Int) -> Int64? {
        var bytes: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let (n, status) = handle.read(into: buffer)
            bytes += Int64(n)
            if !Mpg123Handle.isContinuing(status) { break }
        }
        return bytes > 0 ? bytes / Int64(2 * max(1, channels)) : nil
    }

    static func hasID3v1(_ file: FileReader) -> Bool {
        guard file.size >= 128, let tail = try? file.read(at: file.size - 128, count: 3) else { return false }
        return tail == [0x54, 0x41, 0x47]
    }
}
