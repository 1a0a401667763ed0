import ClickWheelTestKit
import Foundation
import Testing

/// Main menu → Speakers and the rooms as MPD outputs, end to end: the real `clickwheel run` (outputs
/// `pulse` + `snapcast`) against the real snapserver and its two real snapclients of
/// contrib/ci/snapcast-start.sh ("rooms" playing into the halves of one 4-channel null sink, captured by
/// one parec), driven through the control socket's wheel and button commands and with `mpc`; the test
/// talks JSON-RPC to snapserver itself, as Snapweb would.
///
/// Runs only when `CW_SNAP_CONTROL` (and `PULSE_SERVER`) are set, in the Snapcast stage of contrib/test.sh.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["CW_SNAP_CONTROL"] != nil
            && ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil,
        "CW_SNAP_CONTROL is not set: run `eval \"$(contrib/ci/snapcast-start.sh)\"` after pulse-start.sh"))
struct SpeakersServiceTests {
    static let env = ProcessInfo.processInfo.environment
    /// The snapclients' ids (`--hostID room-a -i 1`, `--hostID room-b -i 2`).
    static let roomA = "room-a", roomB = "room-b#2"

    /// A JSON-RPC connection to snapserver (one line per message).
    final class Snapweb {
        let fd: Int32
        private var pending: [UInt8] = []
        private var nextID = 100

        init() throws {
            let address = SpeakersServiceTests.env["CW_SNAP_CONTROL"] ?? ""
            let colon = try #require(address.lastIndex(of: ":"))
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(address[address.index(after: colon)...]) ?? 1705).bigEndian
            inet_pton(AF_INET, String(address[..<colon]), &addr.sin_addr)
            let r = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard r == 0 else { throw POSIXError(.ECONNREFUSED) }
            var tv = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        /// Sends a request and returns its answer (notifications before it are skipped).
        @discardableResult
        func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
            nextID += 1
            let id = nextID
            var body: [String: Any] = ["id": id, "jsonrpc": "2.0", "method": method]
            if !params.isEmpty { body["params"] = params }
            let data = try JSONSerialization.data(withJSONObject: body) + Data("\n".utf8)
            _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            while true {
                let line = try readLine()
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if object["id"] as? Int == id { return object }
            }
        }

        private func readLine() throws -> String {
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<end], as: UTF8.self)
                    pending.removeSubrange(...end)
                    return line
                }
                let n = read(fd, &buf, buf.count)
                guard n > 0 else { throw POSIXError(.ETIMEDOUT) }
                pending += buf[0..<n]
            }
        }

        func setVolume(_ client: String, muted: Bool, percent: Int) throws {
            try call("Client.SetVolume", ["id": client, "volume": ["muted": muted, "percent": percent]])
        }

        /// Whether the server has `client` muted.
        func muted(_ client: String) throws -> Bool {
            let status = try call("Server.GetStatus")
            let groups =
                (((status["result"] as? [String: Any])?["server"] as? [String: Any])?["groups"] as? [[String: Any]])
                ?? []
            for g in groups {
                for c in (g["clients"] as? [[String: Any]]) ?? [] where c["id"] as? String == client {
                    let volume = (c["config"] as? [String: Any])?["volume"] as? [String: Any]
                    return (volume?["muted"] as? Bool ?? false) || (g["muted"] as? Bool ?? false)
                }
            }
            Issue.record("\(client) is not among the server's clients")
            return false
        }

        /// The rooms back as snapcast-start.sh made them: unnamed, on, full volume.
        func reset() throws {
            for client in [SpeakersServiceTests.roomA, SpeakersServiceTests.roomB] {
                try call("Client.SetName", ["id": client, "name": ""])
                try setVolume(client, muted: false, percent: 100)
            }
        }
    }

    /// Each room's level (RMS of its left channel) over about a second of the rooms' sink; nil when parec
    /// delivered less than half a second (it starts slowly on a loaded machine). The channel map is named:
    /// parec's default map for 4 channels is not the sink's, and PulseAudio then remixes the rooms into each
    /// other (seen: one room muted, the capture heard half of the other in both).
    static func roomLevels(dir: URL) throws -> (a: Double, b: Double)? {
        let file = dir.appendingPathComponent("rooms.raw").path
        let monitor = env["CW_SNAP_ROOMS_MONITOR"] ?? "cw_rooms.monitor"
        _ = try ChildProcess.run(
            "timeout",
            [
                "1.5", "parec", "-d", monitor, "--raw", "--format=s16le", "--rate=44100", "--channels=4",
                "--channel-map=front-left,front-right,rear-left,rear-right", "--latency-msec=20",
            ], output: .files(stdout: file, stderr: nil))
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        var sums = (a: 0.0, b: 0.0), frames = 0
        data.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            var i = 0
            while i + 3 < samples.count {
                let a = Double(Int16(littleEndian: samples[i])) / 32768,
                    b = Double(Int16(littleEndian: samples[i + 2])) / 32768
                sums.a += a * a
                sums.b += b * b
                frames += 1
                i += 4
            }
        }
        guard frames > 44_100 / 2 else { return nil }
        return ((sums.a / Double(frames)).squareRoot(), (sums.b / Double(frames)).squareRoot())
    }

    /// The screen row (`screen`'s `row:` lines) that names `name`.
    static func row(_ name: String, of screen: String) -> String? {
        screen.split(separator: "\n").first { $0.hasPrefix("row: ") && $0.contains(name) }.map(String.init)
    }

    @Test func roomsAreListedMutedFromTheWheelFollowSnapwebAndAreMPDOutputs() throws {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-speakers-\(UUID().uuidString.prefix(8))")
        let music = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("tone.wav").path
        #expect(
            try ChildProcess.run(
                "sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "20", "sine", "440", "vol", "0.3"]
            ).status == 0)
        #expect(
            try ChildProcess.run(
                "lame", ["--quiet", "-b", "128", "--tt", "Tone", wav, music.appendingPathComponent("tone.mp3").path]
            ).status == 0)

        let snapweb = try Snapweb()
        try snapweb.reset()
        // Left as found for the other suites (a fresh connection: the server may have been restarted).
        defer { try? Snapweb().reset() }
        // Named in Snapweb, as a user would.
        try snapweb.call("Client.SetName", ["id": Self.roomA, "name": "Kitchen"])
        try snapweb.call("Client.SetName", ["id": Self.roomB, "name": "Living Room"])

        let socket = dir.appendingPathComponent("socket").path
        let child = try ChildProcess(
            TerminalDemoTests.binary,
            [
                "run", "--display", "none", "--input", "none", "--output", "pulse,snapcast",
                "--snapcast", Self.env["CW_SNAP_SOURCE"] ?? "", "--snapcast-control", Self.env["CW_SNAP_CONTROL"] ?? "",
                "--music", music.path, "--db", dir.path + "/lib.sqlite", "--socket", socket,
            ])
        defer {
            child.kill(SIGKILL)
            _ = child.wait()
        }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        func mpc(_ args: String...) throws -> String { try ChildProcess.run("mpc", ["-h", socket] + args).stdout }
        let c = try RawClient(socket)
        _ = c.response()
        _ = try mpc("update", "--wait")
        _ = try mpc("add", "/")
        _ = try mpc("repeat", "on")
        _ = try mpc("play")

        // Main menu → Speakers: This Pi, then both rooms by their Snapweb names.
        #expect(c.roundTrip("wheel 5") == "OK\n")
        #expect(c.roundTrip("press select") == "OK\n")
        var screen = ""
        for _ in 0..<50 {
            screen = c.roundTrip("screen")
            if screen.contains("Kitchen") && screen.contains("Living Room") { break }
            usleep(100_000)
        }
        #expect(screen.contains("menu: speakers"), "\(screen)")
        let rows = screen.split(separator: "\n").filter { $0.hasPrefix("row: ") }.map { String($0.dropFirst(5)) }
        #expect(rows.count == 4 && rows[1].contains("This Pi") && rows[1].contains("On"), "\(rows)")
        let kitchenRow = try #require(rows.firstIndex { $0.contains("Kitchen") }, "\(rows)")
        #expect(rows[kitchenRow].contains("100%"))

        // Both rooms hear the tone (the stream's start may take a resync or two on a loaded machine: up to
        // four tries of a second).
        var both = (a: 0.0, b: 0.0)
        for _ in 0..<8 where both.a <= 0.015 || both.b <= 0.015 {
            both = try Self.roomLevels(dir: dir) ?? both
        }
        print("speakers: room levels before muting: A \(both.a), B \(both.b)")
        #expect(both.a > 0.005 && both.b > 0.005, "both rooms play: \(both)")

        // Select on Kitchen mutes it: the server has it muted, and only room A goes quiet.
        #expect(c.roundTrip("wheel \(kitchenRow - 1)") == "OK\n")
        #expect(c.roundTrip("press select") == "OK\n")
        usleep(300_000)
        #expect(try snapweb.muted(Self.roomA))
        #expect(try !snapweb.muted(Self.roomB))
        #expect(Self.row("Kitchen", of: c.roundTrip("screen"))?.hasSuffix(" Off") == true)
        usleep(1_500_000)  // past Snapcast's 1 s buffer
        // Room A silent in every capture; room B heard (a resync may silence it for a moment: up to three).
        var muted = (a: 0.0, b: 0.0)
        for _ in 0..<4 where muted.b <= 0.015 {
            guard let level = try Self.roomLevels(dir: dir) else { continue }
            muted = (max(muted.a, level.a), level.b)
        }
        print("speakers: room levels with Kitchen muted from the menu: A \(muted.a), B \(muted.b)")
        #expect(muted.a < 0.0005, "room A is silent: \(muted.a)")
        #expect(muted.b > 0.005, "room B plays on: \(muted.b)")

        // A volume set in "Snapweb" shows on the screen within a second.
        let asked = Date()
        try snapweb.setVolume(Self.roomB, muted: false, percent: 23)
        var seen: Double?
        while Date().timeIntervalSince(asked) < 3 {
            if Self.row("Living Room", of: c.roundTrip("screen"))?.hasSuffix(" 23%") == true {
                seen = Date().timeIntervalSince(asked)
                break
            }
            usleep(20_000)
        }
        let shownAfter = try #require(seen, "the new volume never showed: \(c.roundTrip("screen"))")
        print("speakers: a Snapweb volume change showed on the screen after \(Int(shownAfter * 1000)) ms")
        #expect(shownAfter < 1)

        // MPD clients: the rooms after the configured outputs, off when muted; mpc switches them.
        let outputs = try mpc("outputs")
        #expect(
            outputs.contains("Output 1 (This Pi) is enabled") && outputs.contains("Output 2 (Snapcast) is enabled"),
            "\(outputs)")
        let kitchenLine = try #require(outputs.split(separator: "\n").first { $0.contains("(Kitchen)") }, "\(outputs)")
        #expect(kitchenLine.hasSuffix("is disabled"))
        let kitchenID = try #require(kitchenLine.split(separator: " ").dropFirst().first.map(String.init))
        let livingLine = try #require(
            outputs.split(separator: "\n").first { $0.contains("(Living Room)") }, "\(outputs)")
        #expect(livingLine.hasSuffix("is enabled"))
        let livingID = try #require(livingLine.split(separator: " ").dropFirst().first.map(String.init))
        #expect(c.roundTrip("outputs").contains("outputname: Kitchen\nplugin: snapcast\noutputenabled: 0\n"))
        _ = try mpc("enable", kitchenID)
        _ = try mpc("disable", livingID)
        usleep(300_000)
        #expect(try !snapweb.muted(Self.roomA), "mpc enable unmuted Kitchen")
        #expect(try snapweb.muted(Self.roomB), "mpc disable muted Living Room")

        // This Pi: Select switches the `pulse` output as `toggleoutput 0` does, and back.
        #expect(c.roundTrip("wheel -5") == "OK\n")
        #expect(c.roundTrip("press select") == "OK\n")
        #expect(try mpc("outputs").contains("Output 1 (This Pi) is disabled"))
        #expect(Self.row("This Pi", of: c.roundTrip("screen"))?.hasSuffix(" Off") == true)
        #expect(c.roundTrip("press select") == "OK\n")
        #expect(try mpc("outputs").contains("Output 1 (This Pi) is enabled"))

        // Idle `output` fires when Snapweb mutes a room.
        let idler = try RawClient(socket)
        _ = idler.response()
        idler.send("idle output\n")
        usleep(200_000)
        try snapweb.setVolume(Self.roomA, muted: true, percent: 100)
        #expect(idler.response() == "changed: output\nOK\n")
        // Unmuted again before the kill below: snapserver keeps its clients' state across a restart.
        try snapweb.reset()

        // The server killed: the menu says so within a second or two (one log line), and once it is back
        // the rooms come back by themselves.
        let dirOfSnap = Self.env["CW_SNAP_DIR"] ?? ""
        let pid = try #require(
            Int32(
                String(contentsOfFile: dirOfSnap + "/snapserver.pid", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        kill(pid, SIGKILL)
        let killed = Date()
        var offline = false
        for _ in 0..<40 where !offline {
            offline = Self.row("Server offline", of: c.roundTrip("screen")) != nil
            if !offline { usleep(100_000) }
        }
        #expect(offline, "the menu did not say the server is offline: \(c.roundTrip("screen"))")
        print(
            "speakers: \"Server offline\" on the screen \(Int(Date().timeIntervalSince(killed) * 1000)) ms after the kill"
        )
        let script = TerminalDemoTests.root.appendingPathComponent("contrib/ci/snapcast-start.sh").path
        let restart = try ChildProcess.run("/bin/bash", [script])
        #expect(restart.status == 0, "snapcast-start.sh: \(restart.stderr)")
        let restarted = Date()
        var back = false
        for _ in 0..<100 where !back {
            // Listed and connected again (the server lists known clients as offline until they are back).
            let screen = c.roundTrip("screen")
            back = [Self.row("Kitchen", of: screen), Self.row("Living Room", of: screen)].allSatisfy {
                $0 != nil && $0?.hasSuffix("Offline") == false
            }
            if !back { usleep(100_000) }
        }
        #expect(back, "the rooms did not come back: \(c.roundTrip("screen"))")
        print(
            "speakers: both rooms connected on the screen \(Int(Date().timeIntervalSince(restarted) * 1000)) ms after the restart"
        )
        let snapweb2 = try Snapweb()
        try snapweb2.reset()
        child.kill(SIGTERM)
        let log = child.wait().stderr
        let lines = log.split(separator: "\n").filter { $0.contains("snapcast control") }
        #expect(lines.count == 2 && lines[0].contains("retrying (every second at first") && lines[1].contains("back"), "\(lines)")
    }

    /// A snapserver that stops answering (SIGSTOP: the kernel still accepts its connections, nothing reads
    /// them) must hold nothing: the PCM sender and the control client wait on their own thread and on the
    /// event loop, so wheel turns and socket commands go on at their usual pace, the local output plays on,
    /// and the service is itself again once the server is back.
    @Test func aFrozenSnapserverHoldsNothing() throws {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-frozen-snap-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let music = TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
        let socket = dir.appendingPathComponent("socket").path
        let child = try ChildProcess(
            TerminalDemoTests.binary,
            [
                "run", "--display", "none", "--input", "none", "--output", "pulse,snapcast",
                "--snapcast", Self.env["CW_SNAP_SOURCE"] ?? "", "--snapcast-control", Self.env["CW_SNAP_CONTROL"] ?? "",
                "--music", music, "--db", dir.path + "/lib.sqlite", "--socket", socket,
            ])
        defer {
            child.kill(SIGKILL)
            _ = child.wait()
        }
        var connected: RawClient?
        for _ in 0..<300 where connected == nil {
            connected = try? RawClient(socket)
            if connected == nil { usleep(100_000) }
        }
        let c = try #require(connected, "the service never listened")
        _ = c.response()
        _ = try ChildProcess.run("mpc", ["-h", socket, "update", "--wait"])
        _ = try ChildProcess.run("mpc", ["-h", socket, "add", "/"])
        #expect(c.roundTrip("repeat 1") == "OK\n")
        #expect(c.roundTrip("play") == "OK\n")
        usleep(1_000_000)

        let pidText = try String(contentsOfFile: (Self.env["CW_SNAP_DIR"] ?? "") + "/snapserver.pid", encoding: .utf8)
        let server = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(server, SIGSTOP) == 0)
        defer { kill(server, SIGCONT) }
        let frozen = Date()
        var slow = 0
        for round in 0..<20 {
            let start = Date()
            #expect(c.roundTrip("wheel \(round % 2 == 0 ? 1 : -1)").hasSuffix("OK\n"))
            #expect(c.roundTrip("setvol \(40 + round)") == "OK\n")
            if Date().timeIntervalSince(start) >= 1 { slow += 1 }
            usleep(300_000)  // paced as a hand turns the wheel
        }
        let status = c.roundTrip("status")
        #expect(slow == 0, "\(slow) of 20 rounds waited a second or more while snapserver was frozen")
        #expect(status.contains("state: play\n"), "the local output plays on: \(status)")
        print("speakers: 20 paced rounds with snapserver frozen for \(Int(Date().timeIntervalSince(frozen))) s, \(slow) slow")
        kill(server, SIGCONT)
        // Back: Main menu → Speakers lists both rooms connected again.
        #expect(c.roundTrip("screen speakers").contains("menu: speakers"))
        var back = false
        for _ in 0..<150 where !back {
            let screen = c.roundTrip("screen")
            back = screen.contains("row: ") && !screen.contains("Offline") && !screen.contains("Server offline")
                && screen.split(separator: "\n").filter { $0.hasPrefix("row: ") }.count >= 3
            if !back { usleep(100_000) }
        }
        #expect(back, "the rooms did not come back after SIGCONT: \(c.roundTrip("screen"))")
    }
}

