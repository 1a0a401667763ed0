import ClickWheelTestKit
import Foundation
import Testing

/// What the device counts, seen by real MPD clients through the real `clickwheel run`: a song played
/// through gets its `playCount` sticker and enters Recently Played (mpc); a rating set by
/// python-mpd2 shows on the device's Now Playing and moves My Top Rated.
@Suite(.serialized) struct ListeningHistoryTests {
    static let song = "Durations/05 MPEG-2 22050 mono.mp3"

    @Test func aSongPlayedThroughIsCountedForClients() throws {
        let s = try ControlSocketServiceTests.Service()
        _ = try s.mpc("update", "--wait")
        #expect(try s.mpc("lsplaylists").contains("Recently Played\n"))
        #expect(try s.mpc("-f", "%file%", "playlist", "Recently Played").isEmpty)
        _ = try s.mpc("add", Self.song)
        // A client waiting for sticker changes hears the play being counted.
        let watcher = try RawClient(s.socket)
        #expect(watcher.response().hasPrefix("OK MPD "))
        watcher.send("idle sticker\n")
        _ = try s.mpc("play")
        // The song is short: it plays to its end on the null output (real time), and stops.
        #expect(watcher.response() == "changed: sticker\nOK\n")
        let counted = try s.waitFor(["sticker", Self.song, "get", "playCount"], seconds: 30) { $0 == "playCount=1\n" }
        #expect(counted == "playCount=1\n")
        let stickers = try s.mpc("sticker", Self.song, "list")
        #expect(stickers.contains("lastPlayed="), "\(stickers)")
        #expect(try s.mpc("-f", "%file%", "playlist", "Recently Played") == Self.song + "\n")
        #expect(try s.mpc("-f", "%file%", "playlist", "Top 25 Most Played") == Self.song + "\n")
        #expect(!(try s.mpc("-f", "%file%", "playlist", "Never Played")).contains(Self.song))
        let found = try s.mpc("sticker", "", "find", "playCount")
        #expect(found.contains(Self.song), "\(found)")
        // The counts are the device's.
        let refused = try ChildProcess.run("mpc", ["-h", s.socket, "sticker", Self.song, "set", "playCount", "9"])
        #expect(refused.status != 0 && refused.stderr.contains("counted by the device"), "\(refused.stderr)")
    }

    @Test func aClientsRatingShowsOnNowPlayingAndInMyTopRated() throws {
        let s = try ControlSocketServiceTests.Service()
        _ = try s.mpc("update", "--wait")
        _ = try s.mpc("add", Self.song)
        _ = try s.mpc("play")
        _ = try s.mpc("pause")
        let script = """
            import mpd, sys
            c = mpd.MPDClient()
            c.connect(sys.argv[1])
            c.sticker_set("song", sys.argv[2], "rating", "7")
            print(c.sticker_get("song", sys.argv[2], "rating"))
            print(c.listplaylist("My Top Rated"))
            c.sticker_set("song", sys.argv[2], "rating", "8")
            print(c.listplaylist("My Top Rated"))
            """
        let py = try ChildProcess.run("python3", ["-c", script, s.socket, Self.song])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout == "7\n[]\n['\(Self.song)']\n", "3½ stars is below My Top Rated; 4 is in it")
        // To Now Playing (the main menu's last row) and its rating stop (four centre clicks).
        #expect(try s.ctl("wheel", "10").status == 0)
        #expect(try s.ctl("press", "select").status == 0)
        for _ in 0..<4 { #expect(try s.ctl("press", "select").status == 0) }
        let screen = try s.ctl("send", "screen").stdout
        let rows = screen.split(separator: "\n").filter { $0.hasPrefix("row: ") }.map { String($0.dropFirst(5)) }
        #expect(screen.contains("title: Now Playing\n"), "\(screen)")
        #expect(rows.last == "Rating ★★★★·        ", "\(rows)")
        // Down one star on the wheel: the client reads 6.
        #expect(try s.ctl("send", "wheel -1").status == 0)
        let rating = try s.waitFor(["sticker", Self.song, "get", "rating"]) { $0 == "rating=6\n" }
        #expect(rating == "rating=6\n")
    }
}
