import Foundation
import Testing

@testable import AudioFormats

/// The MP4 reader's `ilst` tags and `covr` pictures, written by mutagen and ffmpeg (what real taggers
/// write), and by hand for the data types no tool here writes (UTF-16, `gnre`, signed integers).
@Suite(.serialized) struct MP4TagTests {
    /// Every atom the reader maps, as mutagen writes it; the covers are ranges of the file holding
    /// exactly the image bytes given.
    @Test func everyAtomMutagenWrites() throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 4410, rate: 44100, channels: 1)
        let file = bench.path("t.m4a")
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", file])
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("a jpeg, as far as the reader cares".utf8)
            + Array(repeating: 0x55, count: 50_000) + [0xFF, 0xD9]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("png body".utf8)
        try Data(jpeg).write(to: URL(fileURLWithPath: bench.path("c.jpg")))
        try Data(png).write(to: URL(fileURLWithPath: bench.path("c.png")))
        try bench.mutagen(
            file,
            """
            f = MP4(path)
            f["©nam"] = ["Title Ü"]
            f["©ART"] = ["First Artist", "Second Artist"]
            f["aART"] = ["The Album Artist"]
            f["©alb"] = ["The Album"]
            f["©day"] = ["2019-04-01"]
            f["©gen"] = ["Jazz"]
            f["trkn"] = [(3, 12)]
            f["disk"] = [(1, 2)]
            f["cpil"] = True
            f["tmpo"] = [128]
            f["©wrt"] = ["A Composer"]
            f["©cmt"] = ["A comment"]
            f["©grp"] = ["A Group"]
            f["©lyr"] = ["la la\\nla"]
            f["sonm"] = ["Title, The"]
            f["soar"] = ["Artist, First"]
            f["soaa"] = ["Artist, The Album"]
            f["soal"] = ["Album, The"]
            f["soco"] = ["Composer, A"]
            f["desc"] = ["Short description"]
            f["ldes"] = ["Long description of the episode"]
            f["purl"] = ["https://example.com/feed.xml"]
            f["pcst"] = True
            f["stik"] = [21]
            f["©too"] = ["An Encoder"]
            f["----:com.apple.iTunes:iTunNORM"] = [MP4FreeForm(b" 00000318 0000031A 00002A2C 00002A9E 0000C350 0000C350 00007FFF 00007FFF 00007A26 00007A26")]
            f["----:com.apple.iTunes:MusicBrainz Track Id"] = [MP4FreeForm(b"0a1b2c3d-0000-4000-8000-000000000001")]
            f["----:com.apple.iTunes:MusicBrainz Album Id"] = [MP4FreeForm(b"0a1b2c3d-0000-4000-8000-000000000002")]
            f["----:com.apple.iTunes:replaygain_track_gain"] = [MP4FreeForm(b"-6.50 dB")]
            f["----:com.apple.iTunes:REPLAYGAIN_ALBUM_PEAK"] = [MP4FreeForm(b"0.988")]
            f["----:org.example:MOOD"] = [MP4FreeForm(b"calm"), MP4FreeForm(b"slow")]
            f["covr"] = [MP4Cover(open(sys.argv[1][:-5] + "c.jpg", "rb").read(), imageformat=MP4Cover.FORMAT_JPEG),
                         MP4Cover(open(sys.argv[1][:-5] + "c.png", "rb").read(), imageformat=MP4Cover.FORMAT_PNG)]
            f.save()
            """)
        let info = try bench.read(file)
        let expected: [(TagKey, [String])] = [
            (.title, ["Title Ü"]), (.artist, ["First Artist", "Second Artist"]), (.albumArtist, ["The Album Artist"]),
            (.album, ["The Album"]), (.date, ["2019-04-01"]), (.genre, ["Jazz"]), (.trackNumber, ["3"]),
            (.trackTotal, ["12"]), (.discNumber, ["1"]), (.discTotal, ["2"]), (.compilation, ["1"]), (.bpm, ["128"]),
            (.composer, ["A Composer"]), (.comment, ["A comment"]), (.grouping, ["A Group"]), (.lyrics, ["la la\nla"]),
            (.sortTitle, ["Title, The"]), (.sortArtist, ["Artist, First"]), (.sortAlbumArtist, ["Artist, The Album"]),
            (.sortAlbum, ["Album, The"]), (.sortComposer, ["Composer, A"]),
            (.podcastDescription, ["Long description of the episode"]), (.podcastURL, ["https://example.com/feed.xml"]),
            (.podcast, ["1"]), (.mediaKind, ["21"]), (.other("©too"), ["An Encoder"]),
            (
                .iTunesNormalization,
                [" 00000318 0000031A 00002A2C 00002A9E 0000C350 0000C350 00007FFF 00007FFF 00007A26 00007A26"]
            ),
            (.musicBrainzTrackID, ["0a1b2c3d-0000-4000-8000-000000000001"]),
            (.musicBrainzAlbumID, ["0a1b2c3d-0000-4000-8000-000000000002"]),
            (.replayGainTrackGain, ["-6.50 dB"]), (.replayGainAlbumPeak, ["0.988"]),
            (.other("org.example:MOOD"), ["calm", "slow"]),
        ]
        for (key, values) in expected { #expect(info.values(key) == values, "\(key)") }
        #expect(Set(info.tags.map(\.key)).count == expected.count, "no other keys: \(info.tags)")

        let bytes = try bench.bytes(file)
        #expect(info.pictures.map(\.mime) == ["image/jpeg", "image/png"])
        #expect(info.pictures.allSatisfy { $0.type == 3 })
        for (picture, image) in zip(info.pictures, [jpeg, png]) {
            guard case .range(let range) = picture.location else {
                Issue.record("a cover copied instead of located")
                continue
            }
            #expect(Array(bytes[range]) == image)
        }
        #expect(info.samples == 4410, "tags written after encoding leave the length alone")
        #expect(info.problems.isEmpty)

        // The index reads moov less the images (all but the rest of the page of the header before each): the
        // same info.
        let tally = TallySource(bytes)
        #expect(try MP4Reader.read(tally) == info)
        let moov = try #require(find(Array("moov".utf8), in: bytes))
        let moovSize = bytes[(moov - 4)..<moov].reduce(0) { $0 << 8 | Int($1) }
        let images = jpeg.count + png.count - 2 * MP4MoovRead.kept
        #expect(images > 1000 && tally.bytesRead < moovSize - images + 2 * FilePages.size, "\(tally.bytesRead) bytes read")
    }

    /// The tags ffmpeg's mp4 muxer writes from `-metadata` (its names, mapped onto the iTunes atoms). Its
    /// `sort_*` names write nothing in ffmpeg 5.1 (the mutagen test covers the sort atoms).
    @Test func ffmpegMetadata() throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 4410, rate: 44100, channels: 1)
        let metadata = [
            "title=T", "artist=A", "album_artist=AA", "album=Al", "date=2001", "genre=Rock", "track=4/9", "disc=2/3",
            "composer=C", "comment=Co", "grouping=G", "lyrics=L", "compilation=1",
        ].flatMap { ["-metadata", $0] }
        try bench.ffmpeg(["-i", wav, "-c:a", "aac"] + metadata + [bench.path("t.m4a")])
        let info = try bench.read(bench.path("t.m4a"))
        let expected: [TagKey: String] = [
            .title: "T", .artist: "A", .albumArtist: "AA", .album: "Al", .date: "2001", .genre: "Rock",
            .trackNumber: "4", .trackTotal: "9", .discNumber: "2", .discTotal: "3", .composer: "C", .comment: "Co",
            .grouping: "G", .lyrics: "L", .compilation: "1",
        ]
        for (key, value) in expected { #expect(info.values(key) == [value], "\(key)") }
        #expect(info.first(.other("©too"))?.hasPrefix("Lavf") == true)
    }

    /// Data types no tool here writes: UTF-16 text, `gnre` (an ID3v1 number plus one), signed integers of
    /// each width, an implicit-type cover told by its bytes; a QuickTime-style `meta` (no version field).
    @Test func handMadeDataTypes() throws {
        let utf16: [UInt8] = [0xFE, 0xFF, 0x00, 0x48, 0x00, 0xE9, 0x00, 0x00]  // BOM, "Hé", NUL
        let ilst = MP4Bytes.atom(
            "ilst",
            MP4Bytes.item("©nam", dataType: 2, utf16) + MP4Bytes.item("gnre", dataType: 0, [0, 18])
                + MP4Bytes.item("tmpo", dataType: 21, [0, 90]) + MP4Bytes.item("stik", dataType: 21, [2])
                + MP4Bytes.item("cpil", dataType: 21, [0])
                + MP4Bytes.item("covr", dataType: 0, [0x89, 0x50, 0x4E, 0x47, 1])
                + MP4Bytes.item("©alb", dataType: 1, Array("Album\0".utf8)) + MP4Bytes.item("©day", dataType: 1, []))
        let meta = MP4Bytes.atom("meta", MP4Bytes.atom("hdlr", [UInt8](repeating: 0, count: 25)) + ilst)
        let file = try Self.fileWithUdta(MP4Bytes.atom("udta", meta))
        let info = try MP4Reader.read(MemorySource(file))
        #expect(info.values(.title) == ["Hé"])
        #expect(info.values(.genre) == ["Rock"])
        #expect(info.values(.bpm) == ["90"])
        #expect(info.values(.mediaKind) == ["2"])
        #expect(info.values(.compilation) == [], "cpil 0 is no compilation")
        #expect(info.values(.album) == ["Album"])
        #expect(info.values(.date) == [])
        #expect(info.pictures.map(\.mime) == ["image/png"])
        #expect(MP4Tags.integer([0xFF, 0xFE], type: 21) == -2)
        #expect(MP4Tags.integer([0xFF, 0xFF, 0xFF], type: 21) == -1)
        #expect(MP4Tags.integer([0x80, 0, 0, 0, 0, 0, 0, 0], type: 21) == Int64.min)
        #expect(MP4Tags.integer([0xFF, 0xFE], type: 22) == 65534)
        #expect(MP4Tags.integer([1, 2, 3, 4, 5], type: 21) == nil)
    }

    /// A real AAC file from ffmpeg (`moov` last) with its `udta` replaced by `udta`.
    static func fileWithUdta(_ udta: [UInt8]) throws -> [UInt8] {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 2048, rate: 44100, channels: 1)
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", bench.path("t.m4a")])
        return try MP4Surgery.replacingUdta(in: bench.bytes(bench.path("t.m4a")), with: udta)
    }
}
