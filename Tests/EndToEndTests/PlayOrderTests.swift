import ClickWheelTestKit
import Foundation
import NamedThreads
import Testing

/// What plays next, and who has the last word, on the real service (`clickwheel run --output null`:
/// real-time decoding, no sound server) over its socket.
@Suite(.serialized) struct PlayOrderTests {
    /// A connection that answers one command at a time, with the fields of the answer.
    final class Session {
        let client: RawClient

        init(_ socket: String) throws {
            client = try RawClient(socket)
            _ = client.response()
        }

        @discardableResult
        func send(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: String] {
            let answer = client.roundTrip(line)
            #expect(answer.hasSuffix("OK\n"), "\(line) -> \(answer)", sourceLocation: sourceLocation)
            return Self.fields(answer)
        }

        static func fields(_ answer: String) -> [String: String] {
            var fields: [String: String] = [:]
            for line in answer.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = String(line[line.index(colon, offsetBy: 2)...])
            }
            return fields
        }

        var status: [String: String] { send("status") }
    }

    /// The service over `music` (the test library by default), its library indexed.
    static func service(music: String? = nil) throws -> ControlSocketServiceTests.Service {
        let s = try ControlSocketServiceTests.Service(music: music)
        _ = try s.mpc("update", "--wait")
        return s
    }

    // MARK: nextsong

    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        /// Commands after `clear` and `add Durations` (six short tracks); `pause` waits 0.3 s (so
        /// that the wheel steps around it do not accelerate).
        var setup: [String]
        var testDescription: String { name }
    }

    static let scenarios = [
        Scenario(name: "one entry, repeat", setup: ["delete 1:", "repeat 1", "play 0"]),
        Scenario(name: "repeat and single", setup: ["repeat 1", "single 1", "play 2"]),
        Scenario(name: "single oneshot", setup: ["single oneshot", "play 1"]),
        Scenario(name: "single oneshot, repeat", setup: ["repeat 1", "single oneshot", "play 1"]),
        Scenario(name: "consume", setup: ["consume 1", "play 2"]),
        Scenario(name: "random", setup: ["random 1", "play 0"]),
        Scenario(name: "repeat, last entry", setup: ["repeat 1", "play 5"]),
        Scenario(name: "last entry", setup: ["play 5"]),
        // Settings → Sleep Timer → End of Track, through the wheel and buttons, while one track repeats.
        Scenario(
            name: "sleep timer at End of Track",
            setup: [
                "repeat 1", "single 1", "play 0", "wheel 3", "pause", "press select", "wheel 12", "pause", "press select",
                "wheel 6", "pause", "press select",
            ]),
    ]

    /// `status` says `nextsong`/`nextsongid`; when the track ends, that entry is the one that plays
    /// (or, without them, playback stops).
    @Test(arguments: scenarios) func nextSongIsWhatThenPlays(_ scenario: Scenario) throws {
        let s = try Self.service()
        let c = try Session(s.socket)
        c.send("clear")
        c.send("add Durations")
        for line in scenario.setup {
            if line == "pause" { usleep(300_000) } else { c.send(line) }
        }
        let before = c.status
        let playing = try #require(before["songid"])
        let next = before["nextsongid"]
        // Wait for the track to end: another song id, a stop, or the same id from its start again.
        var seen = Double(before["elapsed"] ?? "0") ?? 0
        var after: [String: String] = before
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            usleep(20_000)
            after = c.status
            if after["state"] != "play" || after["songid"] != playing { break }
            let elapsed = Double(after["elapsed"] ?? "0") ?? 0
            if elapsed + 0.05 < seen { break }  // the same entry from its start again
            seen = max(seen, elapsed)
        }
        if let next {
            #expect(after["state"] == "play", "\(scenario.name): \(before) then \(after)")
            #expect(after["songid"] == next, "\(scenario.name): nextsongid \(next), then \(after["songid"] ?? "none") played")
        } else {
            #expect(after["state"] != "play", "\(scenario.name): no nextsong, yet \(after)")
        }
    }

    // MARK: the last command wins

    enum Second: String, CaseIterable, Sendable {
        case pause = "pause 1"
        case stop = "stop"
        case next = "next"
        case seek = "seekcur 10"
    }

    /// Three 20-second tones (sox + lame) in a folder of the test's own.
    static func longTracks() throws -> URL {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-long-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (i, hz) in [440, 550, 660].enumerated() {
            let wav = dir.appendingPathComponent("\(i).wav").path
            let r1 = try ChildProcess.run("sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "20", "sine", "\(hz)"])
            #expect(r1.status == 0, "\(r1.stderr)")
            let r2 = try ChildProcess.run("lame", ["--quiet", "-b", "128", wav, dir.appendingPathComponent("\(i + 1) tone.mp3").path])
            #expect(r2.status == 0, "\(r2.stderr)")
            try FileManager.default.removeItem(atPath: wav)
        }
        return dir
    }

    /// How often each pair is sent (the race it guards against was lost about 1 time in 4).
    static let rounds = Int(ProcessInfo.processInfo.environment["CW_RACE_ROUNDS"] ?? "") ?? 1000

    /// `play` followed at once (one write) by `pause 1`, `stop`, `next` or `seekcur 10`, many times,
    /// each on a service of its own and all four at once: the state settles where the last command
    /// put it, and stays there while the player's reports of the `play` come in.
    @Test func theLaterCommandAlwaysWins() throws {
        let music = try Self.longTracks()
        defer { try? FileManager.default.removeItem(at: music) }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: Second.allCases.count) { i in
            let second = Second.allCases[i]
            do {
                try Self.race(second, music: music.path, failures: failures)
            } catch {
                failures.add("\(second.rawValue): \(error)")
            }
        }
        #expect(failures.list.isEmpty, "\(failures.list.prefix(10))")
    }

    final class Failures: Sendable {
        private let items = Locked<[String]>([])
        func add(_ s: String) { items.withLock { $0.append(s) } }
        var list: [String] { items.withLock { $0 } }
    }

    static func race(_ second: Second, music: String, failures: Failures) throws {
        let s = try service(music: music)
        let c = try Session(s.socket)
        c.send("add /")
        c.send("repeat 1")
        let first = c.send("playlistinfo 0")["Id"], secondID = c.send("playlistinfo 1")["Id"]
        for round in 0..<rounds {
            c.send("stop")
            c.client.send("play 0\n\(second.rawValue)\n")
            var replies = ""
            while replies.split(separator: "\n").filter({ $0 == "OK" || $0.hasPrefix("ACK") }).count < 2 {
                let r = c.client.response()
                if r.isEmpty { break }
                replies += r
            }
            // The player's reports of the `play` come within a period or two of the null output.
            for _ in 0..<4 {
                usleep(25_000)
                let st = c.status
                let ok: Bool
                switch second {
                case .pause: ok = st["state"] == "pause" && st["songid"] == first
                case .stop: ok = st["state"] == "stop"
                case .next: ok = st["state"] == "play" && st["songid"] == secondID
                case .seek: ok = st["state"] == "play" && (Double(st["elapsed"] ?? "") ?? 0) >= 10
                }
                if !ok {
                    failures.add("\(second.rawValue), round \(round): \(st["state"] ?? "?") song \(st["songid"] ?? "-") at \(st["elapsed"] ?? "-")")
                    break
                }
            }
        }
    }
}
