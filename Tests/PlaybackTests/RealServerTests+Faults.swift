import Foundation
import Playback
import Testing

/// Faults: the server restarting or missing, the sink going away, broken files.
extension RealServerTests {
    @Test("a sound server restart mid-track is survived: it reconnects and continues from the same place")
    func serverRestart() async throws {
        // 300 Hz → 1100 Hz over 8 s: position = (f − 300) / 100 seconds.
        let path = try fixtures.tone("long", frequency: "300:1100", seconds: 8)
        let position = { (f: Double) in (f - 300) / 100 }
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        let first = try await Capture.start(into: fixtures.dir, name: "before")
        player.play(AudioTrack(id: 9, path: path))
        try await log.waitForPosition(9, atLeast: 2)
        let mark = log.count
        try SoundServer.stop()
        let before = try first.stop()
        let lost = try await log.wait(after: mark, timeout: 10, "outputUnavailable") {
            if case .outputUnavailable = $0 { return true }
            return false
        }
        let lastHeard = log.all.prefix(mark + 1).compactMap { r -> Double? in
            if case .position(9, let s) = r { return s }
            return nil
        }.last ?? 0
        try SoundServer.start()
        let up = Date()
        let second = try await Capture.start(into: fixtures.dir, name: "after")
        try await log.wait(after: mark, timeout: 10, "outputAvailable") {
            if case .outputAvailable = $0 { return true }
            return false
        }
        let resumed = try await log.wait(after: mark, timeout: 10, "a position after the restart") {
            if case .position(9, _) = $0 { return true }
            return false
        }
        try await log.wait(timeout: 20, "finished") { $0 == .finished(trackID: 9) }
        try await Task.sleep(for: .milliseconds(300))
        let after = try second.stop()

        let delay = resumed.time.timeIntervalSince(up)
        #expect(delay < 2, "playing again \(delay) s after the server was back (lost at \(lost.time))")
        if case .position(_, let s) = resumed.report {
            #expect(s > lastHeard - 0.5 && s < lastHeard + 1, "went on at \(s) s after losing it at \(lastHeard) s")
        }
        #expect(log.events.filter { $0 == .started(trackID: 9) }.count == 1, "no second start: \(log.events)")
        // What the listener hears: the sweep goes on from about where it broke off. Medians of five windows
        // (0.1 s): the first window of a fresh capture can hold an onset whose pitch means nothing (seen
        // on PipeWire: 1911 Hz, then 506, 508, ... Hz).
        let pitchesBefore = before.windows().compactMap(\.frequency).suffix(5).sorted()
        let pitchesAfter = after.windows().compactMap(\.frequency).prefix(5).sorted()
        try #require(pitchesBefore.count == 5 && pitchesAfter.count == 5, "heard too little around the restart")
        let p0 = position(pitchesBefore[2])
        let p1 = position(pitchesAfter[2])
        let heardAfter = after.windows().filter { $0.frequency != nil }.prefix(8)
            .map { String(format: "%.2f s: %.0f Hz", $0.time, $0.frequency ?? 0) }
        #expect(
            p1 - p0 > -0.5 && p1 - p0 < 2.5,
            "heard \(p0) s before the restart and \(p1) s after; first pitches after: \(heardAfter)")
    }

    @Test("with no server at start it says so once, keeps trying, and plays when a server appears")
    func noServerAtStart() async throws {
        try #require(
            (try? Shell.run(["sh", "-c", "command -v pulseaudio"])) != nil, "needs the pulseaudio binary")
        let dir = fixtures.dir.appendingPathComponent("late")
        let env = ["CW_PULSE_DIR": dir.path, "CW_PULSE_SINK": "late_null"]
        let script = SoundServer.scripts.appendingPathComponent("pulse-start.sh").path
        let stop = SoundServer.scripts.appendingPathComponent("pulse-stop.sh").path
        let path = try fixtures.tone("late", frequency: "500", seconds: 1)
        let player = AudioPlayer(output: .pulse(server: "unix:\(dir.path)/native"), positionInterval: 0.1)
        let log = ReportLog(player)
        defer { player.shutdown() }
        player.play(AudioTrack(id: 5, path: path))
        try await log.wait(timeout: 5, "outputUnavailable") {
            if case .outputUnavailable = $0 { return true }
            return false
        }
        try await Task.sleep(for: .seconds(1))
        let outages = log.all.filter {
            if case .outputUnavailable = $0 { return true }
            return false
        }
        #expect(outages.count == 1, "reported \(outages.count) times while retrying")
        try Shell.run(["bash", script], environment: env)
        defer { _ = try? Shell.run(["bash", stop], environment: env) }
        try await log.wait(timeout: 5, "outputAvailable") {
            if case .outputAvailable = $0 { return true }
            return false
        }
        try await log.wait(timeout: 10, "started") { $0 == .started(trackID: 5) }
        try await log.wait(timeout: 10, "finished") { $0 == .finished(trackID: 5) }
    }

    @Test("the sink going away pauses playback; resume fades in (no click) and plays on")
    func sinkRemoved() async throws {
        let module = try Shell.run(["pactl", "load-module", "module-null-sink", "sink_name=cw_gone"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try Shell.run(["pactl", "set-default-sink", "cw_gone"])
        defer {
            _ = try? Shell.run(["pactl", "set-default-sink", SoundServer.sink])
            _ = try? Shell.run(["pactl", "unload-module", module])
        }
        // 1 kHz at half scale: a 1 ms window holds a whole period, so its peak is the gain × 0.5.
        let path = try fixtures.tone("gone", frequency: "1000", seconds: 3)
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.play(AudioTrack(id: 4, path: path))
        try await log.waitForPosition(4, atLeast: 0.5)
        try Shell.run(["pactl", "set-default-sink", SoundServer.sink])
        try Shell.run(["pactl", "unload-module", module])
        try await log.wait(timeout: 5, "paused(outputRemoved)") { $0 == .paused(.outputRemoved) }
        try await Task.sleep(for: .milliseconds(500))
        let mark = log.count
        try await Task.sleep(for: .milliseconds(500))
        let moving = log.all.dropFirst(mark).contains {
            if case .position = $0 { return true }
            return false
        }
        #expect(!moving, "positions kept coming while paused")
        // The stream moved to the default sink (captured here) and waits corked.
        let capture = try await Capture.start(into: fixtures.dir, name: "resumed")
        player.resume()
        try await log.wait(timeout: 15, "finished") { $0 == .finished(trackID: 4) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        // The resume ramps up like any other (40 ms fade-in) instead of starting at full level mid-swing.
        let onset = try #require(signal.samples.firstIndex { abs($0) > 0.01 }, "nothing heard after the resume")
        let ms = signal.rate / 1000
        let peaks = (0..<80).map { w in
            let a = min(signal.samples.count, onset + w * ms)
            let b = min(signal.samples.count, a + ms)
            return signal.samples[a..<b].map { abs($0) }.max() ?? 0
        }
        let shown = peaks.prefix(50).map { String(format: "%.2f", $0) }.joined(separator: " ")
        #expect(peaks[0] < 0.1 && peaks[1] < 0.15, "the first ms after the resume peak at \(peaks[0]), \(peaks[1]) (1 ms peaks: \(shown))")
        let ramp = peaks.prefix(60).filter { $0 > 0.05 && $0 < 0.4 }.count
        #expect(ramp >= 15 && ramp <= 60, "fade-in about \(ramp) ms (1 ms peaks: \(shown))")
        #expect(peaks[50..<80].allSatisfy { $0 > 0.4 }, "not at full level 50 ms in (1 ms peaks: \(shown))")
        let steps = (max(1, onset - 10 * ms)..<min(signal.samples.count, onset + 60 * ms)).map {
            abs(signal.samples[$0] - signal.samples[$0 - 1])
        }
        // A 1 kHz sine at half scale moves at most 0.5 · 2π · 1000 / 44100 ≈ 0.07 per sample.
        #expect((steps.max() ?? 0) < 0.1, "a step of \(steps.max() ?? 0) at the resume")
    }

    @Test("corrupt frames mid-file (one forging a header of another format) are skipped; the track plays on")
    func corruptFrames() async throws {
        let clean = try fixtures.tone("clean", frequency: "440", seconds: 3)
        // The forged header makes the case that used to cut the track short (about one fixture in three
        // forged one by chance) happen every run.
        let broken = try fixtures.corrupted(clean, at: 0.5, count: 3000, forgingHeader: true)
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        let capture = try await Capture.start(into: fixtures.dir)
        player.play(AudioTrack(id: 6, path: broken))
        try await log.wait(timeout: 15, "finished") { $0 == .finished(trackID: 6) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()
        #expect(!log.events.contains { if case .failed = $0 { return true } else { return false } })
        let tones = signal.toneSequence()
        #expect(tones.count >= 1 && tones.allSatisfy { abs($0 - 440) < 5 }, "heard \(tones)")
        // The skipped frames are gone (not silent): what is heard is the track less about the junk's share.
        let size = try FileManager.default.attributesOfItem(atPath: clean)[.size] as? Int ?? 1
        let junk = 3 * 3000 / Double(size)
        let range = try #require(signal.audibleRange())
        let seconds = Double(range.count) / Double(signal.rate)
        // Besides the zeroed bytes, the frames next to them can be lost (they lean on the damaged ones through
        // the bit reservoir): up to ~0.4 s in all was seen. Cut short at the damage, only ~1.2-1.5 s is heard.
        #expect(seconds > 3 - junk - 0.5 && seconds < 3.05, "heard \(seconds) s of a 3 s track with \(junk) s of junk")
        // A dropout here must not come from the damage. One the server reports as an underrun came from the
        // audio thread being held up (CI machines stall now and then; `underrunIsHeardCountedAndLogged`).
        #expect(
            signal.silences(longerThan: 0.1).isEmpty || player.underruns > 0,
            "a dropout without an underrun: \(signal.silences(longerThan: 0.1))")
    }

    /// The real output with one `write` held up for `stall` seconds once `after` bytes were written: the
    /// audio thread stalls as on an overloaded machine, and the server's buffer runs dry.
    final class StallingOutput: ForwardingOutput {
        let after: Int
        let stall: Double
        private var written = 0
        private var stalled = false

        init(after: Int, stall: Double) {
            self.after = after
            self.stall = stall
            super.init(PulseAudioOutput())
        }

        override func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
            try inner.write(bytes)
            written += bytes.count
            if written >= after, !stalled {
                stalled = true
                Thread.sleep(forTimeInterval: stall)
            }
        }
    }

    @Test("an audio thread held up past the buffer: the server's underrun is counted and logged, playback goes on")
    func underrunIsHeardCountedAndLogged() async throws {
        let path = try fixtures.tone("steady", frequency: "440", seconds: 3)
        let oneSecond = 44_100 * 4
        let player = AudioPlayer(output: .custom { StallingOutput(after: oneSecond, stall: 0.7) }, positionInterval: 0.1)
        defer { player.shutdown() }
        let log = ReportLog(player)
        let capture = try await Capture.start(into: fixtures.dir)
        player.play(AudioTrack(id: 8, path: path))
        try await log.wait(timeout: 15, "finished") { $0 == .finished(trackID: 8) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()
        #expect(player.underruns >= 1, "the server reported no underrun")
        let gaps = signal.silences(longerThan: 0.1)
        #expect(gaps.count == 1 && gaps.allSatisfy { $0.upperBound - $0.lowerBound < 0.8 }, "heard \(gaps)")
        // Nothing is lost: the whole track is heard, the stall on top.
        let range = try #require(signal.audibleRange())
        let seconds = Double(range.count) / Double(signal.rate)
        #expect(seconds > 3.2 && seconds < 3.9, "heard \(seconds) s of a 3 s track with a 0.7 s stall")
        #expect(!log.events.contains { if case .failed = $0 { return true } else { return false } })
    }

    @Test("an undecodable file is reported and skipped; a bad queued track is reported before it is due")
    func undecodable() async throws {
        let junk = try fixtures.garbage("junk")
        let good = try fixtures.tone("good", frequency: "550", seconds: 1)
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.play(AudioTrack(id: 1, path: junk))
        try await log.wait(timeout: 10, "failed(1)") {
            if case .failed(1, _) = $0 { return true }
            return false
        }
        player.play(AudioTrack(id: 2, path: good))
        try await log.wait(timeout: 10, "started(2)") { $0 == .started(trackID: 2) }
        player.enqueueNext(AudioTrack(id: 3, path: junk))
        try await log.wait(timeout: 5, "failed(3)") {
            if case .failed(3, _) = $0 { return true }
            return false
        }
        try await log.wait(timeout: 10, "finished(2)") { $0 == .finished(trackID: 2) }
        #expect(!log.events.contains(.started(trackID: 3)))
    }
}
