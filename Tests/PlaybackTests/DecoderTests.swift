import Foundation
import Testing

@testable import Playback

/// `TrackDecoder` on damaged files, in-process and without audio.
@Suite struct DecoderTests {
    /// Decodes `path` to its end; returns the frames decoded and whether it ended cleanly.
    func decodeAll(_ path: String) throws -> (frames: Int, ended: Bool, format: PCMFormat) {
        let decoder = try Mpg123Decoder(AudioTrack(id: 1, path: path))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var bytes = 0
        for _ in 0..<100_000 {
            switch decoder.read(into: buffer) {
            case .data(let n): bytes += n
            case .end(let n): return ((bytes + n) / decoder.format.frameSize, true, decoder.format)
            case .failed: return (bytes / decoder.format.frameSize, false, decoder.format)
            }
        }
        return (bytes / decoder.format.frameSize, false, decoder.format)
    }

    @Test("zeroed frames and a forged header of another format are skipped; the rest of the track decodes")
    func damageIsSkipped() throws {
        let fixtures = try Fixtures()
        let clean = try fixtures.tone("clean", frequency: "440", seconds: 3)
        let whole = try decodeAll(clean)
        #expect(whole.ended && whole.frames == 3 * 44_100)
        let size = try FileManager.default.attributesOfItem(atPath: clean)[.size] as? Int ?? 1
        for (fraction, forging) in [(0.3, true), (0.5, true), (0.7, true), (0.5, false)] {
            let broken = try fixtures.corrupted(clean, at: fraction, count: 3000, forgingHeader: forging)
            let result = try decodeAll(broken)
            let junk = 3 * 3000 / Double(size)
            let seconds = Double(result.frames) / 44_100
            #expect(result.ended, "at \(fraction): did not end cleanly")
            #expect(result.format == whole.format, "at \(fraction): the format changed to \(result.format)")
            #expect(
                // Neighbours of the zeroed frames can be lost too (bit reservoir): up to ~0.4 s in all was seen.
                seconds > 3 - junk - 0.5 && seconds <= 3,
                "at \(fraction) (forged header: \(forging)): \(seconds) s decoded, want about \(3 - junk) s")
        }
    }
}
