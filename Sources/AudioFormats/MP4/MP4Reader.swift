/// Reads what the index needs from an MP4 audio file (`.m4a`, `.m4b`, `.mp4`): the first audio track's
/// codec, rate and channels, its exact length with the encoder's delay and padding, the iTunes tags, the
/// cover pictures (as ranges of the file) and the chapters.
///
/// Reads the top-level atom headers, then `moov` alone, wherever it lies (64 MiB at most), less the bytes
/// of its cover images (`MP4MoovRead`), and for a QuickTime chapter track the few bytes of each chapter
/// title: never `mdat`. Pure: any thread may call
/// it; a hostile file ends in a `FormatError` or a problem in the result, never a trap.
public enum MP4Reader {
    /// The first `trak` atoms looked at (a real file has one to three: audio, chapters, maybe video).
    static let maxTracks = 64

    public static func read(_ source: some ByteSource) throws(FormatError) -> AudioFileInfo {
        let layout = try MP4Layout.scan(source)
        let bytes = try MP4MoovRead.read(source, moov: layout.moov)
        let moov = MP4Atom(type: "moov", payload: bytes[...])
        let fileOffset = layout.moov.lowerBound  // of the buffer's index 0
        var problems = layout.problems

        var tracks: [MP4Track] = []
        var atoms = moov.children
        while tracks.count < maxTracks, let atom = atoms.next() {
            if atom.type == "trak" { tracks.append(MP4Track(atom)) }
        }
        if let damage = atoms.damage { problems.append(FormatError("damaged", "in moov: \(damage)")) }
        guard let audio = tracks.first(where: { $0.handler == "soun" }) else {
            throw FormatError("not-audio", "the MP4 file has no audio track")
        }
        guard let entry = audio.sampleEntry, let stbl = audio.sampleTable else {
            throw FormatError("damaged", "the audio track has no sample description")
        }
        let format = try MP4AudioFormat(entry: entry)
        var info = AudioFileInfo(container: .mp4, codec: format.codec)
        info.sampleRate = format.sampleRate
        info.channels = format.channels
        info.bitsPerSample = format.bitsPerSample

        let meta = moov.child("udta", "meta") ?? moov.child("meta")
        let ilst = meta.flatMap { metaContents($0).child("ilst") }
        let tags = ilst.map { MP4Tags(ilst: $0, fileOffset: fileOffset) } ?? MP4Tags()
        info.tags = tags.tags
        info.pictures = tags.pictures
        problems += tags.problems

        let table = MP4SampleTable(stbl: stbl)
        let totals = try table.timeToSampleTotals()
        let length = MP4Length(
            .init(
                format: format, timescale: audio.timescale, sampleCount: totals.count, duration: totals.duration,
                edit: audio.edit, movieTimescale: moov.movieHeader?.timescale ?? 0, gapless: tags.gapless))
        info.samples = length.samples
        info.encoderDelay = length.encoderDelay
        info.padding = length.padding
        problems += length.problems
        if moov.child("mvex") != nil {
            info.samples = nil
            problems.append(FormatError("unsupported", "a fragmented MP4 (moof): its exact length is not read"))
        }
        if let bytes = table.sizeTotals()?.bytes, totals.duration > 0, audio.timescale > 0 {
            let kbps = Double(bytes) * 8 / (Double(totals.duration) / Double(audio.timescale)) / 1000
            info.bitrate = kbps < 1_000_000 ? Int(kbps.rounded()) : 0  // past any real codec's rate: a lie
        }

        let chapterTrack = audio.chapterTrackIDs.lazy.compactMap { id in
            tracks.first { $0.id == id && $0.handler != "soun" }
        }.first
        info.chapters = chapterTrack.map { MP4Chapters.quickTime($0, source: source, problems: &problems) } ?? []
        if info.chapters.isEmpty, let chpl = moov.child("udta", "chpl") { info.chapters = MP4Chapters.nero(chpl) }
        info.problems = problems
        return info
    }

    /// A `meta` atom's children: ISO's `meta` is a full box (version and flags first), QuickTime's is a
    /// plain container (its `hdlr` comes first); told apart by where `hdlr` lies.
    static func metaContents(_ meta: MP4Atom) -> MP4Atom {
        let p = meta.payload
        let plain = p.count >= 8 && p[p.startIndex + 4..<p.startIndex + 8].elementsEqual(FourCC("hdlr").bytes)
        return MP4Atom(type: meta.type, payload: plain ? p : p.dropFirst(4))
    }
}
