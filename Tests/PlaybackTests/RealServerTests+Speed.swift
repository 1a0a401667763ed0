import Foundation
import Playback
import Testing

/// Spoken word faster or slower (libsonic between libmpg123 and the server), heard on the real sink: the
/// duration shrinks by the factor, the pitch stays, joins and speed changes make no click, positions stay
/// in the track's own time, and music is not touched.
///
/// The pitch is measured on a steady 441 Hz tone marked as spoken word (a fundamental is only well defined
/// on a steady tone; its period is exactly 100 samples, so libsonic's overlap-add gives back a clean sine
/// and any click shows in the sine residual); the duration also on real speech made with espeak-ng.
extension RealServerTests {
    /// Plays `track` at `speed` from the start to its end and returns what the sink played.
    func hear(_ tracks: [AudioTrack], speed: Double, soundCheck: Bool = false) async throws -> (Signal, ReportLog) {
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        player.setSpokenWordSpeed(speed)
        player.setSoundCheck(soundCheck)
        let capture = try await Capture.start(into: fixtures.dir)
        try await playAlbum(tracks, on: player, log: log)
        try await Task.sleep(for: .milliseconds(300))
        return (try capture.stop(), log)
    }

    /// The median frequency of the 20 ms windows inside `range`.
    func medianFrequency(_ signal: Signal, in range: Range<Int>) -> Double {
        let fs = signal.windows().filter { range.contains($0.start) && range.contains($0.start + $0.count) }
            .compactMap(\.frequency).sorted()
        return fs.isEmpty ? 0 : fs[fs.count / 2]
    }

    @Test("spoken word at 1.5x: a 6 s tone is heard for 4 s at its own pitch, no click, positions in its own time")
    func spokenWordFaster() async throws {
        let track = AudioTrack(id: 1, path: try fixtures.tone("book", frequency: "441", seconds: 6), spokenWord: true)
        let (signal, log) = try await hear([track], speed: 1.5)

        let range = try #require(signal.audibleRange())
        let seconds = Double(range.count) / Double(signal.rate)
        #expect(abs(seconds / 4 - 1) < 0.02, "heard \(seconds) s, want 4 s (6 s at 1.5x) within 2 %")
        let f0 = medianFrequency(signal, in: range)
        print("6 s tone at 1.5x heard for \(seconds) s at \(f0) Hz")
        #expect(abs(f0 / 441 - 1) < 0.03, "heard \(f0) Hz, want 441 Hz within 3 %")
        let inner = (range.lowerBound + signal.rate / 50)..<(range.upperBound - signal.rate / 50)
        let residual = signal.sineResidualPeak(frequency: f0, in: inner)
        #expect(residual.residual < 0.05, "largest deviation from the sine \(residual.residual)")
        let positions = log.all.compactMap { r -> Double? in
            if case .position(1, let s) = r { return s }
            return nil
        }
        // Positions count the track's own seconds: they reach its end (6 s), not the 4 s heard.
        #expect((positions.max() ?? 0) > 5.5 && (positions.max() ?? 0) <= 6.05, "positions \(positions)")
        #expect(log.events.filter { $0 == .started(trackID: 1) || $0 == .finished(trackID: 1) }.count == 2)
    }

    @Test("spoken word at 1.5x: espeak-ng speech is heard in 1/1.5 of its length (within 2 %)")
    func speechFaster() async throws {
        let text = """
            Chapter one. It was a bright cold day in April, and the clocks were striking thirteen. \
            The wind blew along the street and the dust swirled into small spirals. Nobody was about.
            """
        let file = try fixtures.speech("speech", text: text)
        let original = try #require(try fixtures.signal(ofWAV: file.wav).audibleRange())
        let (signal, _) = try await hear([AudioTrack(id: 1, path: file.mp3, spokenWord: true)], speed: 1.5)
        let heard = try #require(signal.audibleRange())
        let ratio = Double(original.count) / Double(heard.count)
        print("speech of \(Double(original.count) / 44_100) s heard in \(Double(heard.count) / 44_100) s: \(ratio)x")
        #expect(abs(ratio / 1.5 - 1) < 0.02, "speech of \(original.count) samples heard as \(heard.count): \(ratio)x")
    }

    @Test("gapless spoken word at 1.5x: three parts of one tone join with no gap and no click")
    func gaplessSpokenWord() async throws {
        let paths = try fixtures.album("chapters", frequency: 441, seconds: 6, parts: 3)
        let tracks = paths.enumerated().map { AudioTrack(id: $0.offset + 1, path: $0.element, spokenWord: true) }
        let (signal, log) = try await hear(tracks, speed: 1.5)
        let range = try #require(signal.audibleRange())
        let seconds = Double(range.count) / Double(signal.rate)
        #expect(abs(seconds / 4 - 1) < 0.02, "heard \(seconds) s, want 4 s")
        let inner = (range.lowerBound + signal.rate / 50)..<(range.upperBound - signal.rate / 50)
        let residual = signal.sineResidualPeak(frequency: 441, in: inner)
        let at = Double(residual.at - range.lowerBound) / Double(signal.rate)
        #expect(residual.residual < 0.05, "largest deviation from the sine \(residual.residual) at \(at) s")
        let order = log.events.filter {
            if case .started = $0 { return true }
            if case .finished = $0 { return true }
            return false
        }
        #expect(order == [1, 2, 3].flatMap { [.started(trackID: $0), .finished(trackID: $0)] })
    }

    @Test("music is not touched by the spoken-word speed; Sound Check holds at 1.5x")
    func musicBypassedAndSoundCheck() async throws {
        let music = AudioTrack(id: 1, path: try fixtures.tone("song", frequency: "441", seconds: 3))
        let (signal, _) = try await hear([music], speed: 2)
        let range = try #require(signal.audibleRange())
        #expect(abs(Double(range.count) / Double(signal.rate) - 3) < 0.03, "music heard for \(range.count) samples")

        // −6.02 dB: half the amplitude, applied by the decoder before the speech stage.
        let book = AudioTrack(
            id: 2, path: try fixtures.tone("quiet-book", frequency: "441", seconds: 3),
            replayGain: ReplayGain(gain: -6.0206), spokenWord: true)
        let (quiet, _) = try await hear([book], speed: 1.5, soundCheck: true)
        let q = try #require(quiet.audibleRange())
        #expect(abs(Double(q.count) / Double(quiet.rate) / 2 - 1) < 0.02)
        let mid = (q.lowerBound + q.count / 4)..<(q.upperBound - q.count / 4)
        let rms = quiet.rms(mid)
        // The tone's RMS at full level is 0.5 / √2 = 0.354; at half, 0.177.
        #expect(abs(rms / 0.177 - 1) < 0.05, "RMS \(rms) with Sound Check at −6 dB, want 0.177")
    }

    @Test("a speed change while spoken word plays is heard within 200 ms, with no click")
    func speedChangeWhilePlaying() async throws {
        let track = AudioTrack(id: 1, path: try fixtures.tone("talk", frequency: "441", seconds: 8), spokenWord: true)
        let (player, log) = makePlayer()
        defer { player.shutdown() }
        let capture = try await Capture.start(into: fixtures.dir)
        player.play(track)
        try await log.waitForPosition(1, atLeast: 2.5, timeout: 30)
        let reportsBefore = log.timedPositions(1)
        let sent = Date()
        player.setSpokenWordSpeed(1.5)
        try await log.wait(timeout: 30, "finished(1)") { $0 == .finished(trackID: 1) }
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()

        let range = try #require(signal.audibleRange())
        let heard = Double(range.count) / Double(signal.rate)
        // Heard for p s at 1x, then (8 − p) / 1.5: the track position at which the speed changed.
        let switched = 3 * heard - 16
        // The track position when the command was sent: from the position reports before it (each one is
        // made a little after its position was heard, so the largest estimate is the closest).
        let atCommand = try #require(reportsBefore.map { $0.seconds + sent.timeIntervalSince($0.time) }.max())
        let latency = switched - atCommand
        print("speed change heard \(Int(latency * 1000)) ms after the command")
        #expect(latency > -0.05 && latency < 0.2, "the new speed began \(latency) s after the command")
        let inner = (range.lowerBound + signal.rate / 50)..<(range.upperBound - signal.rate / 50)
        let residual = signal.sineResidualPeak(frequency: 441, in: inner)
        let at = Double(residual.at - range.lowerBound) / Double(signal.rate)
        print("speed change: largest deviation from the sine \(residual.residual) (at \(at) s)")
        #expect(residual.residual < 0.05, "largest deviation from the sine \(residual.residual) at \(at) s")
        let positions = log.all.compactMap { r -> Double? in
            if case .position(1, let s) = r { return s }
            return nil
        }
        #expect((positions.max() ?? 0) > 7.5, "positions \(positions)")
        // The change starts no track again and finishes none early.
        let events = log.events.filter {
            if case .started = $0 { return true }
            if case .finished = $0 { return true }
            return false
        }
        #expect(events == [.started(trackID: 1), .finished(trackID: 1)])
    }
}

/// The spoken-word speed through the whole service: a podcast episode (genre Podcast, as lame tags it)
/// indexed by the real scanner, Settings → Audiobooks stored at 1.5x, played by `clickwheel run` over
/// mpc into this suite's sink. MPD's `status` counts the episode's own seconds while it is heard faster.
extension RealServerTests {
    @Test("end to end: a podcast at 1.5x is heard in 2/3 of its length while status counts its own seconds")
    func podcastFasterThroughTheService() async throws {
        let binary = try #require(Self.serviceBinary, "the clickwheel binary is not built (swift build --build-tests)")
        let music = fixtures.path("podcasts")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let db = fixtures.path("podcasts.sqlite")
        let wav = fixtures.path("episode.wav")
        try Shell.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "6", "sine", "441", "vol", "0.5"])
        try Shell.run([
            "lame", "--quiet", "-V2", "--tt", "Episode 1", "--ta", "The Show", "--tg", "Podcast", wav,
            "\(music)/episode.mp3",
        ])
        try Shell.run([binary, "index", "--music", music, "--db", db])
        #expect(try sql(db, "SELECT is_podcast FROM tracks") == "1")
        let socket = fixtures.path("socket-speed")
        let service = try await startService(
            binary: binary, music: music, db: db, settings: "{\"spokenWordSpeed\":150,\"volume\":100}", socket: socket)
        defer {
            service.kill(SIGTERM)
            _ = service.wait()
        }
        let capture = try await Capture.start(into: fixtures.dir, name: "podcast")
        for args in [["clear"], ["add", "episode.mp3"], ["volume", "100"], ["play", "1"]] {
            try Shell.run(["mpc", "-h", socket] + args)
        }
        var elapsed: [Double] = []
        var duration: Double?
        let played = try await poll(seconds: 20) {
            let s = status(binary, socket)
            if let e = s["elapsed"].flatMap(Double.init) { elapsed.append(e) }
            if let d = s["duration"].flatMap(Double.init) { duration = d }
            return s["state"] == "stop"
        }
        #expect(played, "the episode did not finish")
        try await Task.sleep(for: .milliseconds(300))
        let signal = try capture.stop()
        let range = try #require(signal.audibleRange())
        let heard = Double(range.count) / Double(signal.rate)
        #expect(abs(heard / 4 - 1) < 0.02, "heard \(heard) s of the 6 s episode, want 4 s")
        // The episode's own seconds: status reaches past 5 s of 6 although only 4 s were heard.
        #expect((elapsed.max() ?? 0) >= 5, "status elapsed went \(elapsed)")
        #expect(duration.map { abs($0 - 6) < 0.1 } ?? false, "status duration \(String(describing: duration))")
    }
}

/// Pausing and resuming spoken word played faster: the fades work on what was written (stream frames), the
/// place to go on from is counted in the track's own samples.
extension RealServerTests {
    @Test("pause and resume at 1.5x go on from where the pause was heard, nothing lost or repeated")
    func pauseAndResumeFaster() async throws {
        // A 300 Hz → 1500 Hz sweep over 4 s: position = (f − 300) / 300 track seconds (the pitch is kept).
        let path = try fixtures.tone("talk-sweep", frequency: "300:1500", seconds: 4)
        let track = AudioTrack(id: 7, path: path, spokenWord: true)
        let position = { (f: Double) in (f - 300) / 300 }
        let paused = try await pausedOnce(track, speed: 1.5)
        let (signal, windows, gap, before, after, log) =
            (paused.signal, paused.windows, paused.gap, paused.before, paused.after, paused.log)
        // Heard time between the two windows, less the pause, is 1/1.5 of the track time between them.
        let heardBetween = after.time - before.time - (gap.upperBound - gap.lowerBound)
        let jump = position(after.frequency!) - position(before.frequency!) - 1.5 * heardBetween
        #expect(abs(jump) < 0.15, "resumed \(jump) track seconds away from where it paused")
        let audible = windows.filter { $0.rms > 0.01 }.count * windows[0].count
        let heard = Double(audible) / Double(signal.rate)
        #expect(abs(heard - 4 / 1.5) < 0.15, "heard \(heard) s of a 4 s track at 1.5x")
        let events = log.events.filter {
            if case .started = $0 { return true }
            if case .finished = $0 { return true }
            return false
        }
        #expect(events == [.started(trackID: 7), .finished(trackID: 7)])
    }
}
