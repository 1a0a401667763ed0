import Testing

@testable import AudioFormats

/// Hand-made movies whose inner tables lie (counts, offsets, sizes) where no tool would: the reader reads
/// what is there, caps what is claimed, and reports a problem.
///
/// HE-AAC (SBR, and v2's parametric stereo) is tested here on hand-made movies only, not on a real file:
/// no encoder on this machine or in the packages it can install makes one. ffmpeg's native `aac` encoder
/// makes AAC-LC only and this ffmpeg has no `libfdk_aac`; Debian main has neither `fdkaac` nor
/// `aacplusenc` (they are in non-free, which the package sources here do not carry), and `libvo-aacenc`
/// is LC only. So whether FFmpeg's decoder plays such a file at the doubled rate the reader gives is not
/// tested against a real file.
struct MP4SyntheticTests {
    typealias B = MP4Bytes

    static func full(_ type: String, version: UInt8 = 0, _ body: [UInt8]) -> [UInt8] {
        B.atom(type, [version, 0, 0, 0] + body)
    }

    /// An AAC-LC 44.1 kHz stereo sample entry (`mp4a` with its `esds`).
    static let mp4a = mp4a(rate: 44100, asc: [0x12, 0x10])

    /// An `mp4a` sample entry of `rate` (the 16.16 field) whose `esds` holds the AudioSpecificConfig `asc`.
    static func mp4a(rate: UInt32, asc: [UInt8]) -> [UInt8] {
        let decoderConfig = [4, UInt8(13 + 2 + asc.count), 0x40, 0x15] + [UInt8](repeating: 0, count: 11) + [5]
            + [UInt8(asc.count)] + asc
        let es = [3, UInt8(3 + decoderConfig.count + 3), 0, 1, 0] + decoderConfig + [6, 1, 2]
        return B.atom(
            "mp4a",
            [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 2, 0, 16, 0, 0, 0, 0] + B.be32(rate << 16)
                + full("esds", es))
    }

    static func stbl(entry: [UInt8], stts: [UInt8], stsz: [UInt8], stsc: [UInt8], stco: [UInt8]) -> [UInt8] {
        B.atom(
            "stbl",
            full("stsd", B.be32(1) + entry) + full("stts", stts) + full("stsz", stsz) + full("stsc", stsc) + stco)
    }

    static func trak(id: UInt32, handler: String, timescale: UInt32, stbl: [UInt8], chapters: UInt32? = nil) -> [UInt8]
    {
        let tref = chapters.map { B.atom("tref", B.atom("chap", B.be32($0))) } ?? []
        return B.atom(
            "trak",
            full("tkhd", B.be32(0) + B.be32(0) + B.be32(id)) + tref
                + B.atom(
                    "mdia",
                    full("mdhd", B.be32(0) + B.be32(0) + B.be32(timescale) + B.be32(0))
                        + full("hdlr", B.be32(0) + Array(handler.utf8)) + B.atom("minf", stbl)))
    }

    static func movie(_ traks: [UInt8]) -> [UInt8] {
        B.atom("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0] + Array("M4A isom".utf8))
            + B.atom("moov", full("mvhd", B.be32(0) + B.be32(0) + B.be32(1000) + B.be32(0)) + traks)
    }

    /// A one-second audio track: 44 frames of 1024 and one of 4 (stts), 100 bytes each.
    static let audio = trak(
        id: 1, handler: "soun", timescale: 44100,
        stbl: stbl(
            entry: mp4a, stts: B.be32(2) + B.be32(43) + B.be32(1024) + B.be32(1) + B.be32(44100 - 43 * 1024),
            stsz: B.be32(100) + B.be32(44), stsc: B.be32(1) + B.be32(1) + B.be32(44) + B.be32(1),
            stco: full("stco", B.be32(1) + B.be32(0))), chapters: 2)

    @Test func aPlainSyntheticMovieReads() throws {
        let info = try MP4Reader.read(MemorySource(Self.movie(Self.audio)))
        #expect(info.codec == .aac && info.sampleRate == 44100 && info.channels == 2)
        #expect(info.samples == 44100 && info.encoderDelay == 0)
        #expect(info.bitrate == 35, "4400 bytes in one second")
    }

    @Test func countsThatLieAreBoundedByTheBytes() throws {
        let lying = Self.trak(
            id: 1, handler: "soun", timescale: 44100,
            stbl: Self.stbl(
                entry: Self.mp4a, stts: B.be32(0xFFFF_FFFF) + B.be32(10) + B.be32(1024),
                stsz: B.be32(0) + B.be32(0xFFFF_FFFF) + B.be32(7), stsc: B.be32(0xFFFF_FFFF),
                stco: Self.full("stco", B.be32(0xFFFF_FFFF))))
        let info = try MP4Reader.read(MemorySource(Self.movie(lying)))
        #expect(info.samples == 10240)
        #expect(info.bitrate == 0, "7 bytes in 0.23 s")
    }

    @Test func aThousandChaptersAtMost() throws {
        let text = Self.trak(
            id: 2, handler: "text", timescale: 1000,
            stbl: Self.stbl(
                entry: B.atom("text", [UInt8](repeating: 0, count: 8)), stts: B.be32(1) + B.be32(5000) + B.be32(10),
                stsz: B.be32(4) + B.be32(5000), stsc: B.be32(1) + B.be32(1) + B.be32(5000) + B.be32(1),
                stco: Self.full("stco", B.be32(1) + B.be32(0))))
        let source = CountingSource(Self.movie(Self.audio + text))
        let info = try MP4Reader.read(source)
        #expect(info.chapters.count == MP4Chapters.maxChapters)
        #expect(info.chapters.last?.startMS == 9990)
        #expect(info.problems.contains { $0.reason.contains("more than 1000 chapters") })
        #expect(source.reads <= 5, "the headers, moov, and the titles in one read: \(source.reads)")
        #expect(source.pastTheEnd.isEmpty, "\(source.pastTheEnd)")
    }

    @Test func chapterOffsetsPastTheFileGiveEmptyTitles() throws {
        for stco in [
            Self.full("stco", B.be32(2) + B.be32(0xFFFF_FFF0) + B.be32(0xFFFF_FFF8)),
            Self.full("co64", B.be32(1) + B.be32(0xFFFF_FFFF) + B.be32(0xFFFF_FFF0)),
            Self.full("co64", B.be32(1) + B.be32(0x3FFF_FFFF) + B.be32(0xFFFF_FFF0)),
        ] {
            let text = Self.trak(
                id: 2, handler: "text", timescale: 1000,
                stbl: Self.stbl(
                    entry: B.atom("text", []), stts: B.be32(1) + B.be32(2) + B.be32(500),
                    stsz: B.be32(0) + B.be32(2) + B.be32(0xFFFF_FFFF) + B.be32(0xFFFF_FFFF),
                    stsc: B.be32(1) + B.be32(1) + B.be32(1) + B.be32(1), stco: stco))
            let source = CountingSource(Self.movie(Self.audio + text))
            let info = try MP4Reader.read(source)
            #expect(info.chapters.allSatisfy { $0.title.isEmpty })
            #expect(source.pastTheEnd.isEmpty, "nothing asked for past the end: \(source.pastTheEnd)")
        }
    }

    /// An inner atom claiming more than its parent holds ends that parent's walk with a problem.
    @Test func anInnerSizeThatLies() throws {
        var traks = Self.audio
        traks += B.be32(0xFFFF_FFF0) + Array("trak".utf8) + [1, 2, 3]
        let info = try MP4Reader.read(MemorySource(Self.movie(traks)))
        #expect(info.samples == 44100)
        #expect(info.problems.contains { $0.reason.hasPrefix("in moov: the atom 'trak' claims") })
        do {
            _ = try MP4Reader.read(MemorySource(Self.movie(B.be32(0xFFFF_FFF0) + Array("trak".utf8))))
            Issue.record("read a movie whose only track lies")
        } catch {
            #expect(error.kind == "not-audio")
        }
    }

    @Test func aFragmentedMovieHasNoExactLength() throws {
        let file = Self.movie(Self.audio + B.atom("mvex", []))
        let info = try MP4Reader.read(MemorySource(file))
        #expect(info.samples == nil)
        #expect(info.problems.contains { $0.kind == "unsupported" })
    }

    @Test func otherCodecsAreUnsupported() throws {
        var entry = Self.mp4a
        entry.replaceSubrange(4..<8, with: Array("ac-3".utf8))
        let trak = Self.trak(
            id: 1, handler: "soun", timescale: 44100,
            stbl: Self.stbl(entry: entry, stts: B.be32(0), stsz: B.be32(0) + B.be32(0), stsc: B.be32(0), stco: []))
        #expect(throws: FormatError("unsupported", "the codec 'ac-3' inside an MP4 file is not supported")) {
            try MP4Reader.read(MemorySource(Self.movie(trak)))
        }
    }
}

extension MP4SyntheticTests {
    /// A fixed sample size times a count that overflows 63 bits: no bitrate, no trap (found by the fuzzer).
    @Test func aSampleSizeProductThatOverflows() throws {
        let trak = Self.trak(
            id: 1, handler: "soun", timescale: 44100,
            stbl: Self.stbl(
                entry: Self.mp4a, stts: B.be32(1) + B.be32(1) + B.be32(1024),
                stsz: B.be32(0xFFFF_FFFF) + B.be32(0xFFFF_FFFF),
                stsc: B.be32(0), stco: []))
        let info = try MP4Reader.read(MemorySource(Self.movie(trak)))
        #expect(info.bitrate == 0 && info.samples == 1024)
    }
}

extension MP4SyntheticTests {
    /// HE-AAC (explicit SBR, 22.05 kHz core, 44.1 kHz out) with the media timescale at the core's rate:
    /// the rate doubles and the length with it; each access unit decodes to 2048 samples.
    @Test func heAACDoublesTheRateAndTheLength() throws {
        let trak = Self.trak(
            id: 1, handler: "soun", timescale: 22050,
            stbl: Self.stbl(
                entry: Self.mp4a(rate: 22050, asc: [0x2B, 0x92, 0x08, 0x00]),
                stts: B.be32(1) + B.be32(10) + B.be32(1024), stsz: B.be32(100) + B.be32(10), stsc: B.be32(0), stco: []
            ))
        let info = try MP4Reader.read(MemorySource(Self.movie(trak)))
        #expect(info.sampleRate == 44100 && info.channels == 2)
        #expect(info.samples == 20480 && info.padding == 0)
    }

    /// HE-AAC v2 (parametric stereo from a mono core) reads as stereo.
    @Test func parametricStereoIsStereo() throws {
        let trak = Self.trak(
            id: 1, handler: "soun", timescale: 48000,
            stbl: Self.stbl(
                entry: Self.mp4a(rate: 24000, asc: [0xEB, 0x09, 0x88, 0x00]),
                stts: B.be32(1) + B.be32(10) + B.be32(2048), stsz: B.be32(100) + B.be32(10), stsc: B.be32(0), stco: []
            ))
        let info = try MP4Reader.read(MemorySource(Self.movie(trak)))
        #expect(info.sampleRate == 48000 && info.channels == 2 && info.samples == 20480)
    }
}
