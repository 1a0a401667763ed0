import ClickWheelTestKit
import Foundation
import Testing

/// Sound Check from the tag to the speaker, through the whole service: a lame-encoded MP3 tagged with a
/// ReplayGain TXXX frame (mutagen), indexed by the real scanner (`clickwheel index`) into a real SQLite
/// file, played by the real service (`clickwheel run --output pulse`: `AudioPlayback` reads the gain from
/// the index, `LibraryStore.replayGain(of:)`, and hands it to the player) into this suite's null sink.
/// Here, not in EndToEndTests, so it runs serialized with the other tests that share the sink (and in both
/// of contrib/test.sh's audio steps, PulseAudio and PipeWire); it drives the binary as a child process.
extension RealServerTests {
    /// The `clickwheel` binary built beside the test bundle (`swift build --build-tests` builds it).
    static var serviceBinary: String? {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [dir, dir.deletingLastPathComponent(), root.appendingPathComponent(".build/debug")]
        return candidates.map { $0.appendingPathComponent("clickwheel").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs one SQL statement with Python's sqlite3 (arguments bound); the first row's fields joined by "|".
    func sql(_ db: String, _ statement: String, _ arguments: [String] = []) throws -> String {
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            r = c.execute(sys.argv[2], sys.argv[3:]).fetchone()
            c.commit()
            print('|'.join(map(str, r or ())))
            """
        return try Shell.run(["python3", "-c", script, db, statement] + arguments)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The service's MPD `status` fields over the control socket (`clickwheel ctl send status`).
    func status(_ binary: String, _ socket: String) -> [String: String] {
        guard let out = try? Shell.run([binary, "ctl", "--socket", socket, "send", "status"]) else { return [:] }
        var fields: [String: String] = [:]
        for line in out.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return fields
    }

    /// Stores `settings` (JSON, as the Settings menu stores them) in `db`, starts `clickwheel run` on the
    /// PulseAudio output with its control socket at `socket`, and waits until it answers there.
    func startService(binary: String, music: String, db: String, settings: String, socket: String) async throws
        -> ChildProcess
    {
        _ = try sql(db, "INSERT OR REPLACE INTO library_meta (key, value) VALUES ('settings', ?)", [settings])
        let service = try ChildProcess(
            binary,
            [
                "run", "--display", "none", "--input", "none", "--output", "pulse", "--music", music, "--db", db,
                "--socket", socket,
            ], output: .discard)
        let up = try await poll(seconds: 15) { status(binary, socket)["state"] != nil }
        if !up {
            service.kill(SIGTERM)
            _ = service.wait()
        }
        try #require(up, "the service did not answer on \(socket)")
        return service
    }

    func poll(seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return condition()
    }

    /// Starts the service on `db` with Sound Check `on` (stored as the Settings menu stores it), plays the
    /// whole library once with mpc, and returns what the sink played.
    func playLibrary(binary: String, music: String, db: String, soundCheck on: Bool) async throws -> Signal {
        let socket = fixtures.path("socket-\(on)")
        let service = try await startService(
            binary: binary, music: music, db: db, settings: "{\"soundCheck\":\(on),\"volume\":100}", socket: socket)
        defer {
            service.kill(SIGTERM)
            _ = service.wait()
        }
        let capture = try await Capture.start(into: fixtures.dir, name: "soundcheck-\(on)")
        for args in [["clear"], ["add", ""], ["volume", "100"], ["play", "1"]] {
            try Shell.run(["mpc", "-h", socket] + args)
        }
        let started = try await poll(seconds: 10) { status(binary, socket)["state"] == "play" }
        #expect(started, "the service did not start playing")
        let played = try await poll(seconds: 20) { status(binary, socket)["state"] == "stop" }
        #expect(played, "the two songs did not finish")
        try await Task.sleep(for: .milliseconds(300))
        return try capture.stop()
    }

    @Test("Sound Check end to end: a TXXX REPLAYGAIN_TRACK_GAIN of −6.02 dB, indexed, plays at half the level")
    func soundCheckFromTagToSink() async throws {
        let binary = try #require(Self.serviceBinary, "the clickwheel binary is not built (swift build --build-tests)")
        let music = fixtures.path("library")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let db = fixtures.path("library.sqlite")
        // Two tones at the same level; no LAME ReplayGain analysis, so the TXXX frame is the only gain.
        for (name, frequency) in [("1 Reference", 440), ("2 Tagged", 660)] {
            let wav = fixtures.path(name + ".wav")
            try Shell.run([
                "sox", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "1.5", "sine", "\(frequency)", "vol",
                "0.5",
            ])
            try Shell.run([
                "lame", "--quiet", "-V2", "--noreplaygain", "--tt", name, "--ta", "Sound Check", "--tl", "Levels", wav,
                "\(music)/\(name).mp3",
            ])
        }
        try Shell.run([
            "python3", "-c",
            """
            import sys
            from mutagen.id3 import ID3, TXXX
            t = ID3(sys.argv[1])
            t.add(TXXX(encoding=3, desc='REPLAYGAIN_TRACK_GAIN', text=['-6.02 dB']))
            t.add(TXXX(encoding=3, desc='REPLAYGAIN_TRACK_PEAK', text=['0.500000']))
            t.save()
            """,
            "\(music)/2 Tagged.mp3",
        ])

        try Shell.run([binary, "index", "--music", music, "--db", db])
        let tagged = try sql(db, "SELECT rg_track_gain, rg_track_peak FROM tracks WHERE path LIKE '%Tagged%'")
        let gain = try #require(Double(tagged.split(separator: "|").first ?? ""), "indexed: '\(tagged)'")
        #expect(abs(gain + 6.02) < 0.01, "indexed gain and peak: \(tagged)")
        #expect(try sql(db, "SELECT rg_track_gain FROM tracks WHERE path LIKE '%Reference%'") == "None")

        let on = levels(try await playLibrary(binary: binary, music: music, db: db, soundCheck: true), [440, 660])
        let off = levels(try await playLibrary(binary: binary, music: music, db: db, soundCheck: false), [440, 660])
        try #require(on.allSatisfy { $0 > 0 } && off.allSatisfy { $0 > 0 }, "levels on \(on), off \(off)")
        let dB = { (a: Double, b: Double) in 20 * log10(a / b) }
        #expect(abs(on[1] / on[0] - 0.5) < 0.06, "Sound Check on: tagged/reference \(on[1] / on[0]) (\(dB(on[1], on[0])) dB)")
        #expect(abs(dB(off[1], off[0])) < 0.5, "Sound Check off: tagged vs reference \(dB(off[1], off[0])) dB")
        #expect(abs(dB(off[0], on[0])) < 0.5, "the untagged track is as loud either way: \(on[0]) vs \(off[0])")
    }
}
