import ClickWheelTestKit
import Foundation
import Testing

/// `clickwheel run` on a terminal, tried as a person would: in tmux, keys sent with send-keys, the
/// screen read with capture-pane. Real binary, real fixture MP3s, real SQLite file.
@Suite(.serialized) struct TerminalDemoTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var binary: String { BuiltProducts.path("clickwheel", root: root) }

    /// A tmux session running one command on a tmux server of its own (`-L`), so it neither meets
    /// the user's sessions nor leaves a server behind; killed when the value is dropped.
    final class Tmux {
        let name = "cw-e2e-\(UUID().uuidString.prefix(8))"

        /// Runs `command` in a new pane; a short sleep after it keeps the pane (and its last screen) readable.
        init(_ command: String, columns: Int = 80, rows: Int = 24) throws {
            try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command + "; sleep 30"], output: false)
        }

        deinit { _ = try? tmux(["kill-server"], output: false) }

        func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys, output: false) }

        func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", name], output: true) }

        /// Runs tmux on this session's server. Only commands whose output is read get a pipe: the
        /// server that `new-session` starts must not inherit one, or reading it would never end.
        @discardableResult
        func tmux(_ args: [String], output: Bool) throws -> String {
            let r = try ChildProcess("tmux", ["-L", name] + args, output: output ? .capture : .discard).wait()
            guard r.status == 0 else { throw TmuxError(args: args, status: r.status) }
            return r.stdout
        }

        /// Waits (up to `seconds`) until the screen contains `text`; returns the screen.
        @discardableResult
        func wait(for text: String, seconds: Double = 20) throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            var last = ""
            while Date() < deadline {
                last = try screen()
                if last.contains(text) { return last }
                usleep(50_000)
            }
            Issue.record("the screen never showed \"\(text)\"; it shows:\n\(last)")
            return last
        }

    }

    struct TmuxError: Error { var args: [String]; var status: Int32 }

    @Test func browseTheRealLibraryWithTheKeyboardAndQuitCleanly() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("cw-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let music = Self.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
        let command = "'\(Self.binary)' run --music '\(music)' --db '\(tmp.path)/lib.sqlite' --socket '\(tmp.path)/socket' --output null --lcd 20x4; echo EXITED $?"
        let t = try Tmux(command)
        try t.wait(for: ">Music")
        try t.wait(for: "audio: none")  // the screen says where the audio goes
        try t.keys("Enter")
        try t.wait(for: ">Playlists")
        // Music gains Compilations when the background scan has found the fixtures' two: wait for it
        // (reading the screen over the socket moves nothing), so the rows below stay where they are.
        var screen = ""
        let deadline = Date().addingTimeInterval(30)
        while !screen.contains("count: 8\n") && Date() < deadline {
            screen = try ChildProcess.run(Self.binary, ["ctl", "--socket", tmp.path + "/socket", "send", "screen"]).stdout
            if !screen.contains("count: 8\n") { usleep(100_000) }
        }
        #expect(screen.contains("count: 8\n"), "\(screen)")
        try t.keys("j", "j", "j", "j")
        try t.wait(for: ">Songs")
        try t.keys("Enter")
        // The background scan has filled the list: 30 songs, "Abbey Lane" first.
        try t.wait(for: "Songs           1/30")
        try t.wait(for: ">Abbey Lane")
        try t.keys("Enter")
        let nowPlaying = try t.wait(for: " of 30")
        #expect(nowPlaying.contains("▶"))
        try t.keys("Escape")
        try t.wait(for: "Songs")
        // The control socket of the same process answers MPD clients meanwhile.
        let stats = try ChildProcess.run("mpc", ["-h", tmp.path + "/socket", "stats"])
        #expect(stats.stdout.contains("Songs:       34"))
        try t.keys("q")
        let after = try t.wait(for: "EXITED 0")
        #expect(!after.contains("ClickWheel"), "the terminal is restored (alternate screen left)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/socket"), "the socket is removed on exit")
    }

    @Test func missingMusicFolderIsAUsageErrorBeforeTheScreenIsTaken() throws {
        let r = try ChildProcess.run(Self.binary, ["run", "--music", "/nonexistent/music"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("the music folder '/nonexistent/music' does not exist"))
        #expect(!r.stdout.contains("\u{1B}[?1049h"), "the screen is not taken before the options are checked")
    }
}
