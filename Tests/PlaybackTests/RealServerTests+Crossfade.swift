import ClickWheelTestKit
import Foundation
import Playback
import Testing

/// Crossfade through the real sound server, captured with parec: MPD 0.23's rules (tracks of 20 s and
/// more, same sample format) and the gapless join kept at 0. The long fixtures are encoded, and the long
/// captures measured, off Swift's cooperative pool (`offThePool`): seconds of work there would hold up
/// the real-time tests running beside these.
extension RealServerTests {
    /// A half-scale sine of `seconds` at 44.1 kHz stereo (sox), cut into `parts` equal files at exact
    /// sample boundaries, each encoded on its own as `suffix` (lame VBR MP3 or flac).
    func longTone(_ name: String, frequency: Int, seconds: Int, parts: Int = 1, as suffix: String) async throws -> [String] {
        let full = fixtures.path(name + "-full.wav")
        let names = (1...parts).map { (wav: fixtures.path("\(name)-\($0).wav"), out: fixtures.path("\(name)-\($0).\(suffix)")) }
        let samples = seconds * 44_100 / parts
        try await offThePool("fixture-\(name)") {
            _ = try Shell.run([
                // (The rate before `-n`: the length in samples is counted at it, no resampling.)
                "sox", "-r", "44100", "-n", "-c", "2", "-b", "16", full, "synth", "\(seconds * 44_100)s", "sine",
                "\(frequency)", "vol", "0.5",
            ])
            for (i, file) in names.enumerated() {
                _ = try Shell.run(["sox", full, file.wav, "trim", "\(i * samples)s", "\(samples)s"])
                if suffix == "mp3" {
                    _ = try Shell.run(["lame", "--quiet", "-V2", file.wav, file.out])
                } else {
                    _ = try Shell.run(["flac", "-s", "-f", "-o", file.out, file.wav])
                }
            }
        }
        return names.map(\.out)
    }

    @Test("crossfade 2 overlaps an MP3's last 2 s with a FLAC's first 2 s: both tones heard at once, a+b-2 s in all")
    func crossfadeOverlapsTwoFormats() async throws {
        let seconds = 21
        let first = try await longTone("xf440", frequency: 440, seconds: seconds, as: "mp3")[0]
        let second = try await longTone("xf660", frequency: 660, seconds: seconds, as: "flac")[0]
        let tracks = [AudioTrack(id: 1, path: first), AudioTrack(id: 2, path: second)]
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.setCrossfade(seconds: 2)
        let capture = try await Capture.start(into: fixtures.dir)
        try await playAlbum(tracks, on: player, log: log, timeout: 60)
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let starved = "\(player.underruns) underruns reported by the player, load average \(Self.loadAverage())"
        let events = log.events.filter {
            if case .started = $0 { return true }
            if case .finished = $0 { return true }
            return false
        }
        #expect(events == [.started(trackID: 1), .finished(trackID: 1), .started(trackID: 2), .finished(trackID: 2)])
        // The overlap is heard from 19 s to 21 s into the sound. In 100 ms windows: before it only 440 Hz,
        // in its middle both (each at least sin(pi/8) of its level there, equal-power), after it only 660 Hz.
        let overlapStart = Double(seconds - 2)
        let measured = try await offThePool("xf-measure") { () -> (heard: Double, levels: [(t: Double, a: Double, b: Double)])? in
            guard let range = signal.audibleRange() else { return nil }
            let times =
                Array(stride(from: overlapStart - 1.0, to: overlapStart - 0.1, by: 0.1))
                + Array(stride(from: overlapStart + 0.4, to: overlapStart + 1.5, by: 0.1))
                + Array(stride(from: overlapStart + 2.1, to: overlapStart + 3, by: 0.1))
            let levels = times.map { t in
                let start = range.lowerBound + Int(t * Double(signal.rate))
                let w = start..<start + signal.rate / 10
                return (t, signal.toneAmplitude(440, in: w), signal.toneAmplitude(660, in: w))
            }
            return (Double(range.count) / Double(signal.rate), levels)
        }
        let result = try #require(measured, "nothing audible; \(starved)")
        #expect(abs(result.heard - Double(2 * seconds - 2)) < 0.05, "heard \(result.heard) s, want \(2 * seconds - 2) s; \(starved)")
        for l in result.levels {
            if l.t < overlapStart {
                #expect(l.a > 0.4 && l.b < 0.02, "before the overlap at \(l.t) s: 440 Hz \(l.a), 660 Hz \(l.b); \(starved)")
            } else if l.t < overlapStart + 2 {
                #expect(l.a > 0.15 && l.b > 0.15, "in the overlap at \(l.t) s: 440 Hz \(l.a), 660 Hz \(l.b); \(starved)")
            } else {
                #expect(l.a < 0.02 && l.b > 0.4, "after the overlap at \(l.t) s: 440 Hz \(l.a), 660 Hz \(l.b); \(starved)")
            }
        }
    }

    @Test("crossfade set back to 0 keeps the gapless join: one continuous tone cut in two 20 s files")
    func crossfadeZeroKeepsTheGaplessJoin() async throws {
        let paths = try await longTone("xf-gapless", frequency: 441, seconds: 41, parts: 2, as: "mp3")
        let tracks = paths.enumerated().map { AudioTrack(id: $0.offset + 1, path: $0.element) }
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.setCrossfade(seconds: 3)
        player.setCrossfade(seconds: 0)
        let capture = try await Capture.start(into: fixtures.dir)
        try await playAlbum(tracks, on: player, log: log, timeout: 60)
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let starved = "\(player.underruns) underruns reported by the player, load average \(Self.loadAverage())"
        // Around the join (20.5 s in) no window drops out and the sine goes on undisturbed.
        let measured = try await offThePool("xf-measure") { () -> (heard: Double, quietest: Double, residual: Double)? in
            guard let range = signal.audibleRange() else { return nil }
            let join = range.lowerBound + Int(20.5 * Double(signal.rate))
            let around = (join - signal.rate)..<(join + signal.rate)
            let quietest = stride(from: around.lowerBound, to: around.upperBound - 441, by: 441)
                .map { signal.rms($0..<$0 + 441) }.min() ?? 0
            let residual = signal.sineResidualPeak(frequency: 441, in: around).residual
            return (Double(range.count) / Double(signal.rate), quietest, residual)
        }
        let result = try #require(measured, "nothing audible; \(starved)")
        #expect(abs(result.heard - 41) < 0.03, "heard \(result.heard) s of tone, want 41 s; \(starved)")
        #expect(result.quietest > 0.3, "a 10 ms window near the join fell to RMS \(result.quietest); \(starved)")
        #expect(result.residual < 0.05, "largest deviation from the sine near the join \(result.residual); \(starved)")
    }

    @Test("pause and seek during a crossfade: faded, no click, the resume goes on with both, after the seek only the next track")
    func pauseAndSeekDuringACrossfade() async throws {
        let seconds = 21
        let first = try await longTone("xfp440", frequency: 440, seconds: seconds, as: "mp3")[0]
        let second = try await longTone("xfp660", frequency: 660, seconds: seconds, as: "mp3")[0]
        let tracks = [AudioTrack(id: 1, path: first), AudioTrack(id: 2, path: second)]
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.setCrossfade(seconds: 4)
        let capture = try await Capture.start(into: fixtures.dir)
        player.play(tracks[0])
        try await log.wait(timeout: 60, "started(1)") { $0 == .started(trackID: 1) }
        player.enqueueNext(tracks[1])
        // The overlap is heard: pause in its middle, resume, then seek into the next track.
        try await log.wait(timeout: 60, "started(2)") { $0 == .started(trackID: 2) }
        try await log.waitForPosition(2, atLeast: 1.5, timeout: 30)
        player.pause()
        try await log.wait(timeout: 15, "paused") { $0 == .paused(.command) }
        try await Task.sleep(for: .milliseconds(600))
        player.resume()
        try await log.waitForPosition(2, atLeast: 2.5, timeout: 30)
        player.seek(to: Double(seconds) - 3)
        try await log.wait(timeout: 30, "finished(2)") { $0 == .finished(trackID: 2) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let starved = "\(player.underruns) underruns reported by the player, load average \(Self.loadAverage())"
        struct Measured: Sendable {
            var pauses: [ClosedRange<Double>]
            /// After the resume: time, 440 Hz and 660 Hz levels.
            var resumed: [(Double, Double, Double)] = []
            /// The last 2 s, after the seek.
            var end: [(Double, Double)] = []
            var jump: (size: Float, at: Double) = (0, 0)
        }
        let measured = try await offThePool("xf-measure") { () -> Measured? in
            guard let range = signal.audibleRange() else { return nil }
            let rate = signal.rate
            var m = Measured(pauses: signal.silences(longerThan: 0.3))
            guard let pause = m.pauses.first else { return m }
            // The resume picks the overlap up where the pause left it: both tones again after the fade-in.
            for t in stride(from: pause.upperBound + 0.2, to: pause.upperBound + 0.7, by: 0.1) {
                let w = Int(t * Double(rate))..<Int(t * Double(rate)) + rate / 10
                m.resumed.append((t, signal.toneAmplitude(440, in: w), signal.toneAmplitude(660, in: w)))
            }
            // The last 2 s are the next track's end alone: the old track's overlap went with the seek.
            for start in stride(from: range.upperBound - 2 * rate, to: range.upperBound - rate / 5, by: rate / 10) {
                let w = start..<start + rate / 10
                m.end.append((signal.toneAmplitude(440, in: w), signal.toneAmplitude(660, in: w)))
            }
            // No click in the pause's fade-out and the resume's fade-in inside the overlap (0.5 s either side
            // of the pause; the seek after it cuts as it does without crossfade): two half-scale sines change
            // by at most 0.08 from one sample to the next; a step where audio was cut jumps by far more.
            // (Only there: a dropout elsewhere on a loaded machine is the underrun tests' business.)
            for i in Int((pause.lowerBound - 0.5) * Double(rate))..<Int((pause.upperBound + 0.4) * Double(rate)) {
                let d = abs(signal.samples[i] - signal.samples[i - 1])
                if d > m.jump.size { m.jump = (d, Double(i - range.lowerBound) / Double(rate)) }
            }
            return m
        }
        let m = try #require(measured, "nothing audible; \(starved)")
        #expect(m.pauses.count == 1, "the pause: \(m.pauses); \(starved)")
        for (t, a, b) in m.resumed {
            #expect(a > 0.1 && b > 0.1, "after the resume at \(t) s: 440 Hz \(a), 660 Hz \(b); \(starved)")
        }
        for (a, b) in m.end {
            #expect(a < 0.02 && b > 0.4, "after the seek: 440 Hz \(a), 660 Hz \(b); \(starved)")
        }
        #expect(m.jump.size < 0.12, "a jump of \(m.jump.size) at \(m.jump.at) s into the sound; \(starved)")
    }

    @Test("tracks shorter than 20 s are not crossfaded (MPD's rule): they join gaplessly")
    func shortTracksAreNotCrossfaded() async throws {
        let paths = try fixtures.album("xf-short", frequency: 441, seconds: 4, parts: 2)
        let tracks = paths.enumerated().map { AudioTrack(id: $0.offset + 1, path: $0.element) }
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.setCrossfade(seconds: 1)
        let capture = try await Capture.start(into: fixtures.dir)
        try await playAlbum(tracks, on: player, log: log)
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let range = try #require(signal.audibleRange())
        let heard = Double(range.count) / Double(signal.rate)
        #expect(abs(heard - 4) < 0.03, "heard \(heard) s of tone, want 4 s; \(player.underruns) underruns")
    }
}

extension Signal {
    /// The amplitude of the `frequency` component in `range` (Goertzel; a full-scale sine is 1).
    func toneAmplitude(_ frequency: Double, in range: Range<Int>) -> Double {
        let w = 2 * Double.pi * frequency / Double(rate)
        let coefficient = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for i in range {
            let s0 = Double(samples[i]) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * power.squareRoot() / Double(range.count)
    }
}
