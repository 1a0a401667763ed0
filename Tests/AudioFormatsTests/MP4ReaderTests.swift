import Foundation
import Testing

@testable import AudioFormats

/// The MP4 reader against real files from sox and ffmpeg: stream facts, the exact length and where it
/// comes from (ffmpeg's edit list, iTunSMPB, the bare sample table), and that only `moov` is read.
@Suite(.serialized) struct MP4ReaderTests {
    /// ffmpeg's AAC encoder primes with 1024 samples and writes an edit list (start 1024, duration in
    /// ms); it trims the last frame's duration in `stts`, so the table less 1024 is the input's length.
    @Test(arguments: [(44100, 2, 44100), (48000, 1, 12345), (22050, 2, 1), (32000, 1, 96_001)])
    func aacLengthIsTheInputsLength(rate: Int, channels: Int, samples: Int) throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: samples, rate: rate, channels: channels)
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", "-b:a", "96k", bench.path("a.m4a")])
        let info = try bench.read(bench.path("a.m4a"))
        #expect(info.container == .mp4 && info.codec == .aac)
        #expect(info.sampleRate == rate && info.channels == channels && info.bitsPerSample == nil)
        #expect(info.samples == Int64(samples))
        #expect(info.encoderDelay == 1024)
        let frames = (samples + 1024 + 1023) / 1024  // access units of 1024 samples
        #expect(info.padding == frames * 1024 - 1024 - samples)
        #expect(info.problems.isEmpty)
    }

    @Test func bitrateIsTheSampleSizesOverTheDuration() throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 441_000, rate: 44100, channels: 2)
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", "-b:a", "128k", bench.path("a.m4a")])
        let info = try bench.read(bench.path("a.m4a"))
        #expect((100...140).contains(info.bitrate), "ffmpeg's 128k encode reads as \(info.bitrate) kbit/s")
    }

    /// `moov` after `mdat` (ffmpeg's default) and before it (`+faststart`) read the same, and only `moov`
    /// and the atom headers are read: a few hundred bytes more than `moov` of a 1.3 MB file.
    @Test func moovIsFoundAtEitherEndAndIsAllThatIsRead() throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 441_000, rate: 44100, channels: 2)
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", "-b:a", "256k", bench.path("end.m4a")])
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", "-b:a", "256k", "-movflags", "+faststart", bench.path("front.m4a")])
        let end = try bench.bytes(bench.path("end.m4a"))
        let front = try bench.bytes(bench.path("front.m4a"))
        #expect(try #require(MP4Bytes.find("moov", in: end)) > MP4Bytes.find("mdat", in: end)!)
        #expect(try #require(MP4Bytes.find("moov", in: front)) < MP4Bytes.find("mdat", in: front)!)

        for bytes in [end, front] {
            let source = CountingSource(bytes)
            let info = try MP4Reader.read(source)
            #expect(info.samples == 441_000)
            let moovAt = try #require(MP4Bytes.find("moov", in: bytes)) - 4
            let moovSize = Int(bytes[moovAt..<moovAt + 4].reduce(0) { $0 << 8 | UInt32($1) })
            #expect(source.bytesRead < moovSize + 512, "\(source.bytesRead) bytes read for a moov of \(moovSize)")
            #expect(source.bytesRead * 50 < bytes.count)
            #expect(source.reads <= 10, "\(source.reads) reads")
        }
        #expect(try bench.read(bench.path("end.m4a")) == bench.read(bench.path("front.m4a")))
    }

    /// ALAC has no priming: the sample table's total is the length; the cookie gives depth and rate.
    @Test(arguments: [(44100, 2, 16, 44100), (48000, 1, 24, 100_003), (96000, 2, 24, 7)])
    func alacLengthIsTheSampleTable(rate: Int, channels: Int, bits: Int, samples: Int) throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: samples, rate: rate, channels: channels, bits: bits)
        try bench.ffmpeg(["-i", wav, "-c:a", "alac", bench.path("a.m4a")])
        let info = try bench.read(bench.path("a.m4a"))
        #expect(info.codec == .alac)
        #expect(info.sampleRate == rate && info.channels == channels && info.bitsPerSample == bits)
        #expect(info.samples == Int64(samples))
        #expect(info.encoderDelay == 0 && info.padding == 0)
        #expect(info.bitrate > 0)
    }

    /// iTunSMPB wins over the edit list (iTunes writes both; here it is made to disagree).
    @Test func iTunSMPBWinsOverTheEditList() throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 44100, rate: 44100, channels: 2)
        let file = bench.path("a.m4a")
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", file])
        try bench.mutagen(
            file,
            """
            f = MP4(path)
            f["----:com.apple.iTunes:iTunSMPB"] = [MP4FreeForm(b" 00000000 00000840 000001C4 000000000000A000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000")]
            f.save()
            """)
        let info = try bench.read(file)
        #expect(info.samples == 0xA000)
        #expect(info.encoderDelay == 0x840 && info.padding == 0x1C4)
        #expect(info.first(.other("com.apple.iTunes:iTunSMPB"))?.hasPrefix(" 00000000 00000840") == true)
    }

    /// Without an edit list the length is the sample table's total, priming included (nothing says more).
    @Test func withoutAnEditListTheLengthIsTheSampleTable() throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 44100, rate: 44100, channels: 2)
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", bench.path("a.m4a")])
        let bytes = MP4Bytes.renaming("edts", to: "free", in: try bench.bytes(bench.path("a.m4a")))
        let info = try MP4Reader.read(MemorySource(bytes))
        #expect(info.samples == Int64(44100 + 1024))
        #expect(info.encoderDelay == 0)
    }

    /// An `.m4b` (ffmpeg's ipod muxer) reads as any m4a.
    @Test func anM4BReads() throws {
        let bench = try MP4Workbench()
        let wav = try bench.tone(samples: 22050, rate: 22050, channels: 1)
        try bench.ffmpeg(["-i", wav, "-c:a", "aac", "-b:a", "32k", bench.path("book.m4b")])
        let info = try bench.read(bench.path("book.m4b"))
        #expect(info.samples == 22050 && info.sampleRate == 22050 && info.channels == 1)
    }

    /// A file that is not MP4 at all, or an ISO file of another kind, is `not-audio`.
    @Test func otherFilesAreNotAudio() throws {
        let mp3ish: [UInt8] = Array("ID3\u{3}\0\0\0\0\0\0".utf8) + [UInt8](repeating: 0, count: 100)
        #expect(throws: FormatError.self) { try MP4Reader.read(MemorySource(mp3ish)) }
        do {
            _ = try MP4Reader.read(MemorySource(mp3ish))
        } catch {
            #expect(error.kind == "not-audio")
        }
        let heic = MP4Bytes.atom("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        do {
            _ = try MP4Reader.read(MemorySource(heic + MP4Bytes.atom("moov", [])))
            Issue.record("an HEIC image read as audio")
        } catch {
            #expect(error.kind == "not-audio")
        }
    }
}
