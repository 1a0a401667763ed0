import Foundation
import Testing

@testable import Playback

/// Broken and misnamed files: a clear error at open, or what can be played and a clean end; never a crash.
@Suite struct DecoderFailureTests {
    static let suffixes = ["flac", "ogg", "opus", "m4a", "alac.m4a", "wav", "aiff"]

    @Test("a file cut at 60 % fails to open with a reason or plays part and ends", arguments: suffixes)
    func truncated(_ suffix: String) throws {
        let fixtures = try Fixtures()
        let wav = try fixtures.source("src", samples: 40_000, rate: suffix == "opus" ? 48_000 : 44_100)
        let cut = try fixtures.truncated(try fixtures.encode(wav, as: suffix, name: "track"), to: 0.6)
        do {
            let d = try Decoders.open(AudioTrack(id: 1, path: cut), soundCheck: false)
            let r = Decode.all(d)
            #expect(r.samples.count <= 40_000 * 2)
            #expect(r.samples.count > 0, "played nothing of what is there")
        } catch {
            #expect(error.description.contains(cut), "unclear reason: \(error)")
        }
    }

    @Test(
        "junk with a format's suffix fails at open with the file named", arguments: suffixes + ["aac", "aifc", "oga"])
    func junk(_ suffix: String) throws {
        let fixtures = try Fixtures()
        let file = try fixtures.junk(suffix: suffix)
        #expect {
            _ = try Decoders.open(AudioTrack(id: 1, path: file), soundCheck: false)
        } throws: { error in
            (error as? PlaybackError)?.description.contains(file) ?? false
        }
    }

    @Test("a missing file fails with the system's reason")
    func missing() {
        #expect(throws: PlaybackError.self) {
            _ = try Decoders.open(AudioTrack(id: 1, path: "/nonexistent/x.flac"), soundCheck: false)
        }
    }

    @Test("the first bytes overrule a wrong suffix: FLAC named .mp3, Opus named .ogg, MP4 named .flac")
    func misnamed() throws {
        let fixtures = try Fixtures()
        let wav = try fixtures.source("src", samples: 9_600, rate: 48_000)
        for (suffix, wrong, plugin) in [
            ("flac", "mp3", "FLACDecoder"), ("opus", "ogg", "OpusDecoder"), ("m4a", "flac", "FFmpegDecoder"),
        ] {
            let file = try fixtures.encode(wav, as: suffix, name: "right-\(suffix)")
            let renamed = fixtures.path("wrong-\(suffix).\(wrong)")
            try FileManager.default.copyItem(atPath: file, toPath: renamed)
            let d = try Decoders.open(AudioTrack(id: 1, path: renamed), soundCheck: false)
            #expect(String(describing: type(of: d)) == plugin, "\(suffix) named .\(wrong) opened by \(type(of: d))")
            #expect(Decode.all(d).samples.count == 9_600 * 2)
        }
    }

    @Test("the plugin table: names, suffixes, MIME types")
    func table() {
        #expect(Decoders.all.map(\.name) == ["mpg123", "flac", "vorbis", "opus", "ffmpeg", "pcm"])
        #expect(Decoders.plugin(forSuffix: "FLAC")?.name == "flac")
        #expect(Decoders.plugin(forSuffix: "m4b")?.name == "ffmpeg")
        #expect(Decoders.plugin(forSuffix: "aifc")?.name == "pcm")
        #expect(Decoders.plugin(forSuffix: "ogg")?.name == "vorbis")
        #expect(
            Decoders.suffixes.isSuperset(of: [
                "mp3", "flac", "ogg", "oga", "opus", "m4a", "m4b", "mp4", "aac", "wav", "aif", "aiff", "aifc",
            ]))
        #expect(Decoders.all.allSatisfy { !$0.mimeTypes.isEmpty })
    }
}
