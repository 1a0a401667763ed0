import ClickWheelTestKit
import Foundation
import Testing

/// A real one-minute alarm through the real service: `clickwheel index` makes the library (real MP3s
/// made with lame), the alarm is stored in its settings as the wheel's editor stores it (JSON in
/// `library_meta`), set for the next minute of the real clock; `clickwheel run` starts with the clock's
/// sync status read from a file the test creates (`clock_synced_file`: this machine's kernel says
/// unsynchronised, like a fresh Pi). At the minute an MPD client's `idle player` wakes, playback plays,
/// and the volume rises from a tenth of the alarm's. Once on the null output, once on a PulseAudio null
/// sink captured with parec (the level rises). Each waits up to a minute for the real clock.
@Suite struct AlarmServiceTests {
    final class Service {
        let dir: String
        var child: ChildProcess?
        var socket: String { dir + "/socket" }
        var config: String { dir + "/clickwheel.yaml" }
        var db: String { dir + "/lib.sqlite" }
        /// The local hour and minute the alarm is set for.
        var alarm: (hour: Int, minute: Int) = (0, 0)

        init(output: String) throws {
            dir = "/tmp/cw-alarm-\(UUID().uuidString.prefix(8))"
            try ResumeEndToEndTests.makeSongs(in: dir + "/music", count: 2, seconds: 45)
            try """
            music: \(dir)/music
            db: \(db)
            socket: \(socket)
            display: none
            input: none
            output: "\(output)"
            clock_synced_file: \(dir)/synced

            """.write(toFile: config, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: dir + "/synced", contents: Data())
            let index = try ChildProcess.run(
                TerminalDemoTests.binary, ["index", "--music", dir + "/music", "--db", db])
            try #require(index.status == 0, "index: \(index.stderr)")
            // The next minute of the local clock, or the one after when this one is nearly over (the
            // service must be up and have seen the clock before the minute comes).
            let now = Date()
            let second = Calendar.current.component(.second, from: now)
            let ahead = second >= 50 ? 2 : 1
            let next = Calendar.current.dateComponents(
                [.hour, .minute], from: now.addingTimeInterval(Double(ahead * 60)))
            alarm = (next.hour ?? 0, next.minute ?? 0)
            let settings = """
                {"volume":50,"alarms":[{"id":1,"enabled":true,"hour":\(alarm.hour),"minute":\(alarm.minute),"days":0,\
                "sound":{"shuffleSongs":{}},"volume":80}]}
                """
            let store =
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"INSERT OR REPLACE INTO library_meta (key, value) VALUES ('settings', ?)\", (sys.argv[2],)); c.commit()"
            let r = try ChildProcess.run("python3", ["-c", store, db, settings])
            try #require(r.status == 0, "storing the alarm: \(r.stderr)")
        }

        deinit {
            if let child {
                child.kill(SIGKILL)
                _ = child.wait()
            }
            try? FileManager.default.removeItem(atPath: dir)
        }

        func start() throws {
            child = try ChildProcess(TerminalDemoTests.binary, ["run", "--config", config])
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        }

        func stop() -> ChildProcess.Result? {
            guard let child else { return nil }
            child.kill(SIGTERM)
            self.child = nil
            return child.wait()
        }

        func status() -> [String: String] { ResumeEndToEndTests.mpd(socket, "status") ?? [:] }

        /// Blocks in MPD's `idle player` (python-mpd2's client would do the same) until the alarm plays.
        func idlePlayer(seconds: Int) throws -> String {
            try ChildProcess.run("timeout", ["\(seconds)", "mpc", "-h", socket, "idle", "player"]).stdout
        }
    }

    @Test func aOneMinuteAlarmOnTheNullOutput() throws {
        let s = try Service(output: "null")
        try s.start()
        #expect(s.status()["state"] == "stop", "nothing plays before the alarm")
        let woke = try s.idlePlayer(seconds: 150)
        let first = s.status()
        #expect(woke.contains("player"), "an MPD client's idle player wakes")
        #expect(first["state"] == "play", "the alarm plays: \(first)")
        let v0 = Int(first["volume"] ?? "") ?? -1
        usleep(6_000_000)
        let v1 = Int(s.status()["volume"] ?? "") ?? -1
        print("alarm fade on the null output: volume \(v0) at the start, \(v1) 6 s later")
        #expect(v0 >= 8 && v0 < 20 && v1 > v0, "the volume fades up from a tenth of 80: \(v0) then \(v1)")
        let result = s.stop()
        #expect(result?.stderr.contains("missed") == false, "a synchronised clock misses nothing")
        // Stored: the once alarm turned itself off, and it remembers the minute it rang for.
        let stored = try ResumeEndToEndTests.query(s.db, "SELECT value FROM library_meta WHERE key = 'settings'")
        #expect(stored.contains("\"enabled\":false") && stored.contains("lastRungLocalMinute"), "\(stored)")
    }

    static var pulse: Bool { ProcessInfo.processInfo.environment["CW_PULSE_MONITOR"] != nil }

    /// Root-mean-square level of s16le stereo PCM in `data` from second `from` to `to`.
    static func rms(_ data: Data, from: Double, to: Double) -> Double {
        data.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            let a = min(samples.count, Int(from * 88_200)), b = min(samples.count, Int(to * 88_200))
            guard b > a else { return 0 }
            var sum = 0.0
            for i in a..<b { sum += Double(samples[i]) * Double(samples[i]) }
            return (sum / Double(b - a)).squareRoot()
        }
    }

    @Test(.enabled(if: pulse, "needs PULSE_SERVER and CW_PULSE_MONITOR: contrib/ci/pulse-start.sh"))
    func theAlarmFadesUpOnPulseAudio() throws {
        let s = try Service(output: "pulse")
        try s.start()
        _ = try s.idlePlayer(seconds: 150)
        let file = s.dir + "/capture.raw"
        let parec = try ChildProcess(
            "parec",
            [
                "-d", ProcessInfo.processInfo.environment["CW_PULSE_MONITOR"] ?? "", "--raw", "--format=s16le", "--rate=44100",
                "--channels=2", "--latency-msec=20",
            ], output: .files(stdout: file, stderr: nil))
        usleep(13_000_000)
        parec.kill(SIGTERM)
        _ = parec.wait()
        _ = s.stop()
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let early = Self.rms(data, from: 0.5, to: 2.5), late = Self.rms(data, from: 10.5, to: 12.5)
        print("alarm fade on PulseAudio: RMS \(Int(early)) at 0.5-2.5 s, \(Int(late)) at 10.5-12.5 s")
        #expect(early > 0, "the alarm is heard from the start")
        #expect(late > early * 2, "the level rises with the fade: \(early) then \(late)")
    }
}
