import Foundation
import Playback
import Testing

/// Pause, resume, seek and volume, judged by what the null sink's monitor carries. The sweep fixtures rise
/// linearly in pitch, so the frequency heard tells the position in the track.
extension RealServerTests {
    /// A 300 Hz → 1500 Hz linear sweep over 4 s: position = (f − 300) / 300 seconds.
    func sweep() throws -> (track: AudioTrack, position: (Double) -> Double) {
        let path = try fixtures.tone("sweep", frequency: "300:1500", seconds: 4)
        return (AudioTrack(id: 7, path: path), { ($0 - 300) / 300 })
    }

    /// What the sink heard of a track paused once: the capture, the one silent stretch (the pause) and the
    /// pitched windows just before and just after it.
    struct PausedOnce {
        var signal: Signal
        var windows: [Signal.Window]
        var gap: ClosedRange<Double>
        var before: Signal.Window
        var after: Signal.Window
        var log: ReportLog
    }

    /// Plays track 7 (at the spoken-word `speed` when given), pauses it 1.5 s into its own time for 1.2 s,
    /// resumes it to its end, and finds the pause in the capture (exactly one silent stretch).
    func pausedOnce(_ track: AudioTrack, speed: Double? = nil) async throws -> PausedOnce {
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        if let speed { player.setSpokenWordSpeed(speed) }
        let capture = try await Capture.start(into: fixtures.dir)
        player.play(track)
        try await log.waitForPosition(7, atLeast: 1.5)
        player.pause()
        try await log.wait(timeout: 5, "paused") { $0 == .paused(.command) }
        try await Task.sleep(for: .seconds(1.2))
        player.resume()
        try await log.wait(timeout: 15, "finished") { $0 == .finished(trackID: 7) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let gaps = signal.silences(longerThan: 0.5)
        #expect(gaps.count == 1, "silent stretches: \(gaps)")
        let gap = try #require(gaps.first)
        let windows = signal.windows()
        let before = try #require(windows.last { $0.time < gap.lowerBound - 0.05 && $0.frequency != nil })
        let after = try #require(windows.first { $0.time > gap.upperBound + 0.05 && $0.frequency != nil })
        return PausedOnce(signal: signal, windows: windows, gap: gap, before: before, after: after, log: log)
    }

    @Test("pause gives silence, resume continues where it paused, nothing lost or repeated")
    func pauseAndResume() async throws {
        let (track, position) = try sweep()
        let paused = try await pausedOnce(track)
        let (signal, windows, gap, before, after) =
            (paused.signal, paused.windows, paused.gap, paused.before, paused.after)
        #expect(gap.upperBound - gap.lowerBound > 0.9, "pause lasted \(gap) in the capture")
        // The pitch just before the pause and just after the resume: the same place in the track.
        let jump = position(after.frequency!) - position(before.frequency!) - (after.time - before.time - (gap.upperBound - gap.lowerBound))
        #expect(abs(jump) < 0.1, "resumed \(jump) s away from where it paused")
        let audible = windows.filter { $0.rms > 0.01 }.count * windows[0].count
        let heard = Double(audible) / Double(signal.rate)
        #expect(abs(heard - 4) < 0.15, "heard \(heard) s of a 4 s track")
    }

    @Test("seek lands within 100 ms of the target")
    func seek() async throws {
        let (track, position) = try sweep()
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        let capture = try await Capture.start(into: fixtures.dir)
        player.play(track)
        try await log.waitForPosition(7, atLeast: 0.8)
        player.seek(to: 2.5)
        try await log.wait(timeout: 15, "finished") { $0 == .finished(trackID: 7) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        // Each window's offset between track position (from pitch) and capture time is constant while the
        // track plays straight; the seek changes it once.
        let offsets = signal.windows().compactMap { w in w.frequency.map { (w.time, position($0) - w.time) } }
        try #require(offsets.count > 20, "heard too little: \(offsets.count) windows")
        let first = offsets[0..<15].map(\.1).sorted()[7]
        // The jump: three windows in a row off the start's offset (one odd window, e.g. a fade-in, is not it).
        let jumpIndex = try #require(
            (0..<(offsets.count - 3)).first { i in (i..<i + 3).allSatisfy { abs(offsets[$0].1 - first) > 0.3 } },
            "no seek heard")
        let after = offsets[(jumpIndex + 1)...].map(\.1).sorted()
        let settled = after[after.count / 2]
        // Where the new audio begins in the capture: the first window after the jump (a window that straddles
        // the join counts as after it, so the error is under one window, 20 ms).
        let landedAt = offsets[jumpIndex].0 + settled
        let around = offsets[max(0, jumpIndex - 3)..<min(offsets.count, jumpIndex + 4)]
            .map { String(format: "%.3f:%+.3f", $0.0, $0.1) }
        #expect(abs(landedAt - 2.5) < 0.1, "seek to 2.5 s landed at \(landedAt) s; time:offset \(around)")
        let reported = log.all.contains { $0 == .position(trackID: 7, seconds: 2.5) }
        #expect(reported, "a position report for the seek target")
    }

    @Test("volume 50 lowers the level by 18 dB (PulseAudio's cubic percent scale)")
    func volume() async throws {
        let path = try fixtures.tone("level", frequency: "1000", seconds: 3)
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        let capture = try await Capture.start(into: fixtures.dir)
        player.setVolume(100)
        player.play(AudioTrack(id: 3, path: path))
        try await log.waitForPosition(3, atLeast: 1)
        player.setVolume(50)
        try await log.wait(timeout: 15, "finished") { $0 == .finished(trackID: 3) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let levels = signal.windows(silence: 0.001).filter { $0.frequency != nil }.map(\.rms)
        try #require(levels.count > 100, "heard only \(levels.count) windows")
        let loud = levels[5..<30].sorted()[12]
        let quiet = levels[(levels.count - 30)..<(levels.count - 5)].sorted()[12]
        let db = 20 * log10(quiet / loud)
        #expect(abs(db - 20 * log10(0.125)) < 1, "volume 50 changed the level by \(db) dB, want −18.1 dB")
    }

    /// Under PipeWire, contrib/ci/pipewire-start.sh holds the quantum at 2048 frames, as ClickWheel's own
    /// stream sets it on a Pi: there a click shorter than the quantum was silent (`ClickSound`).
    @Test("the wheel click plays from the sample cache")
    func click() async throws {
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        try await log.wait(timeout: 10, "connected") {
            if case .outputAvailable = $0 { return true }
            return false
        }
        let capture = try await Capture.start(into: fixtures.dir)
        for _ in 0..<3 {
            player.click(volume: 100)
            try await Task.sleep(for: .milliseconds(250))
        }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()
        let peak = signal.samples.map { abs($0) }.max() ?? 0
        // The sample peaks at 0.8. PipeWire's session manager may apply a volume it remembered for the
        // application (seen: 50 % → 0.1 after the volume test), so only audibility is asserted.
        #expect(peak > 0.05, "click peak \(peak), the sample peaks at 0.8")
    }
}
