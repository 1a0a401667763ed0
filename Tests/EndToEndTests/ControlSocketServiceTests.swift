import ClickWheelTestKit
import Foundation
import Testing

/// The real `clickwheel run` (silent null output: real-time decoding without a sound server), driven
/// over its socket by real mpc and by `clickwheel ctl`.
@Suite(.serialized) struct ControlSocketServiceTests {
    final class Service {
        let dir: URL
        let socket: String
        let child: ChildProcess

        /// The service over `music` (default: the test library), with a database and socket of its own
        /// (in `dir`, e.g. a stopped service's: a restart).
        init(music: String? = nil, dir existing: URL? = nil) throws {
            dir = existing
                ?? URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-ctl-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            socket = dir.appendingPathComponent("socket").path
            let music = music ?? TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
            child = try ChildProcess(TerminalDemoTests.binary, [
                "run", "--display", "none", "--input", "none", "--output", "null", "--music", music,
                "--db", dir.path + "/lib.sqlite", "--socket", socket,
            ])
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        }

        deinit {
            child.kill(SIGKILL)
            _ = child.wait()
            try? FileManager.default.removeItem(at: dir)
        }

        func mpc(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let r = try ChildProcess.run("mpc", ["-h", socket] + args)
            #expect(r.status == 0, "mpc \(args): \(r.stderr)", sourceLocation: sourceLocation)
            return r.stdout
        }

        func ctl(_ args: String...) throws -> ChildProcess.Result {
            try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", socket] + args)
        }

        /// Polls `mpc` until its output satisfies `condition` (up to `seconds`).
        func waitFor(_ args: [String], seconds: Double = 15, _ condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            var out = ""
            while Date() < deadline {
                out = try ChildProcess.run("mpc", ["-h", socket] + args).stdout
                if condition(out) { return out }
                usleep(100_000)
            }
            return out
        }
    }

    @Test func mpcPlaysTheQueueThroughTheRealService() throws {
        let s = try Service()
        _ = try s.mpc("update", "--wait")
        #expect(try s.mpc("stats").contains("Songs:       34"))
        _ = try s.mpc("add", "Durations")
        _ = try s.mpc("repeat", "on")
        let playing = try s.mpc("play")
        #expect(playing.contains("[playing] #1/6"))
        // The tracks are short: the service moves on by itself, wrapping around with repeat.
        let later = try s.waitFor(["status"]) { !$0.contains("#1/6") && $0.contains("[playing]") }
        #expect(later.contains("[playing]") && !later.contains("#1/6"), "\(later)")
        #expect(try s.mpc("pause").contains("[paused]"))
        let paused = try s.mpc("status")
        usleep(600_000)
        #expect(try s.mpc("status") == paused)  // nothing moves while paused
        _ = try s.mpc("play", "3")
        #expect(try s.mpc("current", "-f", "%file%") == "Durations/03 VBR no Xing.mp3\n")
        _ = try s.mpc("volume", "25")
        #expect(try s.mpc("volume") == "volume: 25%\n")
        _ = try s.mpc("stop")
        #expect(try s.mpc("status").split(separator: "\n").count == 1)
    }

    /// A negative number is an argument, not an unknown option: `ctl wheel -1` turns the wheel back, and
    /// the numeric options take theirs to their range checks (64 with the range, not "Missing value").
    @Test func negativeNumbersReachTheirCommands() throws {
        let s = try Service()
        #expect(try s.ctl("press", "select").status == 0)
        #expect(try s.ctl("wheel", "3").status == 0)
        var r = try s.ctl("wheel", "-1")
        #expect(r.status == 0, "\(r.stderr)")
        r = try s.ctl("send", "screen")
        #expect(r.stdout.contains("cursor: 2\n") && r.stdout.contains("menu: music\n"), "\(r.stdout)")
        #expect(try s.ctl("--", "wheel", "-2").status == 0)
        #expect(try s.ctl("send", "screen").stdout.contains("cursor: 0\n"))
        r = try s.ctl("wheel", "-x")
        #expect(r.status == 64 && r.stderr.contains("wheel takes a whole number of steps"), "\(r.stderr)")
        r = try s.ctl("--bogus", "screen")
        #expect(r.status == 64 && r.stderr.contains("unknown action '--bogus'"), "\(r.stderr)")
        r = try s.ctl("hold", "menu", "-5")  // the service's own check
        #expect(r.status == 1 && r.stderr.contains("ACK [2@0] {hold}"), "\(r.stderr)")
        let binary = TerminalDemoTests.binary
        for (args, message) in [
            (["index", "--music", s.dir.path, "--threads", "-1"], "--threads must be at least 1"),
            (["calibrate", "--timeout", "-1"], "--timeout, --settle and --attempts must be positive"),
            (["calibrate", "--detents", "-24"], "--detents must be 2–360"),
            (["debug", "input", "--steps-per-detent", "-2", "/dev/null"], "--steps-per-detent must be 1, 2 or 4"),
            (["debug", "input", "--degrees-per-step", "-15", "/dev/null"], "--degrees-per-step must be 1–180"),
            (["run", "--music", s.dir.path, "--degrees-per-step", "-15"], "must be a number of degrees, 1–180"),
        ] {
            let r = try ChildProcess.run(binary, args)
            #expect(r.status == 64 && r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }

    @Test func ctlDrivesTheScreenAndExitsCleanly() throws {
        let s = try Service()
        var r = try s.ctl("screen")
        #expect(r.status == 0 && r.stdout.contains("Music"), "\(r.stderr)")
        #expect(try s.ctl("press", "select").status == 0)
        r = try s.ctl("send", "screen")
        #expect(r.stdout.contains("title: Music\n"), "\(r.stdout)")
        #expect(try s.ctl("wheel", "2").status == 0)
        #expect(try s.ctl("send", "screen").stdout.contains("cursor: 2\n"))
        #expect(try s.ctl("hold", "menu", "1200").status == 0)
        r = try s.ctl("send", "status")
        #expect(r.status == 0 && r.stdout.contains("state: stop\n"))
        r = try s.ctl("press", "bogus")
        #expect(r.status == 1 && r.stderr.contains("Unknown button: bogus"))
        r = try s.ctl("twist")
        #expect(r.status == 64)
        r = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", s.dir.path + "/nobody", "screen"])
        #expect(r.status == 1 && r.stderr.contains("cannot reach ClickWheel"))
        s.child.kill(SIGTERM)
        let result = s.child.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.socket))
    }

    /// A web remote that may not listen (another address than loopback, no password) stops the start with
    /// its one line, after the podcast service it is handed was made: the service's parts made so far are
    /// let go of cleanly (a podcast service's HTTP client left running would stop a debug build in its
    /// `deinit` instead), and nothing listens on the socket. (The address is refused before anything binds:
    /// the port is never opened.)
    @Test func aWebRemoteThatMayNotListenStopsTheStartWithOneLine() throws {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-web-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let music = TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
        let r = try ChildProcess.run(TerminalDemoTests.binary, [
            "run", "--display", "none", "--input", "none", "--output", "null", "--music", music,
            "--db", dir.path + "/lib.sqlite", "--socket", dir.path + "/socket", "--web", "0.0.0.0:6600",
        ])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("web: 0.0.0.0 is not loopback: set a password"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/socket"))
    }

    /// Settings → Music Menu survives a restart of the real service, and a row it hides still opens
    /// by name over the socket (`clickwheel ctl screen NAME`).
    @Test func aHiddenMusicRowStaysHiddenAfterARestartAndOpensByName() throws {
        let first = try Service()
        // Compilations shows once the first scan has found the fixture's compilations.
        var r = try first.ctl("send", "screen music")
        let deadline = Date().addingTimeInterval(30)
        while !r.stdout.contains("count: 8\n") && Date() < deadline {
            usleep(100_000)
            r = try first.ctl("send", "screen music")
        }
        #expect(r.status == 0 && r.stdout.contains("count: 8\n"), "\(r.stdout) \(r.stderr)")
        r = try first.ctl("send", "screen settings.musicmenu")
        #expect(r.stdout.contains("menu: settings.musicmenu\n"), "\(r.stdout)")
        #expect(try first.ctl("wheel", "3").status == 0)
        #expect(try first.ctl("press", "select").status == 0)
        r = try first.ctl("send", "screen")
        #expect(r.stdout.contains("Compilations") && r.stdout.contains("Off"), "\(r.stdout)")
        first.child.kill(SIGTERM)
        #expect(first.child.wait().status == 0)
        try? FileManager.default.removeItem(atPath: first.socket)

        let second = try Service(dir: first.dir)
        r = try second.ctl("send", "screen music")
        #expect(r.stdout.contains("count: 7\n") && !r.stdout.contains("Compilations"), "\(r.stdout)")
        r = try second.ctl("send", "screen music.compilations")
        #expect(r.stdout.contains("title: Compilations\n") && r.stdout.contains("depth: 3\n"), "\(r.stdout)")
        #expect(r.stdout.contains("Fête de la Musique"), "\(r.stdout)")
        r = try second.ctl("screen", "music.nowhere")
        #expect(r.status == 1 && r.stderr.contains("No such screen: music.nowhere"), "\(r.stderr)")
    }
}
