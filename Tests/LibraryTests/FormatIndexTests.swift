import ClickWheelCore
import ClickWheelTestKit
import Foundation
import GRDB
@testable import Library
import Testing

/// Every format ClickWheel plays, made here by the real encoders (sox, flac/metaflac, oggenc, opusenc,
/// ffmpeg, mutagen for MP4 atoms), indexed by the real scanner into a real SQLite file: tags, the exact
/// length in samples, artwork in place, podcasts and audiobooks by their MP4 media kind, and the files
/// the index does not take reported with their reason.
/// Serialized: its encoders and scans are seconds of CPU each, and the real-time tests of the other
/// suites run beside it.
@Suite(.serialized) struct FormatIndexTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    /// Runs `tool` (a failure records the tool's output).
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let r = try ChildProcess.run("/usr/bin/env", [tool] + arguments)
        #expect(r.status == 0, "\(tool) \(arguments.joined(separator: " ")): \(r.stderr)")
        return r.stdout
    }

    /// A stereo 440 Hz tone of exactly `samples` frames at `rate`, as a WAV at `path`.
    func tone(_ path: String, samples: Int, rate: Int = 44100, bits: Int = 16) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // The rate before `-n` too: sox counts the synth length at the null input's rate.
        try run("sox", ["-r", "\(rate)", "-n", "-r", "\(rate)", "-c", "2", "-b", "\(bits)", path, "synth", "\(samples)s", "sine", "440", "vol", "0.5"])
    }

    func row(_ pool: DatabasePool, _ path: String) throws -> Row {
        try #require(try pool.read { try Row.fetchOne($0, sql: "SELECT * FROM tracks WHERE path = ?", arguments: [path]) })
    }

    func text(_ r: Row, _ column: String) -> String? { r[column] }
    func int(_ r: Row, _ column: String) -> Int? { r[column] }
    func real(_ r: Row, _ column: String) -> Double? { r[column] }
    func flag(_ r: Row, _ column: String) -> Bool { r[column] ?? false }

    /// A tiny PNG (the bytes only need to be found again where the index says they are).
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x42, count: 56)

    @Test func everyFormatIsIndexedWithItsTagsAndExactLength() throws {
        let m = music
        let wav = dir.file("src.wav").path
        try tone(wav, samples: 100_000)
        // FLAC with Vorbis comments (two artists) and a front cover.
        try FileManager.default.createDirectory(atPath: m + "/Band/Lossless", withIntermediateDirectories: true)
        let cover = dir.file("cover.png").path
        try Data(Self.png).write(to: URL(fileURLWithPath: cover))
        try run("flac", ["-s", "-f", "-o", m + "/Band/Lossless/01 One.flac", wav])
        try run("metaflac", [
            "--set-tag=TITLE=Flac One", "--set-tag=ARTIST=Ann", "--set-tag=ARTIST=Bob", "--set-tag=ALBUM=Lossless",
            "--set-tag=ALBUMARTIST=Band", "--set-tag=TRACKNUMBER=1", "--set-tag=TRACKTOTAL=9", "--set-tag=DISCNUMBER=2",
            "--set-tag=GENRE=Jazz", "--set-tag=DATE=2001-02-03", "--set-tag=REPLAYGAIN_TRACK_GAIN=-6.50 dB",
            "--import-picture-from=3|image/png||1x1x24|" + cover, m + "/Band/Lossless/01 One.flac",
        ])
        // Ogg Vorbis and Opus.
        try FileManager.default.createDirectory(atPath: m + "/Band/Lossy", withIntermediateDirectories: true)
        try run("oggenc", ["-Q", "-t", "Vorbis Two", "-a", "Band", "-l", "Lossy", "-N", "2", "-o", m + "/Band/Lossy/02 Two.ogg", wav])
        let wav48 = dir.file("src48.wav").path
        try tone(wav48, samples: 96_000, rate: 48000)
        try run("opusenc", ["--quiet", "--title", "Opus Three", "--artist", "Band", "--album", "Lossy",
            "--comment", "R128_TRACK_GAIN=-512", wav48, m + "/Band/Lossy/03 Three.opus"])
        // AAC and ALAC in MP4, tagged by mutagen; an .m4b audiobook and a podcast by its media kind.
        try FileManager.default.createDirectory(atPath: m + "/Band/Apple", withIntermediateDirectories: true)
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "128k", m + "/Band/Apple/04 Four.m4a"])
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "alac", m + "/Band/Apple/05 Five.m4a"])
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "64k", "-f", "ipod", m + "/Book.m4b"])
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "64k", m + "/Episode.m4a"])
        let script = """
            import sys
            from mutagen.mp4 import MP4, MP4Cover
            m = sys.argv[1]
            f = MP4(m + "/Band/Apple/04 Four.m4a")
            f["\\xa9nam"] = ["AAC Four"]; f["\\xa9ART"] = ["Band"]; f["aART"] = ["Band"]; f["\\xa9alb"] = ["Apple"]
            f["trkn"] = [(4, 9)]; f["disk"] = [(1, 2)]; f["\\xa9gen"] = ["Pop"]; f["soar"] = ["Band, The"]
            f["covr"] = [MP4Cover(open(sys.argv[2], "rb").read(), imageformat=MP4Cover.FORMAT_PNG)]
            f.save()
            f = MP4(m + "/Band/Apple/05 Five.m4a"); f["\\xa9nam"] = ["ALAC Five"]; f["\\xa9ART"] = ["Band"]; f["\\xa9alb"] = ["Apple"]; f.save()
            f = MP4(m + "/Book.m4b"); f["\\xa9nam"] = ["Part One"]; f["\\xa9alb"] = ["The Book"]; f["stik"] = [2]; f.save()
            f = MP4(m + "/Episode.m4a"); f["\\xa9nam"] = ["Episode 1"]; f["\\xa9alb"] = ["The Show"]; f["stik"] = [21]; f["pcst"] = True; f.save()
            """
        try run("python3", ["-c", script, m, cover])
        // WAV with RIFF INFO (ffmpeg writes INFO from -metadata), 24-bit AIFF.
        try FileManager.default.createDirectory(atPath: m + "/Band/PCM", withIntermediateDirectories: true)
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-metadata", "title=Wave Six", "-metadata", "artist=Band",
            "-metadata", "album=PCM", m + "/Band/PCM/06 Six.wav"])
        let wav24 = dir.file("src24.wav").path
        try tone(wav24, samples: 100_000, rate: 96000, bits: 24)
        try run("sox", [wav24, m + "/Band/PCM/07 Seven.aiff"])
        // What the index does not take: a format it does not play, and junk named like FLAC.
        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: m + "/Band/song.wma"))
        try Data(Array(repeating: 0x5A, count: 4096)).write(to: URL(fileURLWithPath: m + "/Band/junk.flac"))

        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        let summary = try index(m, into: pool)
        #expect(summary.added == 9, "\(summary)")
        #expect(summary.skipped == 2, "\(summary)")

        let flac = try row(pool, "Band/Lossless/01 One.flac")
        #expect(text(flac, "title") == "Flac One" && text(flac, "artist") == "Ann; Bob" && text(flac, "album_artist") == "Band")
        #expect(int(flac, "track_number") == 1 && int(flac, "track_total") == 9 && int(flac, "disc_number") == 2)
        #expect(text(flac, "genre") == "Jazz" && int(flac, "year") == 2001 && text(flac, "tag_format") == "vorbis-comment")
        #expect(int(flac, "samples") == 100_000 && int(flac, "sample_rate") == 44100 && int(flac, "channels") == 2)
        #expect(real(flac, "rg_track_gain") == -6.5)
        #expect(flag(flac, "has_artwork") == true && text(flac, "artwork_mime") == "image/png")
        let offset = try #require(int(flac, "artwork_offset")), size = try #require(int(flac, "artwork_size"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: m + "/Band/Lossless/01 One.flac"))
        #expect(Array(bytes[offset..<offset + size]) == Self.png, "the cover is where the index says")

        let vorbis = try row(pool, "Band/Lossy/02 Two.ogg")
        #expect(text(vorbis, "title") == "Vorbis Two" && int(vorbis, "track_number") == 2 && int(vorbis, "samples") == 100_000)
        let opus = try row(pool, "Band/Lossy/03 Three.opus")
        #expect(text(opus, "title") == "Opus Three" && int(opus, "samples") == 96_000 && int(opus, "sample_rate") == 48000)
        #expect(real(opus, "rg_track_gain") == 3.0, "R128 -2 dB against -23 LUFS is ReplayGain +3 dB")

        let aac = try row(pool, "Band/Apple/04 Four.m4a")
        #expect(text(aac, "title") == "AAC Four" && text(aac, "album_artist") == "Band" && text(aac, "sort_artist") == "Band, The")
        #expect(int(aac, "track_number") == 4 && int(aac, "track_total") == 9 && int(aac, "disc_number") == 1 && text(aac, "tag_format") == "mp4")
        #expect(int(aac, "samples") == 100_000, "AAC's priming and padding trimmed: \(int(aac, "samples") ?? -1)")
        #expect(flag(aac, "has_artwork") == true && text(aac, "artwork_mime") == "image/png")
        // moov is read without the cover's bytes; the range the index keeps for serving it is the image's.
        let aacOffset = try #require(int(aac, "artwork_offset")), aacSize = try #require(int(aac, "artwork_size"))
        let aacBytes = try Data(contentsOf: URL(fileURLWithPath: m + "/Band/Apple/04 Four.m4a"))
        #expect(Array(aacBytes[aacOffset..<aacOffset + aacSize]) == Self.png, "the m4a cover is where the index says")
        let alac = try row(pool, "Band/Apple/05 Five.m4a")
        #expect(text(alac, "title") == "ALAC Five" && int(alac, "samples") == 100_000)
        let book = try row(pool, "Book.m4b")
        #expect(flag(book, "is_audiobook") == true && text(book, "album") == "The Book")
        let episode = try row(pool, "Episode.m4a")
        #expect(flag(episode, "is_podcast") == true && text(episode, "album") == "The Show")

        let wave = try row(pool, "Band/PCM/06 Six.wav")
        #expect(text(wave, "title") == "Wave Six" && text(wave, "artist") == "Band" && int(wave, "samples") == 100_000)
        let aiff = try row(pool, "Band/PCM/07 Seven.aiff")
        #expect(int(aiff, "samples") == 100_000 && int(aiff, "sample_rate") == 96000)
        #expect(text(aiff, "title") == "Seven" && int(aiff, "track_number") == 7, "no tags: the file name, as for MP3")

        let problems = try pool.read { try ProblemStore.all($0) }
        let wma = problems.first { $0.path == "Band/song.wma" }
        #expect(wma?.problem.kind == "unsupported-format", "\(problems)")
        let junk = problems.first { $0.path == "Band/junk.flac" }
        #expect(junk?.skipped == true && junk?.problem.kind == "not-audio", "\(problems)")
    }

    /// 100 mutated copies of a real file of each format (ByteMutator: bytes flipped, runs overwritten,
    /// the file cut) indexed beside the good files into one SQLite file: every mutant is indexed or
    /// skipped with its reason, the scan never stops, and the good files are still exact.
    @Test func mutatedFilesOfEveryFormatNeverStopTheScan() async throws {
        // Seconds of encoding and indexing: off the cooperative pool (see `offThePool`).
        try await offThePool("mutant-index") { [self] in try indexMutants() }
    }

    func indexMutants() throws {
        let m = music
        let wav = dir.file("src.wav").path
        try tone(wav, samples: 88_200)
        let wav48 = dir.file("src48.wav").path
        try tone(wav48, samples: 96_000, rate: 48000)
        try FileManager.default.createDirectory(atPath: m + "/good", withIntermediateDirectories: true)
        try run("flac", ["-s", "-f", "-o", m + "/good/a.flac", wav])
        try run("oggenc", ["-Q", "-o", m + "/good/b.ogg", wav])
        try run("opusenc", ["--quiet", wav48, m + "/good/c.opus"])
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "aac", m + "/good/d.m4a"])
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "alac", m + "/good/e.m4a"])
        try run("sox", [wav, m + "/good/f.wav"])
        try run("sox", [wav, m + "/good/g.aiff"])
        let goods = try FileManager.default.contentsOfDirectory(atPath: m + "/good").sorted()
        var mutants = 0
        for name in goods {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: m + "/good/" + name)))
            let ext = (name as NSString).pathExtension
            var mutator = ByteMutator(name: name)
            try FileManager.default.createDirectory(atPath: m + "/mutants/" + name, withIntermediateDirectories: true)
            for n in 0..<100 {
                try Data(mutator.mutate(bytes)).write(to: URL(fileURLWithPath: m + "/mutants/\(name)/\(n).\(ext)"))
                mutants += 1
            }
        }
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        let summary = try index(m, into: pool)
        #expect(summary.added + summary.skipped == goods.count + mutants, "\(summary)")
        for name in goods {
            let r = try row(pool, "good/" + name)
            let want = name.hasSuffix(".opus") ? 96_000 : 88_200
            #expect(int(r, "samples") == want, "good/\(name): \(int(r, "samples") ?? -1) samples")
        }
        let problems = try pool.read { try ProblemStore.all($0) }
        #expect(problems.allSatisfy { !$0.problem.reason.isEmpty })
        let skipped = Set(problems.filter(\.skipped).map(\.path))
        let indexed = try pool.read { try String.fetchAll($0, sql: "SELECT path FROM tracks WHERE path LIKE 'mutants/%'") }
        #expect(skipped.count + indexed.count == mutants, "every mutant indexed or skipped with a reason")
        let lengths = try pool.read { try Int.fetchAll($0, sql: "SELECT samples FROM tracks WHERE path LIKE 'mutants/%'") }
        #expect(lengths.allSatisfy { $0 >= 0 }, "no negative length")
    }

    /// An `.m4b` with chapters (ffmpeg writes both a Nero `chpl` atom and a QuickTime chapter track):
    /// indexed as an audiobook part whose chapters the device shows and skips as it does an MP3's CHAP.
    @Test func chaptersOfAnM4BAreIndexed() throws {
        let wav = dir.file("src.wav").path
        try tone(wav, samples: 441_000)
        let meta = dir.file("chapters.txt").path
        try Data(
            """
            ;FFMETADATA1
            title=Part One
            album=The Book
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=3000
            title=Opening
            [CHAPTER]
            TIMEBASE=1/1000
            START=3000
            END=7500
            title=Die Räder
            [CHAPTER]
            TIMEBASE=1/1000
            START=7500
            END=10000
            title=Closing

            """.utf8
        ).write(to: URL(fileURLWithPath: meta))
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-i", meta, "-map_metadata", "1", "-map_chapters", "1",
            "-c:a", "aac", "-b:a", "64k", "-f", "ipod", music + "/Part One.m4b"])
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        let r = try row(pool, "Part One.m4b")
        #expect(flag(r, "is_audiobook") && text(r, "album") == "The Book" && int(r, "samples") == 441_000)
        let id: Int64 = try #require(r["id"])
        let chapters = try LibraryStore(pool).chapters(of: id)
        #expect(chapters == [
            Chapter(startMS: 0, endMS: 3000, title: "Opening"), Chapter(startMS: 3000, endMS: 7500, title: "Die Räder"),
            Chapter(startMS: 7500, endMS: 10000, title: "Closing"),
        ])
    }

    /// A picture Ogg stores encoded (opusenc's `--picture`: base64 METADATA_BLOCK_PICTURE in OpusTags) is
    /// marked as artwork by the index and read again, whole, for `readpicture` and the web remote.
    @Test func anEncodedOggPictureIsReadAgainFromTheFile() throws {
        let wav = dir.file("src48.wav").path
        try tone(wav, samples: 48_000, rate: 48000)
        let cover = dir.file("cover.png").path
        try Data(Self.png).write(to: URL(fileURLWithPath: cover))
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try run("opusenc", ["--quiet", "--picture", "3|image/png||1x1x24|" + cover, wav, music + "/Cover.opus"])
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        let r = try row(pool, "Cover.opus")
        #expect(flag(r, "has_artwork") && text(r, "artwork_mime") == "image/png" && int(r, "artwork_offset") == nil)
        let picture = try #require(EmbeddedPictures.read(path: Array((music + "/Cover.opus").utf8)))
        #expect(picture.mime == "image/png" && picture.bytes == Self.png)
        #expect(EmbeddedPictures.read(path: Array((music + "/none.opus").utf8)) == nil)
    }

    /// An AIFF's tags in its `ID3 ` chunk (as iTunes and ffmpeg write them) are read as an MP3's are.
    @Test func anAIFFsID3ChunkIsRead() throws {
        let wav = dir.file("src.wav").path
        try tone(wav, samples: 44_100)
        try FileManager.default.createDirectory(atPath: music + "/x", withIntermediateDirectories: true)
        try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-metadata", "title=Aiff Title", "-metadata", "artist=Aiff Artist",
            "-metadata", "album=Aiff Album", "-metadata", "track=7", "-write_id3v2", "1", music + "/x/file.aiff"])
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        let r = try row(pool, "x/file.aiff")
        #expect(text(r, "title") == "Aiff Title" && text(r, "artist") == "Aiff Artist" && text(r, "album") == "Aiff Album")
        #expect(int(r, "track_number") == 7 && int(r, "samples") == 44_100)
        #expect(text(r, "tag_format")?.hasPrefix("aiff+id3v2") == true || text(r, "tag_format")?.hasPrefix("id3v2") == true,
            "\(text(r, "tag_format") ?? "-")")
    }
}
