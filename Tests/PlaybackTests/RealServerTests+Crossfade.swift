import Foundation
import Playback
import Testing

/// Crossfade through the real sound server, captured with parec: MPD 0.23's rules (tracks of 20 s and
/// more, same sample format) and the gapless join kept at 0.
extension RealServerTests {
    @Test("crossfade 2 overlaps an MP3's last 2 s with a FLAC's first 2 s: both tones heard at once, a+b-2 s in all")
    func crossfadeOverlapsTwoFormats() async throws {
        let seconds = 21
        let first = try fixtures.tone("xf440", frequency: "440", seconds: Double(seconds))
        let wav = try fixtures.source("xf660-source", samples: seconds * 44_100, frequency: 660)
        let second = try fixtures.encode(wav, as: "flac", name: "xf660")
        let tracks = [AudioTrack(id: 1, path: first), AudioTrack(id: 2, path: second)]
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.setCrossfade(seconds: 2)
        let capture = try await Capture.start(into: fixtures.dir)
        try await playAlbum(tracks, on: player, log: log, timeout: 60)
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let starved = "\(player.underruns) underruns reported by the player, load average \(Self.loadAverage())"
        let range = try #require(signal.audibleRange())
        let heard = Double(range.count) / Double(signal.rate)
        #expect(abs(heard - Double(2 * seconds - 2)) < 0.05, "heard \(heard) s, want \(2 * seconds - 2) s; \(starved)")
        let events = log.events.filter {
            if case .started = $0 { return true }
            if case .finished = $0 { return true }
            return false
        }
        #expect(events == [.started(trackID: 1), .finished(trackID: 1), .started(trackID: 2), .finished(trackID: 2)])

        // The overlap is heard from 19 s to 21 s into the sound. In 100 ms windows: before it only 440 Hz,
        // in its middle both (each at least sin(pi/8) of its level there, equal-power), after it only 660 Hz.
        let rate = signal.rate
        func window(at t: Double) -> Range<Int> {
            let start = range.lowerBound + Int(t * Double(rate))
            return start..<start + rate / 10
        }
        func levels(at t: Double) -> (a: Double, b: Double) {
            (signal.toneAmplitude(440, in: window(at: t)), signal.toneAmplitude(660, in: window(at: t)))
        }
        let overlapStart = Double(seconds - 2)
        for t in stride(from: overlapStart - 1.0, to: overlapStart - 0.1, by: 0.1) {
            let l = levels(at: t)
            #expect(l.a > 0.4 && l.b < 0.02, "before the overlap at \(t) s: 440 Hz \(l.a), 660 Hz \(l.b); \(starved)")
        }
        for t in stride(from: overlapStart + 0.4, to: overlapStart + 1.5, by: 0.1) {
            let l = levels(at: t)
            #expect(l.a > 0.15 && l.b > 0.15, "in the overlap at \(t) s: 440 Hz \(l.a), 660 Hz \(l.b); \(starved)")
        }
        for t in stride(from: overlapStart + 2.1, to: overlapStart + 3, by: 0.1) {
            let l = levels(at: t)
            #expect(l.a < 0.02 && l.b > 0.4, "after the overlap at \(t) s: 440 Hz \(l.a), 660 Hz \(l.b); \(starved)")
        }
    }

    @Test("crossfade set back to 0 keeps the gapless join: one continuous tone cut in two 20 s files")
    func crossfadeZeroKeepsTheGaplessJoin() async throws {
        let paths = try fixtures.album("xf-gapless", frequency: 441, seconds: 41, parts: 2)
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
        let range = try #require(signal.audibleRange())
        let heard = Double(range.count) / Double(signal.rate)
        #expect(abs(heard - 41) < 0.03, "heard \(heard) s of tone, want 41 s; \(starved)")
        // Around the join (20.5 s in) no window drops out and the sine goes on undisturbed.
        let join = range.lowerBound + Int(20.5 * Double(signal.rate))
        let around = (join - signal.rate)..<(join + signal.rate)
        let quietest = stride(from: around.lowerBound, to: around.upperBound - 441, by: 441)
            .map { signal.rms($0..<$0 + 441) }.min() ?? 0
        #expect(quietest > 0.3, "a 10 ms window near the join fell to RMS \(quietest); \(starved)")
        let residual = signal.sineResidualPeak(frequency: 441, in: around)
        #expect(residual.residual < 0.05, "largest deviation from the sine near the join \(residual.residual); \(starved)")
    }

    @Test("pause and seek during a crossfade: faded, no click, the resume goes on with both, after the seek only the next track")
    func pauseAndSeekDuringACrossfade() async throws {
        let seconds = 21
        let first = try fixtures.tone("xfp440", frequency: "440", seconds: Double(seconds))
        let second = try fixtures.tone("xfp660", frequency: "660", seconds: Double(seconds))
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
        let range = try #require(signal.audibleRange())
        let pauses = signal.silences(longerThan: 0.3)
        #expect(pauses.count == 1, "the pause: \(pauses); \(starved)")
        let pause = try #require(pauses.first)
        // The resume picks the overlap up where the pause left it: both tones again after the fade-in.
        let rate = signal.rate
        for t in stride(from: pause.upperBound + 0.2, to: pause.upperBound + 0.7, by: 0.1) {
            let w = Int(t * Double(rate))..<Int(t * Double(rate)) + rate / 10
            let a = signal.toneAmplitude(440, in: w), b = signal.toneAmplitude(660, in: w)
            #expect(a > 0.1 && b > 0.1, "after the resume at \(t) s: 440 Hz \(a), 660 Hz \(b); \(starved)")
        }
        // The last 2 s are the next track's end alone: the old track's overlap went with the seek.
        for start in stride(from: range.upperBound - 2 * rate, to: range.upperBound - rate / 5, by: rate / 10) {
            let w = start..<start + rate / 10
            let a = signal.toneAmplitude(440, in: w), b = signal.toneAmplitude(660, in: w)
            #expect(a < 0.02 && b > 0.4, "after the seek: 440 Hz \(a), 660 Hz \(b); \(starved)")
        }
        // No click in the pause's fade-out and the resume's fade-in inside the overlap (0.5 s either side of
        // the pause; the seek after it cuts as it does without crossfade): two half-scale sines change by at
        // most 0.08 from one sample to the next; a step where audio was cut jumps by far more. (Only there:
        // a dropout elsewhere on a loaded machine is the underrun tests' business.)
        var jump = (size: Float(0), at: 0)
        for i in Int((pause.lowerBound - 0.5) * Double(rate))..<Int((pause.upperBound + 0.4) * Double(rate)) {
            let d = abs(signal.samples[i] - signal.samples[i - 1])
            if d > jump.size { jump = (d, i) }
        }
        let at = Double(jump.at - range.lowerBound) / Double(rate)
        #expect(jump.size < 0.12, "a jump of \(jump.size) at \(at) s into the sound; \(starved)")
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
