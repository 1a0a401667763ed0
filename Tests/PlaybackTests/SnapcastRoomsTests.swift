import ClickWheelTestKit
import Foundation
import Playback
import Snapcast
import Testing

/// ClickWheel as a Snapcast source, against the real thing: a private snapserver (tcp source, server mode,
/// 44100:16:2) and two real snapclients ("rooms", different `--hostID`s) playing into remap sinks of one
/// 4-channel null sink of the test's PulseAudio server, so one parec hears both rooms on one clock
/// (contrib/ci/snapcast-start.sh). The local output is the usual `clickwheel_null` sink, captured apart.
///
/// Runs only when `CW_SNAP_SOURCE` (and `PULSE_SERVER`) are set; serialized with the other audio tests.
@Suite(
    .serialized,
    .enabled(
        if: SoundServer.isConfigured && SnapRooms.isConfigured,
        "CW_SNAP_SOURCE is not set: run `eval \"$(contrib/ci/snapcast-start.sh)\"` after pulse-start.sh"))
struct SnapcastRoomsTests {
    let fixtures: Fixtures

    init() throws {
        fixtures = try Fixtures()
    }

    /// A player with the local PulseAudio output and the snapcast output, both on; positions every 0.1 s.
    func makePlayer(pulse: Bool = true) throws -> (AudioPlayer, ReportLog) {
        let target = try #require(SnapcastTarget(SnapRooms.source))
        var outputs = [MultiOutput.Descriptor]()
        if pulse {
            outputs.append(MultiOutput.Descriptor(name: "This Pi", plugin: "pulse") { PulseAudioOutput() })
        }
        outputs.append(
            MultiOutput.Descriptor(name: "Rooms", plugin: "snapcast") {
                SnapcastOutput(target: target)
            })
        return ReportLog.player(output: .several(outputs), positionInterval: 0.1)
    }

    @Test("a tone played with pulse + snapcast on is heard locally and in both rooms, the rooms within 5 ms")
    func toneInBothRooms() async throws {
        let tone = try fixtures.tone("a440", frequency: "440", seconds: 2)
        let (player, log) = try makePlayer()
        defer { player.shutdown() }
        let rooms = try await RoomsCapture.start(into: fixtures.dir)
        let local = try await Capture.start(into: fixtures.dir, name: "local")
        player.play(AudioTrack(id: 1, path: tone))
        try await log.wait(timeout: 20, "finished(1)") { $0 == .finished(trackID: 1) }
        // The rooms play a Snapcast buffer (1 s) later than the local sink.
        try await Task.sleep(for: .milliseconds(1800))
        let (a, b) = try rooms.stop()
        let here = try local.stop()

        // Each room: the tone, whole and unbroken (its 20 ms windows at 440 Hz in one run); its onset is the
        // first audible sample at the start of that run (what a room played before, e.g. the end of an
        // earlier test in the Snapcast buffer, is not this tone).
        var onsets: [Int] = []
        for (name, room) in [("room A", a), ("room B", b)] {
            let span = try #require(Self.toneSpan(room, frequency: 440), "\(name) heard no 440 Hz tone")
            #expect(abs(span.seconds - 2) < 0.1, "\(name) heard \(span.seconds) s of tone")
            // A gap is the snapcast path's fault unless the player itself ran dry (an underrun: then the local
            // sink had the same gap, and every output got the same PCM). Seen on this 2-core machine under a
            // load of 20: one underrun at the start, the same 20–40 ms gap in both rooms.
            #expect(
                span.unbroken || player.underruns > 0,
                "\(name): the tone broke with no underrun in the player (the snapcast path dropped audio)")
            onsets.append(span.onset)
        }
        #expect(here.audibleRange() != nil, "the local output heard nothing")
        let difference = Double(onsets[0] - onsets[1]) * 1000 / Double(a.rate)
        print("snapcast rooms: onset difference room A − room B = \(String(format: "%.2f", difference)) ms")
        #expect(abs(difference) <= 5, "the rooms started \(difference) ms apart")
    }

    /// Where a tone of `frequency` starts in `signal`, how long it lasts (its 20 ms windows at that
    /// frequency, ±5 Hz) and whether those windows follow one another without a gap.
    static func toneSpan(_ signal: Signal, frequency: Double) -> (onset: Int, seconds: Double, unbroken: Bool)? {
        let hits = signal.windows().filter { $0.frequency.map { abs($0 - frequency) < 5 } ?? false }
        guard let first = hits.first, let last = hits.last else { return nil }
        let from = max(0, first.start - first.count)
        let onset = (from..<(first.start + first.count)).first { abs(signal.samples[$0]) > 0.01 } ?? first.start
        let unbroken = last.start - first.start == (hits.count - 1) * first.count
        return (onset, Double(hits.count * first.count) / Double(signal.rate), unbroken)
    }

    @Test("killing and restarting snapserver mid-song brings the rooms back; the local output plays on")
    func serverRestartMidSong() async throws {
        let tone = try fixtures.tone("a660", frequency: "660", seconds: 9)
        let (player, log) = try makePlayer()
        defer { player.shutdown() }
        let local = try await Capture.start(into: fixtures.dir, name: "local")
        player.play(AudioTrack(id: 1, path: tone))
        try await log.wait(timeout: 20, "started(1)") { $0 == .started(trackID: 1) }
        try await Task.sleep(for: .seconds(2))
        try SnapRooms.killServer()
        try await Task.sleep(for: .milliseconds(1500))
        try SnapRooms.start()
        // Let the clients find the server again, then listen to the rooms for the rest of the song.
        try await Task.sleep(for: .seconds(2))
        let rooms = try await RoomsCapture.start(into: fixtures.dir)
        try await log.wait(timeout: 20, "finished(1)") { $0 == .finished(trackID: 1) }
        let here = try local.stop()
        let (a, b) = try rooms.stop()

        // The local output: one unbroken 9 s tone, whatever happened to the rooms.
        let range = try #require(here.audibleRange(), "the local output heard nothing")
        #expect(abs(Double(range.count) / Double(here.rate) - 9) < 0.1, "local tone \(range.count) samples")
        // A break only the player's own underrun explains (the machine held the audio thread up) is not the
        // restart's doing.
        #expect(
            here.silences(longerThan: 0.05).isEmpty || player.underruns > 0,
            "the local output broke: \(here.silences(longerThan: 0.05))")
        #expect(
            !log.events.contains { if case .outputUnavailable = $0 { return true } else { return false } },
            "the player saw an output outage: \(log.events)")
        // The rooms came back: both hear the tone again.
        for (name, room) in [("room A", a), ("room B", b)] {
            let tones = room.toneSequence()
            #expect(tones.contains { abs($0 - 660) < 5 }, "\(name) heard \(tones) after the restart")
        }
    }

    @Test("snapcast alone, its server down: playback goes on at real-time pace and the rooms hear it once it is up")
    func serverDownAtStart() async throws {
        try SnapRooms.killServer()
        let tone = try fixtures.tone("a550", frequency: "550", seconds: 6)
        let (player, log) = try makePlayer(pulse: false)
        defer { player.shutdown() }
        player.play(AudioTrack(id: 1, path: tone))
        try await log.wait(timeout: 10, "started(1)") { $0 == .started(trackID: 1) }
        try SnapRooms.start()
        try await Task.sleep(for: .seconds(2))
        let rooms = try await RoomsCapture.start(into: fixtures.dir)
        try await log.wait(timeout: 20, "finished(1)") { $0 == .finished(trackID: 1) }
        try await Task.sleep(for: .milliseconds(1500))
        let (a, b) = try rooms.stop()
        for (name, room) in [("room A", a), ("room B", b)] {
            #expect(room.toneSequence().contains { abs($0 - 550) < 5 }, "\(name) heard \(room.toneSequence())")
        }
    }
}

/// The rooms set up by contrib/ci/snapcast-start.sh.
enum SnapRooms {
    static let environment = ProcessInfo.processInfo.environment
    static let isConfigured = environment["CW_SNAP_SOURCE"] != nil
    static var source: String { environment["CW_SNAP_SOURCE"] ?? "" }
    static var dir: String { environment["CW_SNAP_DIR"] ?? "" }
    static var monitor: String { environment["CW_SNAP_ROOMS_MONITOR"] ?? "cw_rooms.monitor" }

    /// SIGKILL to the snapserver the script started (its pid file), as a crash would.
    static func killServer() throws {
        let pidText = try String(contentsOfFile: dir + "/snapserver.pid", encoding: .utf8)
        guard let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, WNOHANG)
        for _ in 0..<100 where Glibc.kill(pid, 0) == 0 { usleep(20_000) }
    }

    /// Starts again whatever of the script's processes is gone.
    static func start() throws {
        _ = try Shell.run(["bash", SoundServer.scripts.appendingPathComponent("snapcast-start.sh").path])
    }
}

/// Records the rooms' 4-channel null sink with one parec: room A is channels 1–2, room B 3–4.
final class RoomsCapture {
    let file: URL
    private var process: ChildProcess?

    private init(file: URL) { self.file = file }

    static func start(into dir: URL) async throws -> RoomsCapture {
        let capture = RoomsCapture(file: dir.appendingPathComponent("rooms-\(UUID().uuidString).raw"))
        _ = FileManager.default.createFile(atPath: capture.file.path, contents: nil)
        capture.process = try ChildProcess(
            "parec",
            [
                // Named: parec's default 4-channel map is not the sink's, and PulseAudio remixed to it, so
                // "room B" (channel 3) was room A's right channel (seen with room A muted: both silent).
                "-d", SnapRooms.monitor, "--raw", "--format=s16le", "--rate=44100", "--channels=4",
                "--channel-map=front-left,front-right,rear-left,rear-right", "--latency-msec=20",
            ], output: .files(stdout: capture.file.path, stderr: nil))
        for _ in 0..<200 {
            let size = (try? FileManager.default.attributesOfItem(atPath: capture.file.path))?[.size] as? Int ?? 0
            if size > 0 { return capture }
            try await Task.sleep(for: .milliseconds(50))
        }
        capture.process?.kill(SIGKILL)
        _ = capture.process?.wait()
        throw Shell.Failure(description: "parec on \(SnapRooms.monitor) delivered no data within 10 s")
    }

    /// Stops parec (SIGKILL, as `Capture` does) and returns each room's left channel.
    func stop() throws -> (a: Signal, b: Signal) {
        process?.kill(SIGKILL)
        _ = process?.wait()
        let data = try Data(contentsOf: file)
        var a = [Float](), b = [Float]()
        data.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: Int16.self)
            var i = 0
            while i + 3 < words.count {
                a.append(Float(Int16(littleEndian: words[i])) / 32768)
                b.append(Float(Int16(littleEndian: words[i + 2])) / 32768)
                i += 4
            }
        }
        return (Signal(samples: a), Signal(samples: b))
    }

    deinit {
        process?.kill(SIGKILL)
        _ = process?.wait()
        try? FileManager.default.removeItem(at: file)
    }
}
