/// The chapters of an MP4 file, in either form writers use: a QuickTime chapter track (a text track the
/// audio track names in `tref/chap`, one sample per chapter: iTunes's and ffmpeg's) and Nero's `chpl`
/// atom in `moov/udta` (ffmpeg writes both). The reader prefers the QuickTime track, as iTunes does.
enum MP4Chapters {
    /// Chapters read; more are dropped with a problem (an audiobook has tens, a long one a few hundred).
    static let maxChapters = 1000
    /// Bytes read of one chapter sample: its 16-bit length and title (a longer title is cut).
    static let maxSampleBytes = 4096
    /// Chapter samples lying within this span are read at once (ffmpeg writes them all in one chunk).
    static let maxSpanRead = 256 << 10

    /// Nero's `chpl`: version, flags, 4 reserved bytes (version 1), a count, then per chapter a 64-bit
    /// start in 100 ns units and a title with an 8-bit length. Sorted by start.
    static func nero(_ chpl: MP4Atom) -> [FormatChapter] {
        guard var c = chpl.body, chpl.version == 0 || c.skip(4), let count = c.u8() else { return [] }
        var chapters: [FormatChapter] = []
        for _ in 0..<count {
            guard let start = c.u64be(), let length = c.u8(), let title = c.take(Int(length)) else { break }
            let ms = Int(clamping: start / 10_000)
            chapters.append(
                FormatChapter(startMS: ms, title: MP4Tags.trimmingNULs(String(decoding: title, as: UTF8.self))))
        }
        return sortedByStart(chapters)
    }

    /// A QuickTime chapter track's samples: each starts a chapter at its time, its bytes a 16-bit length and
    /// the title (UTF-8, or UTF-16 after a byte-order mark), then optional atoms (`encd`). Each sample is a
    /// small read of exactly its bytes; nothing else of the file is read.
    static func quickTime(
        _ track: MP4Track, source: some ByteSource, problems: inout [FormatError]
    ) -> [FormatChapter] {
        guard let stbl = track.sampleTable, track.timescale > 0 else { return [] }
        var samples = MP4SampleTable(stbl: stbl).samples(limit: maxChapters + 1)
        if samples.count > maxChapters {
            problems.append(FormatError("damaged", "the chapter track has more than \(maxChapters) chapters"))
            samples.removeLast(samples.count - maxChapters)
        }
        // Each sample's bytes, cut to the file: nothing is asked for past its end.
        let ends = samples.map { $0.offset + min($0.size, maxSampleBytes, max(0, source.size - $0.offset)) }
        let present = zip(samples, ends).filter { $0.1 > $0.0.offset }  // the samples with bytes in the file
        let first = present.map(\.0.offset).min() ?? 0
        let end = present.map(\.1).max() ?? 0
        var chapters: [FormatChapter] = []
        do {
            let span = end > first && end - first <= maxSpanRead ? try source.read(at: first, count: end - first) : []
            for (sample, sampleEnd) in zip(samples, ends) {
                var bytes: ArraySlice<UInt8> = []
                if sampleEnd > sample.offset {
                    if end - first <= maxSpanRead {
                        let from = min(sample.offset - first, span.count)
                        bytes = span[from..<min(from + sampleEnd - sample.offset, span.count)]
                    } else {
                        bytes = try source.read(at: sample.offset, count: sampleEnd - sample.offset)[...]
                    }
                }
                let ms = Int(clamping: MP4Length.rescale(sample.start, from: track.timescale, to: 1000))
                chapters.append(FormatChapter(startMS: ms, title: title(bytes)))
            }
        } catch {
            problems.append(FormatError("io", "the chapter titles could not be read: \(error.reason)"))
            return []
        }
        return sortedByStart(chapters)
    }

    /// The title of a text sample: a 16-bit length, then that many bytes of text.
    static func title(_ bytes: ArraySlice<UInt8>) -> String {
        var c = ByteCursor(bytes)
        guard let length = c.u16be(), let text = c.take(min(Int(length), c.remaining)) else { return "" }
        let decoded =
            text.starts(with: [0xFE, 0xFF]) ? MP4Tags.utf16BigEndian(text) : String(decoding: text, as: UTF8.self)
        return MP4Tags.trimmingNULs(decoded)
    }

    /// Sorted by start time, keeping the written order of equal starts.
    static func sortedByStart(_ chapters: [FormatChapter]) -> [FormatChapter] {
        chapters.enumerated().sorted { ($0.element.startMS, $0.offset) < ($1.element.startMS, $1.offset) }.map(
            \.element)
    }
}
