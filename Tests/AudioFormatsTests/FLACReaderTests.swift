import AudioFormats
import Foundation
import Testing

/// FLAC files made by sox, flac and metaflac: stream facts, exact lengths, every tag written, pictures
/// pointing at the exact image bytes embedded, ID3v2 in front, unknown lengths, and broken copies.
struct FLACReaderTests {
    /// A small real PNG (ffmpeg's test pattern), as `name` in the folder.
    static func image(_ s: Scratch, _ name: String, size: String = "32x24") throws -> [UInt8] {
        try s.run("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=s=\(size)", "-frames:v", "1", name])
        return try s.bytes(name)
    }

    @Test(arguments: [(44100, 2, 16, 44100 * 3 + 17), (96000, 1, 24, 12345), (8000, 6, 8, 999)])
    func streamFacts(rate: Int, channels: Int, bits: Int, samples: Int) throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: rate, channels: channels, bits: bits, samples: samples)
        try s.run("flac", ["--silent", "-o", "t.flac", "t.wav"])
        let bytes = try s.bytes("t.flac")
        let info = try FLACReader.read(MemorySource(bytes))
        #expect(info.container == .flac && info.codec == .flac)
        #expect(info.sampleRate == rate && info.channels == channels && info.bitsPerSample == bits)
        #expect(info.samples == Int64(samples))
        #expect(info.problems.isEmpty)
        #expect(info.bitrate > 0)
        #expect(info.first(.other("ENCODER")) == nil)
    }

    @Test func everyTagMetaflacWrites() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 4410)
        try s.run("flac", ["--silent", "-o", "t.flac", "t.wav"])
        let fields: [(String, TagKey, String)] = [
            ("TITLE", .title, "Tïtle ✓"), ("ARTIST", .artist, "One"), ("artist", .artist, "Two"),
            ("ALBUM", .album, "Album"), ("ALBUMARTIST", .albumArtist, "AA"), ("ALBUM ARTIST", .albumArtist, "AA2"),
            ("GENRE", .genre, "Rock"), ("COMPOSER", .composer, "Bach"), ("COMMENT", .comment, "c1"),
            ("DESCRIPTION", .comment, "c2"), ("DATE", .date, "2001-02-03"), ("YEAR", .date, "2001"),
            ("GROUPING", .grouping, "G"), ("LYRICS", .lyrics, "la la"), ("TRACKNUMBER", .trackNumber, "3/12"),
            ("TRACKTOTAL", .trackTotal, "12"), ("TOTALTRACKS", .trackTotal, "12"), ("DISCNUMBER", .discNumber, "1"),
            ("DISCTOTAL", .discTotal, "2"), ("TOTALDISCS", .discTotal, "2"), ("COMPILATION", .compilation, "1"),
            ("TITLESORT", .sortTitle, "T"), ("ARTISTSORT", .sortArtist, "A"), ("ALBUMSORT", .sortAlbum, "B"),
            ("ALBUMARTISTSORT", .sortAlbumArtist, "C"), ("COMPOSERSORT", .sortComposer, "D"), ("BPM", .bpm, "120"),
            ("REPLAYGAIN_TRACK_GAIN", .replayGainTrackGain, "-6.50 dB"),
            ("REPLAYGAIN_TRACK_PEAK", .replayGainTrackPeak, "0.988"),
            ("REPLAYGAIN_ALBUM_GAIN", .replayGainAlbumGain, "-7.00 dB"),
            ("REPLAYGAIN_ALBUM_PEAK", .replayGainAlbumPeak, "1.000"), ("R128_TRACK_GAIN", .r128TrackGain, "-512"),
            ("R128_ALBUM_GAIN", .r128AlbumGain, "256"),
            ("MUSICBRAINZ_TRACKID", .musicBrainzTrackID, "b1a9c0e9-d987-4042-ae91-78d6a3267d69"),
            ("MUSICBRAINZ_ALBUMID", .musicBrainzAlbumID, "a"), ("MUSICBRAINZ_ARTISTID", .musicBrainzArtistID, "b"),
            ("MUSICBRAINZ_ALBUMARTISTID", .musicBrainzAlbumArtistID, "c"),
            ("PODCASTURL", .podcastURL, "https://example.com/feed"), ("Mood", .other("MOOD"), "calm"),
        ]
        try s.run("metaflac", fields.map { "--set-tag=\($0.0)=\($0.2)" } + ["t.flac"])
        let info = try FLACReader.read(MemorySource(try s.bytes("t.flac")))
        #expect(info.tags == fields.map { Tag($0.1, $0.2) }, "every field, in order, multiple values kept")
        #expect(info.values(.artist) == ["One", "Two"])
        #expect(info.problems.isEmpty)
    }

    @Test func picturesPointAtTheImageBytes() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 4410)
        try s.run("flac", ["--silent", "-o", "t.flac", "t.wav"])
        let front = try Self.image(s, "front.png")
        let back = try Self.image(s, "back.jpg", size: "64x48")
        try s.run(
            "metaflac",
            ["--import-picture-from=3|image/png|the front||front.png", "--import-picture-from=4||||back.jpg", "t.flac"])
        let bytes = try s.bytes("t.flac")
        let source = TallySource(bytes)
        let info = try FLACReader.read(source)
        try #require(info.pictures.count == 2)
        #expect(info.pictures.map(\.mime) == ["image/png", "image/jpeg"])
        #expect(info.pictures.map(\.type) == [3, 4])
        for (picture, image) in zip(info.pictures, [front, back]) {
            guard case .range(let range) = picture.location else {
                Issue.record("a FLAC picture is a range of the file")
                continue
            }
            #expect(Array(bytes[range]) == image)
            #expect(!source.readPastItsFirstPage(range), "an image is not read past its first page: \(source.ranges)")
        }
        #expect(source.bytesRead < 8192, "\(source.bytesRead) bytes")
    }

    @Test func id3v2InFrontIsSkipped() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 1000)
        try s.run("flac", ["--silent", "-o", "t.flac", "t.wav"])
        let image = try Self.image(s, "front.png")
        try s.run("metaflac", ["--import-picture-from=front.png", "t.flac"])
        let flac = try s.bytes("t.flac")
        let frame: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 4, 0, 0, 3] + Array("abc".utf8)
        let id3: [UInt8] = Array("ID3".utf8) + [4, 0, 0x10, 0, 0, 0, UInt8(frame.count)] + frame
        let footer: [UInt8] = Array("3DI".utf8) + [4, 0, 0x10, 0, 0, 0, UInt8(frame.count)]
        let bytes = id3 + footer + id3 + footer + flac
        let info = try FLACReader.read(MemorySource(bytes))
        #expect(info.samples == 1000)
        guard case .range(let range)? = info.pictures.first?.location else {
            Issue.record("no picture")
            return
        }
        #expect(Array(bytes[range]) == image)
    }

    /// Streamed FLAC (STREAMINFO's total 0) from flac and ffmpeg writing into a pipe: the length is the
    /// input's, exact to the sample, from the first and last frame headers; an ID3v1 tag after the frames
    /// is looked past.
    @Test(arguments: [44100 * 2 + 17, 4096 * 3, 1000])
    func aStreamedFLACIsMeasuredByItsFrames(samples: Int) throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: samples)
        // Raw samples through a pipe both ways: flac knows no total and cannot go back to write one.
        let raw = "sox t.wav -t raw - | flac --silent --force-raw-format --endian=little --sign=signed"
        try s.run("sh", ["-c", "\(raw) --channels=2 --bps=16 --sample-rate=44100 -c - | cat > s.flac"])
        try s.run("sh", ["-c", "ffmpeg -loglevel error -i t.wav -f flac - | cat > f.flac"])
        for name in ["s.flac", "f.flac"] {
            let bytes = try s.bytes(name)
            #expect(bytes[22..<26].allSatisfy { $0 == 0 } && bytes[21] & 0x0F == 0, "\(name): a total was written")
            let source = TallySource(bytes)
            let info = try FLACReader.read(source)
            #expect(info.samples == Int64(samples), "\(name)")
            #expect(info.problems.isEmpty, "\(name): \(info.problems)")
            #expect(info.sampleRate == 44100 && info.bitrate > 0)
            #expect(source.bytesRead < 40_000, "\(name): \(source.bytesRead) bytes read")
            let tagged = bytes + Array("TAG".utf8) + Array(repeating: 0x20, count: 125)
            #expect(try FLACReader.read(MemorySource(tagged)).samples == Int64(samples), "\(name) with ID3v1")
            // The last frame cut short: no frame ends the file, so the length is not known (never a wrong one).
            let cut = try FLACReader.read(MemorySource(Array(bytes.dropLast(3))))
            #expect(cut.samples == nil && cut.problems.map(\.kind) == ["length-unknown"], "\(name) cut")
        }
    }

    @Test func bigFilesAreReadByTheirHeadersOnly() throws {
        let s = try Scratch()
        try s.run("sox", ["-r", "44100", "-c", "2", "-n", "-b", "16", "n.wav", "synth", "20", "whitenoise"])
        try s.run("flac", ["--silent", "-o", "n.flac", "n.wav"])
        _ = try Self.image(s, "front.png")
        try s.run("metaflac", ["--set-tag=TITLE=Noise", "--import-picture-from=front.png", "n.flac"])
        let bytes = try s.bytes("n.flac")
        let source = TallySource(bytes)
        let info = try FLACReader.read(source)
        #expect(info.samples == Int64(44100 * 20) && info.first(.title) == "Noise")
        #expect(source.reads <= 12 && source.bytesRead < 4096, "\(source.reads) reads, \(source.bytesRead) bytes")
        #expect(bytes.count > 3_000_000)
        let bitrate = bytes.count * 8 / 20 / 1000
        #expect(abs(info.bitrate - bitrate) <= bitrate / 100, "\(info.bitrate) vs \(bitrate)")
    }

    @Test func brokenCopiesNeverTrap() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 2000)
        try s.run("flac", ["--silent", "-o", "t.flac", "t.wav"])
        _ = try Self.image(s, "front.png")
        try s.run("metaflac", ["--set-tag=TITLE=x", "--set-tag=ARTIST=y", "--import-picture-from=front.png", "t.flac"])
        let bytes = try s.bytes("t.flac")
        var errors = 0
        for variant in mangled(bytes) {
            do {
                let info = try FLACReader.read(MemorySource(variant))
                for picture in info.pictures {
                    if case .range(let range) = picture.location { #expect(range.upperBound <= variant.count) }
                }
            } catch {
                errors += 1
                #expect(["damaged", "not-audio"].contains(error.kind), "\(error)")
            }
        }
        #expect(errors > 0)
        let half = try FLACReader.read(MemorySource(Array(bytes[..<(bytes.count / 2)])))
        #expect(half.samples == 2000, "the metadata is whole; the frames are not looked at")
        #expect(
            failure { () throws(FormatError) in try FLACReader.read(MemorySource(Array(bytes[..<20]))) }?.kind
                == "damaged")
        #expect(
            failure { () throws(FormatError) in try FLACReader.read(MemorySource(Array("RIFF".utf8))) }?.kind
                == "not-audio")
    }
}
