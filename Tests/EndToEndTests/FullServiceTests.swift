import ClickWheelTestKit
import Foundation
import Testing

/// The service with every real part at once (contrib/ci/service-e2e.sh sets them up): PulseAudio with a
/// null sink captured by parec, LCDd's text driver, a rotary encoder replayed through libevdev under
/// umockdev; driven by that wheel, `clickwheel ctl`, mpc and python-mpd2. Then kill -9 mid-song, start
/// again: it must come back paused where it was; SIGTERM: a clean exit, no socket left.
@Suite(.serialized) struct FullServiceTests {
    static let env = ProcessInfo.processInfo.environment
    static var available: Bool {
        env["CW_E2E_WHEEL"] != nil && env["CW_LCDD_PORT"] != nil && env["CW_PULSE_MONITOR"] != nil
    }

    /// Peak absolute sample of `seconds` of the sink's monitor, recorded with parec.
    static func capturePeak(seconds: Double) throws -> Int {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cw-e2e-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let parec = try ChildProcess(
            "parec", ["-d", env["CW_PULSE_MONITOR"] ?? "", "--raw", "--format=s16le", "--rate=44100", "--channels=2", "--latency-msec=20"],
            output: .files(stdout: file, stderr: nil))
        usleep(UInt32(seconds * 1_000_000))
        parec.kill(SIGTERM)
        _ = parec.wait()
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return data.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).reduce(0) { max($0, abs(Int($1))) }
        }
    }

    static func status(_ socket: String) throws -> [String: String] {
        let r = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", socket, "send", "status"])
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return out
    }

    static func poll(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    @Test(.enabled(if: available, "needs contrib/ci/service-e2e.sh (PulseAudio, LCDd, umockdev)"))
    func everyRealPartTogether() throws {
        let tmp = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-full-\(UUID().uuidString.prefix(8))")
        let music = tmp.path + "/music"
        try ResumeEndToEndTests.makeSongs(in: music, count: 2, seconds: 60)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let socket = tmp.path + "/socket"
        let args = [
            "run", "--display", "lcdproc", "--lcdproc", "\(Self.env["CW_LCDD_HOST"] ?? "127.0.0.1"):\(Self.env["CW_LCDD_PORT"]!)",
            "--input", Self.env["CW_E2E_WHEEL"]!, "--output", "pulse", "--music", music, "--db", tmp.path + "/lib.sqlite",
            "--socket", socket,
        ]
        var service = try ChildProcess(TerminalDemoTests.binary, args)
        defer { service.kill(SIGKILL); _ = service.wait() }
        _ = LCDprocServiceTests.waitFor("Music")

        // The replayed encoder turns the wheel: the cursor leaves the first row.
        let turned = try Self.poll(seconds: 40) {
            let r = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", socket, "send", "screen"])
            return r.stdout.contains("cursor: ") && !r.stdout.contains("cursor: 0\n")
        }
        #expect(turned, "the wheel trace never moved the cursor")

        // mpc queues and plays; the sink hears it; python-mpd2 sees it playing.
        #expect(try ChildProcess.run("mpc", ["-h", socket, "update", "--wait"]).status == 0)
        #expect(try ChildProcess.run("mpc", ["-h", socket, "add", ""]).status == 0)
        #expect(try ChildProcess.run("mpc", ["-h", socket, "volume", "100"]).status == 0)
        #expect(try ChildProcess.run("mpc", ["-h", socket, "play", "2"]).status == 0)
        let peak = try Self.capturePeak(seconds: 3)
        #expect(peak > 1000, "the null sink heard \(peak) at most")
        let py = try ChildProcess.run("python3", [
            "-c", "import mpd,sys; c=mpd.MPDClient(); c.connect(sys.argv[1]); print(c.currentsong()['title'], c.status()['state'])",
            socket,
        ])
        #expect(py.stdout == "Long Song 2 play\n", "\(py.stderr)")

        // The wheel (from ctl) walks to Now Playing: LCDd shows the song.
        _ = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", socket, "hold", "menu", "1000"])
        usleep(1_500_000)
        _ = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", socket, "wheel", "10"])
        _ = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", socket, "press", "select"])
        _ = LCDprocServiceTests.waitFor("Long Song 2")

        // kill -9 a few seconds in; the next start is paused within 5 s of where it was.
        #expect(try Self.poll(seconds: 20) { Double(try Self.status(socket)["elapsed"] ?? "0") ?? 0 >= 5 })
        let before = Double(try Self.status(socket)["elapsed"] ?? "0") ?? 0
        service.kill(SIGKILL)
        _ = service.wait()
        service = try ChildProcess(TerminalDemoTests.binary, args)
        #expect(try Self.poll(seconds: 20) { try Self.status(socket)["state"] == "pause" })
        let after = try Self.status(socket)
        let resumed = Double(after["elapsed"] ?? "0") ?? 0
        #expect(after["song"] == "1" && resumed <= before + 0.5 && before - resumed <= 5, "\(before) → \(after)")
        let quiet = try Self.capturePeak(seconds: 1)
        #expect(quiet < 50, "paused, yet the sink hears \(quiet)")

        // SIGTERM: exit 0, the socket removed.
        service.kill(SIGTERM)
        let result = service.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
