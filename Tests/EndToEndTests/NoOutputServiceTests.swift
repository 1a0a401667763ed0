import ClickWheelTestKit
import Foundation
import Testing

/// The real `clickwheel run` playing while no output can: Now Playing says "No audio output" and which, and
/// MPD's `status` carries the `error:` line MPD 0.23 gives for an output it could not enable; both go by
/// themselves once the server is there. With a real snapserver that is not there yet and then started, and
/// with a private PulseAudio server that is stopped mid-song and started again.
@Suite(.serialized) struct NoOutputServiceTests {
    final class Service {
        let dir: URL
        let socket: String
        let child: ChildProcess

        init(_ arguments: [String], environment: [String: String]? = nil) throws {
            dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-noout-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            socket = dir.appendingPathComponent("socket").path
            let music = TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
            child = try ChildProcess(
                TerminalDemoTests.binary,
                ["run", "--display", "none", "--input", "none", "--lcd", "20x4", "--music", music, "--db",
                 dir.path + "/lib.sqlite", "--socket", socket] + arguments,
                environment: environment)
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
            try mpc("update", "--wait")
            try mpc("repeat", "on")
            try mpc("add", "Durations")
        }

        deinit {
            child.kill(SIGKILL)
            _ = child.wait()
            try? FileManager.default.removeItem(at: dir)
        }

        @discardableResult
        func mpc(_ args: String...) throws -> String { try ChildProcess.run("mpc", ["-h", socket] + args).stdout }

        /// `status` as MPD's lines (none when the socket does not answer).
        func status() -> [String] {
            guard let c = try? RawClient(socket) else { return [] }
            _ = c.response()
            return c.roundTrip("status").split(separator: "\n").map(String.init)
        }

        /// The LCD rows (the `screen` extension; none when the socket does not answer).
        func screen() -> [String] {
            guard let c = try? RawClient(socket) else { return [] }
            _ = c.response()
            return c.roundTrip("screen").split(separator: "\n").filter { $0.hasPrefix("row: ") }.map { String($0.dropFirst(5)) }
        }

        /// Walks to Now Playing as a hand would: the main menu's last row while something plays.
        func openNowPlaying() {
            guard let c = try? RawClient(socket) else { return }
            _ = c.response()
            _ = c.roundTrip("wheel 20")
            _ = c.roundTrip("press select")
            #expect(c.roundTrip("screen").contains("menu: nowplaying"))
        }

        func errorLine() -> String? { status().first { $0.hasPrefix("error: ") } }
    }

    /// A TCP port nobody listens on now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    static let snapserverInstalled = FileManager.default.fileExists(atPath: "/usr/bin/snapserver")
    static let pulseInstalled = FileManager.default.fileExists(atPath: "/usr/bin/pulseaudio")

    @Test(.enabled(if: snapserverInstalled, "snapserver is not installed (contrib/ci/install-deps.sh)"))
    func snapcastAloneWithNoSnapserverSaysSoUntilOneStarts() throws {
        let port = Self.freePort()
        let s = try Service(["--output", "snapcast", "--snapcast", "tcp://127.0.0.1:\(port)"])
        #expect(s.errorLine() == nil, "stopped: no error")
        try s.mpc("play")
        s.openNowPlaying()
        let want = "error: Failed to enable output \"Snapcast\" (snapcast); cannot connect to tcp://127.0.0.1:\(port): Connection refused"
        #expect(FullServiceTests.poll(seconds: 5) { s.errorLine() == want }, "status: \(s.status())")
        #expect(s.status().dropLast().last == want, "error is status's last line, as MPD has it")
        #expect(s.screen().suffix(2) == ["No audio output     ", "Snapcast            "], "\(s.screen())")

        // Paused, nothing is asked of the output: no error (as MPD, which finds a failed output only when
        // it opens one to play); playing again, the error is back at once.
        try s.mpc("pause")
        #expect(s.errorLine() == nil)
        #expect(!s.screen().joined().contains("No audio output"))
        try s.mpc("play")
        #expect(s.errorLine() == want)

        // snapserver starts with the tcp source ClickWheel sends to: all clears by itself within the
        // output's 1 s retry.
        let snap = s.dir.appendingPathComponent("snap")
        try FileManager.default.createDirectory(at: snap, withIntermediateDirectories: true)
        let conf = snap.appendingPathComponent("snapserver.conf").path
        try """
            [server]
            datadir = \(snap.path)
            [stream]
            source = tcp://127.0.0.1:\(port)?name=ClickWheel&mode=server&sampleformat=44100:16:2&codec=pcm
            port = \(Self.freePort())
            [tcp]
            port = \(Self.freePort())
            [http]
            enabled = false

            """.write(toFile: conf, atomically: true, encoding: .utf8)
        let server = try ChildProcess("/usr/bin/snapserver", ["-c", conf], output: .discard)
        defer {
            server.kill(SIGTERM)
            _ = server.wait()
        }
        #expect(FullServiceTests.poll(seconds: 10) { s.errorLine() == nil }, "status: \(s.status())")
        #expect(s.status().contains("state: play"))
        #expect(FullServiceTests.poll(seconds: 3) { !s.screen().joined().contains("No audio output") })
        #expect(s.screen().last?.hasPrefix("0:") == true, "the progress line is back: \(s.screen())")
    }

    @Test(.enabled(if: pulseInstalled, "PulseAudio is not installed (contrib/ci/install-deps.sh)"))
    func pulseServerStoppedMidSongSaysSoAndClearsWhenItIsBack() throws {
        let scripts = TerminalDemoTests.root.appendingPathComponent("contrib/ci").path
        // A server of this test's own (its own folder and socket): stopping it touches no other test's.
        let pulseDir = "/tmp/cw-noout-pulse-\(UUID().uuidString.prefix(8))"
        var env = ProcessInfo.processInfo.environment
        env["CW_PULSE_DIR"] = pulseDir
        env["CW_PULSE_SINK"] = "cw_noout_null"
        func pulse(_ script: String) throws {
            let r = try ChildProcess.run("/bin/bash", [scripts + "/" + script], environment: env)
            #expect(r.status == 0, "\(script): \(r.stderr)")
        }
        try pulse("pulse-start.sh")
        defer {
            try? pulse("pulse-stop.sh")
            try? FileManager.default.removeItem(atPath: pulseDir)
        }
        var serviceEnv = ProcessInfo.processInfo.environment
        serviceEnv["PULSE_SERVER"] = "unix:\(pulseDir)/native"
        let s = try Service(["--output", "pulse"], environment: serviceEnv)
        // Our stream on the server, and whether it plays (not corked): the output is really there.
        func streamPlaying() -> Bool {
            guard let r = try? ChildProcess.run("/usr/bin/pactl", ["list", "sink-inputs"], environment: serviceEnv)
            else { return false }
            return r.stdout.contains("ClickWheel") && r.stdout.contains("Corked: no")
        }
        try s.mpc("play")
        s.openNowPlaying()
        #expect(FullServiceTests.poll(seconds: 10) { streamPlaying() }, "plays on the server")
        #expect(s.errorLine() == nil)

        try pulse("pulse-stop.sh")
        let prefix = "error: Failed to enable output \"This Pi\" (pulse); pa_context_connect"
        #expect(
            FullServiceTests.poll(seconds: 5) { s.errorLine()?.hasPrefix(prefix) == true },
            "status: \(s.status())")
        print("pulse stopped: \(s.errorLine() ?? "no error")")
        #expect(s.screen().suffix(2) == ["No audio output     ", "This Pi             "], "\(s.screen())")
        #expect(s.status().contains("state: play"), "still playing: it goes on when the server is back")

        try pulse("pulse-start.sh")
        #expect(FullServiceTests.poll(seconds: 5) { s.errorLine() == nil }, "status: \(s.status())")
        #expect(FullServiceTests.poll(seconds: 3) { !s.screen().joined().contains("No audio output") })
        #expect(FullServiceTests.poll(seconds: 5) { streamPlaying() }, "plays on the server again")
    }
}
