import ClickWheelTestKit
import Foundation
import Testing

/// mpdscribble (Debian's package: a real MPD client that scrobbles to Last.fm) against the real
/// service: it connects to the control socket, follows a song played through on the null output, and
/// its journal records the listen. No network: the scrobbler's URL is a closed port on loopback, so
/// every listen stays in the journal, which mpdscribble writes when it exits (SIGTERM).
///
/// mpdscribble counts a song (Last.fm's rules) only when it is at least 30 s long and more than half
/// of it was played by its own timer (`elapsed > length / 2`, whole seconds), and submits it when the
/// song ends: the fixture is 31 s and the test plays 17 s, then stops. It takes about 20 s.
///
/// Its first command, `subscribe "mpdscribble"`, opens the client-to-client channel it reads "love"
/// requests from: the test sees the channel, and a message sent on it is taken (it reads messages
/// when `idle player message` wakes it). Everything else it sends (`command_list_ok_begin` with
/// `status` and `currentsong`) is answered as MPD does.
@Suite(.serialized) struct MpdscribbleTests {
    @Test func mpdscribbleJournalsASongPlayedPastHalf() throws {
        let dir = "/tmp/cw-mpdscribble-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ResumeEndToEndTests.makeSongs(in: dir + "/music", count: 1, seconds: 31)
        let socket = dir + "/socket", journal = dir + "/journal", conf = dir + "/mpdscribble.conf"
        let service = try ChildProcess(
            TerminalDemoTests.binary,
            [
                "run", "--display", "none", "--input", "none", "--output", "null", "--music", dir + "/music",
                "--db", dir + "/lib.sqlite", "--socket", socket,
            ])
        defer {
            service.kill(SIGKILL)
            _ = service.wait()
        }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        func mpc(_ args: String...) throws {
            let r = try ChildProcess.run("mpc", ["-h", socket] + args)
            #expect(r.status == 0, "mpc \(args): \(r.stderr)")
        }
        try mpc("update", "--wait")
        try mpc("add", "/")

        // The global settings sit before any section (a [mpdscribble] section would be read as a scrobbler).
        try """
        host = \(socket)
        verbose = 3

        [last.fm]
        url = http://127.0.0.1:9/
        username = clickwheel-test
        password = not-a-password
        journal = \(journal)

        """.write(toFile: conf, atomically: true, encoding: .utf8)
        let scribble = try ChildProcess("/usr/bin/mpdscribble", ["--no-daemon", "--conf", conf, "--log", "-"])
        defer {
            scribble.kill(SIGKILL)
            _ = scribble.wait()
        }
        // It connects at once; it must still be running (a configuration it refuses makes it exit).
        usleep(1_500_000)
        #expect(kill(scribble.pid, 0) == 0, "mpdscribble exited")
        let channels = try ChildProcess.run("mpc", ["-h", socket, "channels"])
        #expect(channels.stdout == "mpdscribble\n", "mpdscribble subscribed to its channel: \(channels.stdout)")
        let love = try ChildProcess.run("mpc", ["-h", socket, "sendmessage", "mpdscribble", "love"])
        #expect(love.status == 0, "\(love.stderr)")

        try mpc("play")
        usleep(17_000_000)  // past half of 31 s by mpdscribble's own timer (it needs elapsed > 15)
        try mpc("stop")  // the song ends: mpdscribble submits it (and, with no network, keeps it)
        usleep(1_000_000)
        scribble.kill(SIGTERM)
        let exit = scribble.wait()
        #expect(exit.status == 0, "\(exit.stderr)")
        let text = (try? String(contentsOfFile: journal, encoding: .utf8)) ?? ""
        #expect(text.contains("a = Resume Tester\nt = Long Song 1\nb = Long Album\nn = 1\n"), "journal:\n\(text)")
        #expect(text.contains("l = 31\n"), "\(text)")
        #expect(text.components(separatedBy: "a = ").count == 2, "one listen: \(text)")
    }
}
