/// One `trak` as the reader needs it: its id, its handler (`soun`, `text`), its media timescale and
/// duration, its first edit, its chapter references and its sample table.
struct MP4Track {
    var id: UInt32 = 0
    var handler: FourCC?
    /// Media time units per second (`mdhd`); 0 when missing.
    var timescale = 0
    var duration: Int64 = 0
    var edit: MP4Edit?
    /// Track ids of `tref/chap`: the QuickTime chapter tracks this track refers to.
    var chapterTrackIDs: [UInt32] = []
    var sampleTable: MP4Atom?
    /// The first `stsd` entry's atom (`mp4a`, `alac`, `text`…).
    var sampleEntry: MP4Atom?

    /// Chapter references kept: a real track names one.
    static let maxChapterReferences = 8

    init(_ trak: MP4Atom) {
        if let tkhd = trak.child("tkhd"), var c = tkhd.body, c.skip(tkhd.version == 1 ? 16 : 8), let id = c.u32be() {
            self.id = id
        }
        guard let mdia = trak.child("mdia") else { return }
        if var c = mdia.child("hdlr")?.body, c.skip(4), let type = c.u32be() {
            handler = FourCC(rawValue: type)
        }
        if let mdhd = mdia.child("mdhd"), var c = mdhd.body, c.skip(mdhd.version == 1 ? 16 : 8),
            let scale = c.u32be(), let length = mdhd.version == 1 ? c.u64be() : c.u32be().map(UInt64.init)
        {
            timescale = Int(scale)
            duration = Int64(clamping: length)
        }
        if let elst = trak.child("edts", "elst") { edit = MP4Edit.first(in: elst) }
        if let chap = trak.child("tref", "chap") {
            var c = ByteCursor(chap.payload)
            while chapterTrackIDs.count < Self.maxChapterReferences, let id = c.u32be() { chapterTrackIDs.append(id) }
        }
        sampleTable = mdia.child("minf", "stbl")
        if var c = sampleTable?.child("stsd")?.body, c.skip(4) {
            sampleEntry = MP4Children(c.bytes[c.position...]).first { _ in true }
        }
    }
}

/// The first edit of a track's edit list that plays media (an empty edit, media time -1, is a pause).
///
/// `mediaTime` is where playing starts, in media timescale units: the encoder's delay (AAC priming).
/// `segmentDuration` is how long it plays, in the movie's timescale (`mvhd`); 0 means to the end.
struct MP4Edit: Equatable {
    var mediaTime: Int64
    var segmentDuration: Int64

    /// Edits looked at: a file may list many, the first playing one is the one that matters.
    static let maxEntries = 64

    static func first(in elst: MP4Atom) -> MP4Edit? {
        guard var c = elst.body, let count = c.u32be() else { return nil }
        let version = elst.version
        for _ in 0..<min(Int(count), maxEntries) {
            let duration: UInt64?
            let time: Int64?
            if version == 1 {
                duration = c.u64be()
                time = c.u64be().map { Int64(bitPattern: $0) }
            } else {
                duration = c.u32be().map(UInt64.init)
                time = c.u32be().map { Int64(Int32(bitPattern: $0)) }
            }
            guard let duration, let time, c.skip(4) else { return nil }
            if time >= 0 { return MP4Edit(mediaTime: time, segmentDuration: Int64(clamping: duration)) }
        }
        return nil
    }
}

extension MP4Atom {
    /// The movie's timescale and duration (`mvhd`, inside `moov`).
    var movieHeader: (timescale: Int, duration: Int64)? {
        guard let mvhd = child("mvhd"), var c = mvhd.body, c.skip(mvhd.version == 1 ? 16 : 8),
            let scale = c.u32be(), let length = mvhd.version == 1 ? c.u64be() : c.u32be().map(UInt64.init)
        else { return nil }
        return (Int(scale), Int64(clamping: length))
    }
}
