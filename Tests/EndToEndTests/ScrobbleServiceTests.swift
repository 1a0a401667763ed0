import ClickWheelTestKit
import Foundation
import Testing

/// The scrobble log of the real service (`clickwheel run` on the null output, real MP3s made with lame,
/// real SQLite file, real mpc over the socket), with the clock's sync status read from a file the test
/// creates (`clock_synced_file`): unsynchronised, the listens wait in the database, through a kill -9
/// and a restart; once the file exists they are written with their start times worked back from the
/// boot clock. About 15 s: two 3 s songs played through in real time.
@Suite(.serialized) struct ScrobbleServiceTests {
    final class Service {
        let dir: String
        var child: ChildProcess?
        var socket: String { dir + "/socket" }
        var config: String { dir + "/clickwheel.yaml" }
        var log: String { dir + "/logs/scrobbler.log" }
        var synced: String { dir + "/synced" }
        var db: String { dir + "/lib.sqlite" }

        init() throws {
            dir = "/tmp/cw-scrobble-\(UUID().uuidString.prefix(8))"
            try ResumeEndToEndTests.makeSongs(in: dir + "/music", count: 2, seconds: 3)
            try """
            music: \(dir)/music
            db: \(db)
            socket: \(socket)
            display: none
            input: none
            output: "null"
            scrobble_log: \(log)
            clock_synced_file: \(synced)

            """.write(toFile: config, atomically: true, encoding: .utf8)
        }

        deinit {
            stop(SIGKILL)
            try? FileManager.default.removeItem(atPath: dir)
        }

        func start() throws {
            try? FileManager.default.removeItem(atPath: socket)
            child = try ChildProcess(TerminalDemoTests.binary, ["run", "--config", config])
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        }

        @discardableResult
        func stop(_ signal: Int32) -> ChildProcess.Result? {
            guard let child else { return nil }
            child.kill(signal)
            self.child = nil
            return child.wait()
        }

        @discardableResult
        func mpc(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let r = try ChildProcess.run("mpc", ["-h", socket] + args)
            #expect(r.status == 0, "mpc \(args): \(r.stderr)", sourceLocation: sourceLocation)
            return r.stdout
        }

        func waiting() throws -> String { try ResumeEndToEndTests.query(db, "SELECT count(*) FROM scrobble_queue") }
    }

    @Test func listensWaitForTheClockThroughAKillThenAreWrittenWithTheirStartTimes() throws {
        let s = try Service()
        try s.start()
        try s.mpc("update", "--wait")
        try s.mpc("add", "/")
        let began = Int64(Date().timeIntervalSince1970)
        try s.mpc("play")
        // Both songs play through (3 s each); the queue ends and playback stops.
        var deadline = Date().addingTimeInterval(20)
        while try s.waiting() != "2" && Date() < deadline { usleep(200_000) }
        #expect(try s.waiting() == "2", "two listens queued")
        // Song 1 again, left at once with Next: a skip; Previous leaves song 2 at once: another. (Stop
        // keeps the current song, as MPD's does: no skip.)
        try s.mpc("play", "1")
        try s.mpc("next")
        try s.mpc("prev")
        try s.mpc("stop")
        deadline = Date().addingTimeInterval(5)
        while try s.waiting() != "4" && Date() < deadline { usleep(100_000) }
        #expect(try s.waiting() == "4")
        usleep(500_000)
        #expect(!FileManager.default.fileExists(atPath: s.log), "unsynchronised: nothing written")

        // kill -9 and a start again (the same boot): the listens still wait.
        s.stop(SIGKILL)
        try s.start()
        try s.mpc("status")
        usleep(1_000_000)
        #expect(!FileManager.default.fileExists(atPath: s.log))
        #expect(try s.waiting() == "4")

        // The clock is synchronised: within a poll (5 s) the lines are there.
        #expect(FileManager.default.createFile(atPath: s.synced, contents: nil))
        deadline = Date().addingTimeInterval(12)
        while (try? String(contentsOfFile: s.log, encoding: .utf8))?.split(separator: "\n").count != 7
            && Date() < deadline
        {
            usleep(200_000)
        }
        let ended = Int64(Date().timeIntervalSince1970)
        let text = try String(contentsOfFile: s.log, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 8, "\(text)")  // 3 header lines, 4 listens, the last newline
        #expect(lines[0] == "#AUDIOSCROBBLER/1.1")
        #expect(lines[1] == "#TZ/UTC")
        #expect(lines[2].hasPrefix("#CLIENT/ClickWheel "))
        #expect(lines[7] == "")
        let fields = lines[3...6].map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(fields.map { $0.count } == [8, 8, 8, 8])
        #expect(
            fields.map { $0[0...5].joined(separator: "|") } == [
                "Resume Tester|Long Album|Long Song 1|1|3|L", "Resume Tester|Long Album|Long Song 2|2|3|L",
                "Resume Tester|Long Album|Long Song 1|1|3|S", "Resume Tester|Long Album|Long Song 2|2|3|S",
            ])
        #expect(fields.map { $0[7] } == ["", "", "", ""])
        // Start times: worked back from the boot clock, in order, within the test's run, song 2 about
        // 3 s after song 1.
        let starts = fields.map { Int64($0[6]) ?? 0 }
        #expect(starts.allSatisfy { $0 >= began - 1 && $0 <= ended }, "\(starts) not in \(began)…\(ended)")
        #expect(starts == starts.sorted())
        #expect((2...5).contains(starts[1] - starts[0]), "\(starts)")
        #expect(try s.waiting() == "0")
        #expect(s.stop(SIGTERM)?.status == 0)
    }
}
