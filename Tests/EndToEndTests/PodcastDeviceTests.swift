import ClickWheelTestKit
import Foundation
import Testing

/// Podcasts on the device through the real `clickwheel run` (`--output null`) and a real HTTP server on
/// 127.0.0.1 (`Podcasts/held_feed_server.py`, which can hold an episode half-sent for as long as the test
/// needs): a download's progress under its show on the screen (the socket's `screen` command), not
/// playable until complete; episodes newest first with the New dot, gone once played; played episodes
/// deleted after `delete_played_after_days` (and only the service's downloads), nothing deleted with it
/// off. The database is aged with Python's sqlite3 (a real writer beside the service) to make a play
/// days old.
@Suite(.serialized) struct PodcastDeviceTests {
    static let toolsInstalled = PodcastServiceTests.toolsInstalled

    /// The host: episodes 1…4 (a tenth of a second each), the feed listing those asked for.
    final class Host {
        let dir: String
        let server: ChildProcess
        let port: Int

        init(_ dir: String) throws {
            self.dir = dir
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let wav = dir + "/tone.wav"
            #expect(try ChildProcess.run("/usr/bin/sox", ["-n", "-r", "22050", "-c", "1", wav, "synth", "0.1", "sine", "440"]).status == 0)
            for n in 1...4 {
                #expect(try ChildProcess.run("/usr/bin/lame", ["--quiet", "-b", "32", wav, dir + "/ep\(n).mp3"]).status == 0)
            }
            let script = TerminalDemoTests.root.appendingPathComponent("Tests/EndToEndTests/Podcasts/held_feed_server.py").path
            server = try ChildProcess("/usr/bin/env", ["python3", script, dir], output: .discard)
            var port = 0
            #expect(FullServiceTests.poll(seconds: 20) {
                port = Int((try? String(contentsOfFile: dir + "/port", encoding: .utf8)) ?? "") ?? 0
                return port > 0
            }, "the HTTP server started")
            self.port = port
        }

        deinit {
            server.kill(SIGKILL)
            _ = server.wait()
        }

        var url: String { "http://127.0.0.1:\(port)" }

        /// Writes the feed with `episodes` (episode n published on June n, 2026).
        func list(_ episodes: [Int]) throws {
            var items = ""
            for n in episodes {
                let size = (try FileManager.default.attributesOfItem(atPath: dir + "/ep\(n).mp3")[.size] as? Int) ?? 0
                items += """
                    <item><title>Episode \(n)</title><guid>ep-\(n)</guid>
                    <pubDate>Mon, 0\(n) Jun 2026 08:00:00 GMT</pubDate>
                    <enclosure url="\(url)/ep\(n).mp3" length="\(size)" type="audio/mpeg"/></item>

                    """
            }
            try """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Test Show</title><description>A show for tests.</description>
                \(items)</channel></rss>
                """.write(toFile: dir + "/feed.xml", atomically: true, encoding: .utf8)
        }

        /// Holds episode `n` half-sent (true) or lets it go on (false).
        func hold(_ n: Int, _ on: Bool) {
            let path = dir + "/hold-ep\(n).mp3"
            if on { _ = FileManager.default.createFile(atPath: path, contents: Data()) } else { try? FileManager.default.removeItem(atPath: path) }
        }

        func requests() -> [String] {
            ((try? String(contentsOfFile: dir + "/requests.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    typealias Service = PodcastServiceTests.Service

    /// Runs `sql` on the service's database with Python's sqlite3; the rows, one per line, `|` between columns.
    static func sql(_ s: Service, _ sql: String) throws -> [String] {
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], timeout=30)
            rows = c.execute(sys.argv[2]).fetchall()
            c.commit()
            for r in rows: print("|".join(str(v) for v in r))
            """
        let r = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, s.dir + "/lib.sqlite", sql])
        #expect(r.status == 0, "\(sql): \(r)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// The screen's rows (`row:` lines; the first is the title).
    static func rows(_ s: Service) -> [String] {
        s.command("screen").filter { $0.hasPrefix("row: ") }.map { String($0.dropFirst(5)) }
    }

    /// The percentage at the end of `row`, when it ends in one.
    static func percent(_ row: String) -> Int? {
        guard row.hasSuffix("%") else { return nil }
        return Int(row.dropLast().split(separator: " ").last ?? "")
    }

    /// Waits for feed refreshes to finish: two `podcastupdate`s one after the other; a subscription is
    /// refreshed by one task at a time, so the second fetch starts only after the first refresh (its
    /// downloads, its deletions) ended.
    static func refreshTwice(_ s: Service, _ host: Host) {
        for round in 1...2 {
            let before = host.requests().filter { $0.hasPrefix("GET /feed.xml") }.count
            #expect(s.command("podcastupdate") == [])
            #expect(FullServiceTests.poll(seconds: 30) {
                host.requests().filter { $0.hasPrefix("GET /feed.xml") }.count > before
            }, "refresh \(round): \(host.requests())")
        }
    }

    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func downloadProgressNewMarksAndTheirEnd() throws {
        let root = "/tmp/cw-poddevice-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let host = try Host(root + "/host")
        try host.list([1])
        let s = try Service(root + "/service")
        #expect(s.command("podcastadd \(host.url)/feed.xml") == ["id: 1"])
        #expect(FullServiceTests.poll(seconds: 60) {
            (try? s.mpc("ls", "Podcasts/Test Show"))?.split(separator: "\n").count == 1
        }, "episode 1 indexed: \(host.requests())")

        // Episode 2 appears in the feed and is held half-sent.
        host.hold(2, true)
        try host.list([1, 2])
        #expect(s.command("podcastupdate 1") == [])

        // Podcasts: the show, with the New dot (episode 1 is unplayed); its episodes: the download on top
        // with its progress, episode 1 below it.
        _ = s.command("screen podcasts")
        #expect(FullServiceTests.poll(seconds: 10) {
            Self.rows(s).contains { $0.hasPrefix("•Test Show") || $0.hasPrefix(">Test Show") }
        }, "\(Self.rows(s))")
        _ = ["wheel -10", "wheel 1"].map { s.command($0) }
        #expect(Self.rows(s).contains { $0.hasPrefix(">Test Show") }, "\(Self.rows(s))")
        #expect(s.command("press select") == [])
        var seen: [String] = []
        let progress = FullServiceTests.poll(seconds: 30) {
            seen = Self.rows(s)
            return seen.count >= 3 && seen[1].contains("Episode 2") && (Self.percent(seen[1]).map { $0 > 0 && $0 < 100 } ?? false)
        }
        #expect(progress, "the download's row with its progress: \(seen); \(host.requests())")

        // Not playable: selecting it plays nothing and stays on the list.
        #expect(s.command("wheel -10") == [])
        seen = Self.rows(s)
        #expect(seen.count >= 3 && seen[1].hasPrefix(">Episode 2") && seen[2].hasPrefix("•Episode 1"), "\(seen)")
        #expect(s.command("press select") == [])
        let status = try s.mpc("status")
        #expect(!status.contains("[playing]"), "\(status)")
        #expect(s.command("screen").contains("menu: podcasts.episodes"), "\(s.command("screen"))")

        // Complete: the row becomes the indexed episode, newest first, with its dot.
        host.hold(2, false)
        #expect(FullServiceTests.poll(seconds: 60) {
            seen = Self.rows(s)
            return seen.count >= 3 && seen[1].contains("Episode 2") && Self.percent(seen[1]) == nil && seen[2].contains("Episode 1")
        }, "\(seen)")
        #expect(seen[2].hasPrefix("•Episode 1"), "\(seen)")
        #expect(try s.mpc("ls", "Podcasts/Test Show").split(separator: "\n").count == 2)

        // Episode 1 played to its end (a tenth of a second on the null output): its dot goes.
        _ = ["wheel 1", "press select"].map { s.command($0) }
        let episode1 = try #require(try s.mpc("-f", "%file%", "ls", "Podcasts/Test Show").split(separator: "\n").map(String.init).first { $0.contains("Episode 1") })
        #expect(FullServiceTests.poll(seconds: 20) {
            (try? Self.sql(s, "SELECT p.played FROM play_state p JOIN tracks t ON t.id = p.track_id WHERE t.path = '\(episode1)'")) == ["1"]
        }, "episode 1 finished")
        // Back to the list when the selection opened Now Playing; the wheel moves the cursor off episode 1.
        if !s.command("screen").contains("menu: podcasts.episodes") { _ = s.command("press menu") }
        #expect(s.command("screen").contains("menu: podcasts.episodes"), "\(s.command("screen"))")
        _ = s.command("wheel -10")
        #expect(FullServiceTests.poll(seconds: 10) {
            seen = Self.rows(s)
            return seen.count >= 3 && seen[2].hasPrefix(" Episode 1")
        }, "no dot on the played episode: \(seen)")
        #expect(seen[1].hasPrefix(">Episode 2"), "\(seen)")
        // The show keeps its dot for episode 2; `podcastlist` counts one new.
        #expect(s.feeds().first?["new"] == "1", "\(s.feeds())")
    }

    /// Plays the newest downloaded episode and a file copied by hand into the show's folder to their
    /// end, ages both plays by two days, refreshes; returns the files left in the folder.
    func playAgeAndRefresh(deleteAfterDays: Int?) throws -> (files: [String], library: Int) {
        let root = "/tmp/cw-poddevice-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let host = try Host(root + "/host")
        try host.list([3, 4])
        let folder = root + "/service/music/Podcasts/Test Show"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: host.dir + "/ep1.mp3", toPath: folder + "/My Own Copy.mp3")
        let setting = deleteAfterDays.map { "\n  delete_played_after_days: \($0)" } ?? ""
        let s = try Service(root + "/service", config: "podcasts:\n  feeds: [\(host.url)/feed.xml]\n  keep: 2" + setting)
        #expect(FullServiceTests.poll(seconds: 60) {
            (try? s.mpc("ls", "Podcasts/Test Show"))?.split(separator: "\n").count == 3
        }, "two downloads and the copy indexed: \(host.requests())")
        let listed = try s.mpc("-f", "%file%", "ls", "Podcasts/Test Show").split(separator: "\n").map(String.init)
        let newest = try #require(listed.first { $0.contains("Episode 4") })
        let own = try #require(listed.first { $0.contains("My Own Copy") })
        try s.mpc("add", newest)
        try s.mpc("add", own)
        try s.mpc("play")
        #expect(FullServiceTests.poll(seconds: 30) {
            (try? Self.sql(s, "SELECT count(*) FROM play_state WHERE played = 1 AND last_played IS NOT NULL")) == ["2"]
        }, "both played to their end")
        _ = try Self.sql(s, "UPDATE play_state SET last_played = last_played - 2 * 86400")
        Self.refreshTwice(s, host)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        // The library follows the folder (its rescan after a deletion).
        var library = 0
        _ = FullServiceTests.poll(seconds: 30) {
            library = (try? s.mpc("ls", "Podcasts/Test Show"))?.split(separator: "\n").count ?? -1
            return library == files.count
        }
        #expect(host.requests().filter { $0.hasPrefix("GET /ep4.mp3") }.count == 1, "not downloaded again: \(host.requests())")
        return (files, library)
    }

    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func playedEpisodesOlderThanTheSettingAreDeleted() throws {
        let (files, library) = try playAgeAndRefresh(deleteAfterDays: 1)
        #expect(files.count == 2 && files.contains("My Own Copy.mp3") && files.contains { $0.contains("Episode 3") }, "\(files)")
        #expect(library == 2, "the library forgot the deleted episode")
    }

    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func playedEpisodesStayWithTheSettingOff() throws {
        let (files, library) = try playAgeAndRefresh(deleteAfterDays: nil)
        #expect(files.count == 3 && files.contains { $0.contains("Episode 4") }, "\(files)")
        #expect(library == 3)
    }

    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func playedEpisodesPlayedRecentlyStay() throws {
        let (files, _) = try playAgeAndRefresh(deleteAfterDays: 3)
        #expect(files.count == 3, "played two days ago, the setting says three: \(files)")
    }
}
