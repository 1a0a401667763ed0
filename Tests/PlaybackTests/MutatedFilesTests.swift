import ClickWheelTestKit
import Foundation
import Testing

@testable import Playback

/// 100 mutated copies of a real file of each format (bytes flipped, runs overwritten, the file cut),
/// each opened and decoded to its end through the decoder table: a clear error or some audio and an
/// end, never a crash or an endless decode; the good file still decodes exactly.
/// Serialized: eight formats decoding at once on a 2-core machine starve the real-time player tests that
/// run beside this suite.
@Suite(.serialized) struct MutatedFilesTests {
    static let suffixes = ["mp3", "flac", "ogg", "opus", "m4a", "alac.m4a", "wav", "aiff"]

    @Test("100 mutants of each format open with a reason or play and end", arguments: suffixes)
    func mutants(_ suffix: String) async throws {
        // Seconds of decoding: off the cooperative pool (see `offThePool`).
        try await offThePool("mutants-\(suffix)") { try Self.decodeMutants(suffix) }
    }

    static func decodeMutants(_ suffix: String) throws {
        let fixtures = try Fixtures()
        let rate = suffix == "opus" ? 48_000 : 44_100
        // Two seconds: several Ogg pages (opusenc puts up to a second of audio in one), so a mutation
        // can spare some of the audio.
        let wav = try fixtures.source("src", samples: rate * 2, rate: rate)
        let good: String
        if suffix == "mp3" {
            good = fixtures.path("good.mp3")
            try Shell.run(["lame", "--quiet", "-V2", wav, good])
        } else {
            good = try fixtures.encode(wav, as: suffix, name: "good")
        }
        let original = try Decode.file(good)
        #expect(suffix == "mp3" || original.samples.count == rate * 2 * 2, ".\(suffix): the good file decodes exactly")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: good)))
        let fileSuffix = URL(fileURLWithPath: good).pathExtension
        var mutator = ByteMutator(name: suffix)
        var opened = 0
        for n in 0..<100 {
            let path = fixtures.path("mutant-\(n).\(fileSuffix)")
            try Data(mutator.mutate(bytes)).write(to: URL(fileURLWithPath: path))
            do {
                let decoder = try Decoders.open(AudioTrack(id: n, path: path), soundCheck: false)
                opened += 1
                let frames = Self.decodedFrames(decoder, limit: rate * 20)
                #expect(frames <= rate * 20, ".\(suffix) mutant \(n): decoding did not end")
            } catch {
                #expect(error.description.contains(path), ".\(suffix) mutant \(n): unclear reason: \(error)")
            }
        }
        #expect(opened > 0, ".\(suffix): no mutant opened at all (the mutations miss the audio)")
    }

    /// Frames decoded until the end, a failure, or `limit` frames (then `limit + 1`).
    static func decodedFrames(_ decoder: any TrackDecoder, limit: Int) -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096 * decoder.format.frameSize, alignment: 16)
        defer { buffer.deallocate() }
        var frames = 0
        while frames <= limit {
            switch decoder.read(into: buffer) {
            case .data(let bytes): frames += bytes / decoder.format.frameSize
            case .end(let bytes): return frames + bytes / decoder.format.frameSize
            case .failed: return frames
            }
        }
        return frames
    }
}
