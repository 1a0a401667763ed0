import ClickWheelTestKit
import Foundation
import Testing

/// `clickwheel run --display lcdproc` against a real LCDd (text driver), and `clickwheel debug lcd`.
/// Runs under contrib/ci/lcdd-tests.sh, which starts LCDd and sets the CW_LCDD_* variables; elsewhere
/// it is skipped with a message.
@Suite(.serialized) struct LCDprocServiceTests {
    static let environment = ProcessInfo.processInfo.environment
    static var available: Bool { environment["CW_LCDD_PORT"] != nil && environment["CW_LCDD_FRAMES"] != nil }

    /// The newest complete frame LCDd's text driver printed, without its borders.
    static func latestFrame() -> String {
        let script = TerminalDemoTests.root.appendingPathComponent("contrib/ci/lcdd-frame.sh").path
        return (try? ChildProcess.run("bash", [script]).stdout) ?? ""
    }

    static func waitFor(_ text: String, seconds: Double = 20) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var frame = ""
        while Date() < deadline {
            frame = latestFrame()
            if frame.contains(text) { return frame }
            usleep(100_000)
        }
        Issue.record("LCDd never showed \"\(text)\"; last frame:\n\(frame)")
        return frame
    }

    @Test(.enabled(if: available, "needs LCDd: run contrib/ci/lcdd-tests.sh"))
    func theServiceDrawsItsMenusOnLCDdAndLeavesOnSIGTERM() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("cw-lcdd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let music = TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
        let host = Self.environment["CW_LCDD_HOST"] ?? "127.0.0.1"
        let child = try ChildProcess(TerminalDemoTests.binary, [
            "run", "--display", "lcdproc", "--lcdproc", "\(host):\(Self.environment["CW_LCDD_PORT"]!)", "--input", "none",
            "--music", music, "--db", tmp.path + "/lib.sqlite", "--socket", tmp.path + "/socket",
        ])
        let frame = Self.waitFor("Music")
        #expect(frame.contains("ClickWheel") || frame.contains("Music"))
        // Latin-1 on the wire: the library's accented names arrive whole once a list shows them.
        let stats = try ChildProcess.run("mpc", ["-h", tmp.path + "/socket", "stats"])
        #expect(stats.stdout.contains("Songs:       34"))
        child.kill(SIGTERM)
        let result = child.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/socket"))
    }

    @Test(.enabled(if: available, "needs LCDd: run contrib/ci/lcdd-tests.sh"))
    func debugLCDShowsItsTestPattern() throws {
        let host = Self.environment["CW_LCDD_HOST"] ?? "127.0.0.1"
        let r = try ChildProcess.run(TerminalDemoTests.binary, [
            "debug", "lcd", "--display", "lcdproc", "--lcdproc", "\(host):\(Self.environment["CW_LCDD_PORT"]!)",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("backlight off, then on"))
    }
}

/// The service with LCDd frozen by SIGSTOP. Its own suite: freezing LCDd would stall every other LCDd
/// test running beside it, so contrib/ci/lcdd-tests.sh runs it alone, after the others.
@Suite(.serialized) struct LCDdFreezeServiceTests {
    /// A frozen LCDd (SIGSTOP: it accepts connections and answers nothing) must not hold the engine:
    /// wheel turns and socket commands go on at their usual pace while the display's writer waits, and
    /// the latest frame reaches LCDd once it is back. Before the display had a thread of its own, each
    /// round that drew while LCDd was frozen waited out the 2 s receive timeout or a reconnect.
    @Test(.enabled(if: LCDprocServiceTests.available, "needs LCDd: run contrib/ci/lcdd-tests.sh"))
    func aFrozenLCDdDoesNotHoldTheEngine() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("cw-lcdd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let music = TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
        let host = LCDprocServiceTests.environment["CW_LCDD_HOST"] ?? "127.0.0.1"
        let child = try ChildProcess(TerminalDemoTests.binary, [
            "run", "--display", "lcdproc", "--lcdproc", "\(host):\(LCDprocServiceTests.environment["CW_LCDD_PORT"]!)", "--input", "none",
            "--output", "null", "--music", music, "--db", tmp.path + "/lib.sqlite", "--socket", tmp.path + "/socket",
        ])
        defer {
            child.kill(SIGTERM)
            _ = child.wait()
        }
        var connected: RawClient?
        for _ in 0..<200 where connected == nil {
            connected = try? RawClient(tmp.path + "/socket")
            if connected == nil { usleep(100_000) }
        }
        let client = try #require(connected, "the service never listened")
        _ = client.response()
        _ = LCDprocServiceTests.waitFor(">Music")
        let pidText = try String(contentsOfFile: LCDprocServiceTests.environment["CW_LCDD_DIR"]! + "/lcdd.pid", encoding: .utf8)
        let lcdd = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(lcdd, SIGSTOP) == 0)
        defer { kill(lcdd, SIGCONT) }
        var slow = 0
        for round in 0..<20 {
            let start = Date()
            #expect(client.roundTrip("wheel \(round % 2 == 0 ? 1 : -1)").hasSuffix("OK\n"))
            #expect(client.roundTrip("setvol \(40 + round)") == "OK\n")
            if Date().timeIntervalSince(start) >= 1 { slow += 1 }
            usleep(300_000)  // paced as a hand turns the wheel: reconnects fall due between rounds
        }
        #expect(slow <= 2, "\(slow) of 20 rounds waited a second or more for the engine while LCDd was frozen")
        #expect(client.roundTrip("wheel 1").hasSuffix("OK\n"))
        kill(lcdd, SIGCONT)
        let frame = LCDprocServiceTests.waitFor(">Podcasts")
        #expect(frame.contains(">Podcasts"), "the display caught up with the latest frame")
    }
}
