import Foundation
import Testing

@testable import Playback

/// FFmpeg's AAC timing: the encoder delay and padding trimmed by the edit list, by an iTunes `iTunSMPB`
/// tag when there is no edit list, and raw ADTS played as decoded.
@Suite struct FFmpegGaplessTests {
    static let samples = 30_001

    @Test("AAC without an edit list but with iTunSMPB: exactly the tagged length, the same PCM as with the edit list")
    func iTunSMPBWithoutEditList() throws {
        let fixtures = try Fixtures()
        let wav = try fixtures.source("src", samples: Self.samples)
        let edited = try fixtures.encode(wav, as: "m4a", name: "edited")
        let plain = fixtures.path("plain.m4a")
        try Shell.run([
            "ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "160k", "-use_editlist", "0", plain,
        ])
        // Without an edit list or a tag FFmpeg has nothing to trim by: the priming plays.
        let untagged = try Decode.file(plain)
        #expect(untagged.samples.count / 2 > Self.samples)
        let smpb = String(format: " 00000000 00000400 %08X %016X", 2048 - (Self.samples + 1024) % 1024, Self.samples)
        try Shell.run([
            "python3", "-c",
            "import sys; from mutagen.mp4 import MP4, MP4FreeForm; f = MP4(sys.argv[1]); "
                + "f['----:com.apple.iTunes:iTunSMPB'] = [MP4FreeForm(sys.argv[2].encode())]; f.save()",
            plain, smpb,
        ])
        let tagged = try Decode.file(plain)
        #expect(tagged.length == Int64(Self.samples))
        #expect(tagged.samples.count == Self.samples * 2, "decoded \(tagged.samples.count / 2) frames")
        let reference = try Decode.file(edited)
        #expect(tagged.samples == reference.samples, "the tag's trim and the edit list's differ")
    }

    @Test("AAC made by ffmpeg decodes to exactly its source's length", arguments: [1, 1023, 1024, 1025, 220_507])
    func aacLengths(_ n: Int) throws {
        let fixtures = try Fixtures()
        let file = try fixtures.encode(try fixtures.source("src", samples: n), as: "m4a", name: "track")
        let r = try Decode.file(file)
        #expect(r.length == Int64(n))
        #expect(r.samples.count == n * 2, "decoded \(r.samples.count / 2) frames of \(n)")
    }

    @Test("iTunSMPB parsing")
    func parse() {
        let t = FFmpegTiming.iTunSMPB(" 00000000 00000840 000001CA 00000000003F31F6 00000000 00000000")
        #expect(t?.delay == 0x840 && t?.padding == 0x1CA && t?.samples == 0x3F31F6)
        #expect(FFmpegTiming.iTunSMPB("junk") == nil)
        #expect(FFmpegTiming.iTunSMPB(" 00000000 00000840 000001CA 0000000000000000") == nil)
    }

    @Test("raw ADTS AAC plays with no known length (its priming and padding included)")
    func adts() throws {
        let fixtures = try Fixtures()
        let wav = try fixtures.source("src", samples: Self.samples)
        let aac = fixtures.path("track.aac")
        try Shell.run(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "aac", aac])
        let r = try Decode.file(aac)
        #expect(r.ended)
        #expect(r.length == nil)
        #expect(r.samples.count / 2 >= Self.samples && r.samples.count / 2 <= Self.samples + 2048)
    }
}
