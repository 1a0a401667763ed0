import Foundation
import Playback
import Testing

/// Every format's gapless album through the real sound server, captured with parec: one continuous tone
/// cut into three parts at exact sample boundaries, each part encoded on its own by the format's own
/// encoder, played as an album. What is heard must be the whole tone, once, with no gap at a join.
extension RealServerTests {
    /// The lossless formats: their joins must be the sine itself (a lossy encoder coding each part on its
    /// own leaves a little of its own noise at the edges).
    static let lossless: Set<String> = ["flac", "alac.m4a", "wav", "aiff"]

    @Test(
        "a gapless album of each format plays as one tone with no gap at the joins",
        arguments: ["flac", "alac.m4a", "wav", "aiff", "ogg", "opus", "m4a"])
    func gaplessAlbumOfEachFormat(_ suffix: String) async throws {
        let lossless = Self.lossless.contains(suffix)
        let full = try fixtures.source("album-\(suffix)-full", samples: 6 * 44_100, frequency: 441)
        let parts = try (0..<3).map { i -> String in
            let wav = fixtures.path("album-\(suffix)-source-\(i + 1).wav")
            try Shell.run(["sox", full, wav, "trim", "\(i * 88_200)s", "88200s"])
            return try fixtures.encode(wav, as: suffix, name: "album-\(suffix)-\(i + 1)")
        }
        let tracks = parts.enumerated().map { AudioTrack(id: $0.offset + 1, path: $0.element) }
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        let capture = try await Capture.start(into: fixtures.dir)
        try await playAlbum(tracks, on: player, log: log)
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let starved = "\(player.underruns) underruns reported by the player, load average \(Self.loadAverage())"
        let range = try #require(signal.audibleRange())
        let seconds = Double(range.count) / Double(signal.rate)
        #expect(abs(seconds - 6) < 0.03, ".\(suffix): heard \(seconds) s of tone, want 6 s; \(starved)")
        let tones = signal.toneSequence()
        #expect(tones.count == 1 && abs((tones.first ?? 0) - 441) < 5, ".\(suffix): heard \(tones)")
        let inner = (range.lowerBound + signal.rate / 50)..<(range.upperBound - signal.rate / 50)
        let windows = stride(from: inner.lowerBound, to: inner.upperBound - 441, by: 441)
            .map { (at: $0, rms: signal.rms($0..<$0 + 441)) }
        let quietest = windows.min { $0.rms < $1.rms } ?? (inner.lowerBound, 0)
        let at = Double(quietest.at - range.lowerBound) / Double(signal.rate)
        #expect(quietest.rms > 0.3, ".\(suffix): a 10 ms window fell to RMS \(quietest.rms) at \(at) s; \(starved)")
        if lossless {
            let residual = signal.sineResidualPeak(frequency: 441, in: inner)
            let t = Double(residual.at - range.lowerBound) / Double(signal.rate)
            #expect(residual.residual < 0.05, ".\(suffix): deviation from the sine \(residual.residual) at \(t) s; \(starved)")
        }
    }
}
