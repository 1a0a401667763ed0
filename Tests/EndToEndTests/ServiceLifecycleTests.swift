import ClickWheelTestKit
import Foundation
import Testing

/// The real `clickwheel run` on a music folder of its own: the library follows the folder (inotify),
/// SIGHUP reloads the configuration and rescans, Settings → Shut Down runs the configured command,
/// SIGTERM exits cleanly and quickly. Observed through mpc on the control socket and the log.
@Suite(.serialized) struct ServiceLifecycleTests {
    static let fixtures = TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path

    final class Service {
        let dir: String
        let music: String
        let socket: String
        let config: String
        let child: ChildProcess

        init(environment extra: [String: String] = [:]) throws {
            dir = "/tmp/cw-life-\(UUID().uuidString.prefix(8))"
            music = dir + "/music"
            socket = dir + "/socket"
            config = dir + "/clickwheel.yaml"
            try FileManager.default.createDirectory(atPath: music + "/Durations", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: ServiceLifecycleTests.fixtures + "/Durations/01 CBR Info.mp3",
                toPath: music + "/Durations/01 CBR Info.mp3")
            try "log_level: info\nlcd: 20x4\n".write(toFile: config, atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            environment.merge(extra) { _, b in b }
            child = try ChildProcess(
                TerminalDemoTests.binary,
                [
                    "run", "--config", config, "--display", "none", "--input", "none", "--output", "null",
                    "--music", music, "--db", dir + "/lib.sqlite", "--socket", socket,
                ], environment: environment)
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        }

        deinit {
            if !child.hasExited { child.kill(SIGKILL) }
            _ = child.wait()
            try? FileManager.default.removeItem(atPath: dir)
        }

        func mpc(_ args: String...) throws -> String {
            try ChildProcess.run("mpc", ["-h", socket] + args).stdout
        }

        /// The number of songs `stats` reports, polled until it is `n` (up to `seconds`).
        func waitForSongs(_ n: Int, seconds: Double = 20) throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if try songs() == n { return true }
                usleep(100_000)
            }
            return false
        }

        /// The `Songs:` figure of `stats`.
        func songs() throws -> Int? {
            let line = try mpc("stats").split(separator: "\n").first { $0.hasPrefix("Songs:") }
            return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        }

        /// SIGTERM, then the exit: status, log, and seconds it took.
        func stop() -> (ChildProcess.Result, Double) {
            let start = Date()
            child.kill(SIGTERM)
            let result = child.wait()
            return (result, Date().timeIntervalSince(start))
        }
    }

    @Test func theLibraryFollowsTheMusicFolder() throws {
        let s = try Service()
        #expect(try s.waitForSongs(1), "the first scan")
        // A new folder with a song in it: watched as it appears, indexed after the changes settle.
        try FileManager.default.createDirectory(atPath: s.music + "/New Artist/New Album", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.fixtures + "/Durations/02 VBR Xing.mp3", toPath: s.music + "/New Artist/New Album/02 VBR Xing.mp3")
        #expect(try s.waitForSongs(2), "copied in")
        #expect(try s.mpc("ls", "New Artist/New Album").contains("02 VBR Xing.mp3"))
        try FileManager.default.removeItem(atPath: s.music + "/Durations/01 CBR Info.mp3")
        #expect(try s.waitForSongs(1), "deleted")
        let (result, seconds) = s.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(seconds < 2, "SIGTERM to exit took \(seconds) s")
        #expect(!FileManager.default.fileExists(atPath: s.socket))
        #expect(result.stderr.contains("watched: 2 folders"), "\(result.stderr)")
    }

    @Test func sighupReloadsTheConfigurationAndRescans() throws {
        let s = try Service()
        #expect(try s.waitForSongs(1))
        usleep(300_000)
        // Idle clients hear of the rescan's end (nothing changed in the folder: only SIGHUP rescans), as
        // `update` alone: like MPD, `database` only when the library changed.
        let idle = try ChildProcess("mpc", ["-h", s.socket, "idle", "database", "update"])
        usleep(500_000)
        try "log_level: debug\nlcd: 16x2\n".write(toFile: s.config, atomically: true, encoding: .utf8)
        s.child.kill(SIGHUP)
        let heard = idle.wait()
        #expect(heard.stdout == "update\n", "\(heard)")
        #expect(!s.child.hasExited, "SIGHUP does not stop the service")
        #expect(try s.songs() == 1)
        let (result, _) = s.stop()
        #expect(result.status == 0)
        let line = result.stderr.split(separator: "\n").first { $0.contains("SIGHUP") }.map(String.init) ?? ""
        #expect(line.contains("applied: log_level, shutdown_command, restart_command"), "\(result.stderr)")
        #expect(line.contains("applied only at restart: lcd"), "\(line)")
    }

    @Test func settingsShutDownRunsTheConfiguredCommand() throws {
        let flag = "/tmp/cw-power-\(UUID().uuidString.prefix(8))"
        defer { unlink(flag) }
        let s = try Service(environment: ["CLICKWHEEL_SHUTDOWN_COMMAND": "touch \(flag)"])
        func ctl(_ args: String...) throws {
            let r = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", s.socket] + args)
            #expect(r.status == 0, "ctl \(args): \(r.stderr)")
        }
        try ctl("wheel", "3")
        try ctl("press", "select")
        try ctl("wheel", "13")
        try ctl("press", "select")
        let screen = try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", s.socket, "screen"]).stdout
        #expect(screen.contains("Shut Down") && screen.contains("Cancel"), "\(screen)")
        try ctl("wheel", "1")
        try ctl("press", "select")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: flag) && Date() < deadline { usleep(50_000) }
        #expect(FileManager.default.fileExists(atPath: flag))
        let (result, _) = s.stop()
        #expect(result.stderr.contains("Shut Down: 'touch \(flag)' exited with status 0"), "\(result.stderr)")
    }
}
