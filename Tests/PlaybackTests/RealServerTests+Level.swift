import Foundation
import Playback
import Testing

/// Fades at pause/resume and Sound Check, judged by the captured waveform and its level.
extension RealServerTests {
    @Test("pause fades out and resume fades in: no step in the waveform, 15–80 ms ramps, nothing lost")
    func pauseFades() async throws {
        // A 100 Hz sine at half scale: neighbouring samples differ by at most 0.5 · 2π · 100 / 44100 ≈ 0.007,
        // while a cut mid-swing (cork without a fade) steps by up to 0.5.
        let path = try fixtures.tone("low", frequency: "100", seconds: 3)
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        let capture = try await Capture.start(into: fixtures.dir)
        player.play(AudioTrack(id: 8, path: path))
        try await log.waitForPosition(8, atLeast: 1)
        player.pause()
        try await log.wait(timeout: 5, "paused") { $0 == .paused(.command) }
        try await Task.sleep(for: .seconds(0.8))
        player.resume()
        try await log.wait(timeout: 15, "finished") { $0 == .finished(trackID: 8) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let gaps = signal.silences(longerThan: 0.4)
        #expect(gaps.count == 1, "silent stretches: \(gaps)")
        let gap = try #require(gaps.first)
        // Around the pause and the resume (0.3 s either side of the silence).
        let around = max(1, Int((gap.lowerBound - 0.3) * Double(signal.rate)))..<min(
            signal.samples.count, Int((gap.upperBound + 0.3) * Double(signal.rate)))
        var worst: Float = 0
        var worstAt = 0
        for i in around {
            let step = abs(signal.samples[i] - signal.samples[i - 1])
            if step > worst { (worst, worstAt) = (step, i) }
        }
        #expect(
            worst < 0.05,
            "a step of \(worst) at \(Double(worstAt) / Double(signal.rate)) s; the pause is heard at \(gap); around it: \(signal.samples[max(0, worstAt - 6)..<min(signal.samples.count, worstAt + 6)])")
        // The ramps: 5 ms windows (half a period: their peak is the gain × 0.5) between 10 % and 80 %.
        let size = signal.rate / 200
        func partial(_ from: Double, _ to: Double) -> Int {
            let a = max(0, Int(from * Double(signal.rate)))
            let b = min(signal.samples.count - size, Int(to * Double(signal.rate)))
            return stride(from: a, to: b, by: size).filter { start in
                let peak = signal.samples[start..<start + size].map { abs($0) }.max() ?? 0
                return peak > 0.05 && peak < 0.4
            }.count
        }
        let fadeOut = partial(gap.lowerBound - 0.15, gap.lowerBound + 0.03) * 5
        let fadeIn = partial(gap.upperBound - 0.03, gap.upperBound + 0.15) * 5
        #expect(fadeOut >= 15 && fadeOut <= 80, "fade-out about \(fadeOut) ms")
        #expect(fadeIn >= 15 && fadeIn <= 80, "fade-in about \(fadeIn) ms")
        let audible = signal.windows().filter { $0.rms > 0.01 }.count * signal.rate / 50
        let heard = Double(audible) / Double(signal.rate)
        #expect(abs(heard - 3) < 0.15, "heard \(heard) s of a 3 s track")
    }

    /// The median RMS of the 20 ms windows whose pitch is within 3 % of each of `frequencies`.
    func levels(_ signal: Signal, _ frequencies: [Double]) -> [Double] {
        let windows = signal.windows(silence: 0.005)
        return frequencies.map { f in
            let rms = windows.filter { w in w.frequency.map { abs($0 - f) / f < 0.03 } ?? false }.map(\.rms).sorted()
            return rms.isEmpty ? 0 : rms[rms.count / 2]
        }
    }

    @Test("Sound Check applies the index's ReplayGain: −6 dB plays 6 dB quieter, a gain past the peak is held")
    func soundCheck() async throws {
        let ref = try fixtures.tone("ref", frequency: "440", seconds: 1.5, volume: 0.25)
        let quiet = try fixtures.tone("quiet", frequency: "660", seconds: 1.5, volume: 0.25)
        let loud = try fixtures.tone("loud", frequency: "880", seconds: 1.5, volume: 0.25)
        let tracks = [
            AudioTrack(id: 1, path: ref),
            AudioTrack(id: 2, path: quiet, replayGain: ReplayGain(gain: -6, peak: 0.25)),
            // +12 dB would clip a 0.25 peak... past full scale at 0.5 peak: held at 1 / 0.5, +6 dB.
            AudioTrack(id: 3, path: loud, replayGain: ReplayGain(gain: 12, peak: 0.5)),
        ]
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.setSoundCheck(true)
        let on = try await Capture.start(into: fixtures.dir, name: "on")
        try await playAlbum(tracks, on: player, log: log)
        try await Task.sleep(for: .milliseconds(300))
        let withCheck = levels(try on.stop(), [440, 660, 880])

        player.setSoundCheck(false)
        let off = try await Capture.start(into: fixtures.dir, name: "off")
        // New ids: `playAlbum` waits for each id's `started`, and the first round's are in the log already.
        let again = [
            AudioTrack(id: 4, path: ref), AudioTrack(id: 5, path: quiet, replayGain: tracks[1].replayGain),
            AudioTrack(id: 6, path: loud, replayGain: tracks[2].replayGain),
        ]
        try await playAlbum(again, on: player, log: log)
        try await Task.sleep(for: .milliseconds(300))
        let without = levels(try off.stop(), [440, 660, 880])

        try #require(withCheck.allSatisfy { $0 > 0 } && without.allSatisfy { $0 > 0 }, "\(withCheck) \(without)")
        let db = { (a: Double, b: Double) in 20 * log10(a / b) }
        #expect(abs(db(withCheck[1], withCheck[0]) + 6) < 1, "−6 dB track: \(db(withCheck[1], withCheck[0])) dB")
        #expect(abs(db(withCheck[2], withCheck[0]) - 6.02) < 1, "+12 dB, peak 0.5: \(db(withCheck[2], withCheck[0])) dB")
        #expect(abs(db(without[1], without[0])) < 1, "Sound Check off: \(db(without[1], without[0])) dB")
        #expect(abs(db(without[2], without[0])) < 1, "Sound Check off: \(db(without[2], without[0])) dB")
    }
}
