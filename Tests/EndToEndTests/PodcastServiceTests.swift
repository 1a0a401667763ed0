import ClickWheelTestKit
import Foundation
import Testing

/// Podcast subscriptions through the real `clickwheel run` (`--output null`) and a real HTTP server on
/// 127.0.0.1 (Python's http.server, `Podcasts/feed_server.py`) serving a feed of untagged MP3 episodes made
/// by sox and lame, with an ETag (304 when unchanged), and an HTML page where a feed should be.
@Suite(.serialized) struct PodcastServiceTests {
    static let toolsInstalled = ["/usr/bin/lame", "/usr/bin/sox", "/usr/bin/mpc"].allSatisfy {
        FileManager.default.fileExists(atPath: $0)
    }

    /// The host: a folder with the feed and its episodes, and the server over it.
    final class Host {
        let dir: String
        let server: ChildProcess
        let port: Int

        init(_ dir: String) throws {
            self.dir = dir
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            // Four episodes of a tenth of a second: keep 3 downloads the three newest.
            let wav = dir + "/tone.wav"
            #expect(try ChildProcess.run("/usr/bin/sox", ["-n", "-r", "22050", "-c", "1", wav, "synth", "0.1", "sine", "440"]).status == 0)
            var items = ""
            for n in 1...4 {
                #expect(try ChildProcess.run("/usr/bin/lame", ["--quiet", "-b", "32", wav, dir + "/ep\(n).mp3"]).status == 0)
                let size = (try FileManager.default.attributesOfItem(atPath: dir + "/ep\(n).mp3")[.size] as? Int) ?? 0
                items += """
                    <item><title>Episode \(n)</title><guid>ep-\(n)</guid>
                    <pubDate>Mon, 0\(n) Jun 2026 08:00:00 GMT</pubDate>
                    <description>Notes of episode \(n).</description>
                    <enclosure url="http://127.0.0.1:PORT/ep\(n).mp3" length="\(size)" type="audio/mpeg"/></item>

                    """
            }
            let feedTemplate = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
                <title>Test Show</title><itunes:author>Tester</itunes:author><description>A show for tests.</description>
                \(items)</channel></rss>
                """
            let script = TerminalDemoTests.root.appendingPathComponent("Tests/EndToEndTests/Podcasts/feed_server.py").path
            server = try ChildProcess("/usr/bin/env", ["python3", script, dir], output: .discard)
            var port = 0
            #expect(FullServiceTests.poll(seconds: 20) {
                port = Int((try? String(contentsOfFile: dir + "/port", encoding: .utf8)) ?? "") ?? 0
                return port > 0
            }, "the HTTP server started")
            self.port = port
            try feedTemplate.replacingOccurrences(of: "PORT", with: String(port))
                .write(toFile: dir + "/feed.xml", atomically: true, encoding: .utf8)
        }

        deinit {
            server.kill(SIGKILL)
            _ = server.wait()
        }

        var url: String { "http://127.0.0.1:\(port)" }

        /// The requests served, one `GET PATH STATUS` each.
        func requests() -> [String] {
            ((try? String(contentsOfFile: dir + "/requests.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    final class Service {
        let dir: String
        let music: String
        let socket: String
        let child: ChildProcess

        init(_ dir: String, config: String? = nil) throws {
            self.dir = dir
            music = dir + "/music"
            socket = dir + "/socket"
            try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
            var arguments = ["run", "--display", "none", "--input", "none", "--output", "null", "--music", music, "--db",
                             dir + "/lib.sqlite", "--socket", socket]
            if let config {
                try config.write(toFile: dir + "/clickwheel.yaml", atomically: true, encoding: .utf8)
                arguments += ["--config", dir + "/clickwheel.yaml"]
            }
            child = try ChildProcess(TerminalDemoTests.binary, arguments)
            #expect(FullServiceTests.poll(seconds: 30) { FileManager.default.fileExists(atPath: socket) })
        }

        deinit {
            child.kill(SIGKILL)
            _ = child.wait()
        }

        /// One command's answer over a fresh connection (the lines before `OK`, or the `ACK` line).
        func command(_ line: String) -> [String] {
            guard let c = try? RawClient(socket) else { return ["no connection"] }
            _ = c.response()
            return c.roundTrip(line).split(separator: "\n").map(String.init).filter { $0 != "OK" }
        }

        /// `podcastlist` as one dictionary per feed.
        func feeds() -> [[String: String]] {
            var feeds: [[String: String]] = []
            for line in command("podcastlist") {
                guard let colon = line.range(of: ": ") else { continue }
                let key = String(line[..<colon.lowerBound]), value = String(line[colon.upperBound...])
                if key == "feed" { feeds.append([:]) }
                if !feeds.isEmpty { feeds[feeds.count - 1][key] = value }
            }
            return feeds
        }

        @discardableResult
        func mpc(_ args: String...) throws -> String { try ChildProcess.run("/usr/bin/mpc", ["-h", socket] + args).stdout }
    }

    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func subscribeDownloadIndexUpdateFailAndDelete() throws {
        let root = "/tmp/cw-podwire-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let host = try Host(root + "/host")
        let s = try Service(root + "/service")

        // Bad input: not a URL, no such subscription (MPD's ACK conventions).
        #expect(s.command("podcastadd notaurl").first?.hasPrefix("ACK [2@0] {podcastadd}") == true)
        #expect(s.command("podcastdelete 99").first?.hasPrefix("ACK [50@0] {podcastdelete}") == true)
        #expect(s.command("commands").contains("command: podcastupdate"))

        // Subscribing fetches the feed, downloads the three newest episodes and indexes them; a client
        // waiting in `idle podcast` hears of it (a bare `idle` does not: MPD clients never see the name).
        let idle = try RawClient(s.socket)
        _ = idle.response()
        idle.send("idle podcast\n")
        let answer = s.command("podcastadd \(host.url)/feed.xml")
        #expect(answer == ["id: 1"], "\(answer)")
        #expect(idle.response() == "changed: podcast\nOK\n")
        let downloaded = FullServiceTests.poll(seconds: 60) {
            (try? s.mpc("ls", "Podcasts/Test Show"))?.split(separator: "\n").count == 3
        }
        #expect(downloaded, "mpc ls: \((try? s.mpc("ls", "Podcasts/Test Show")) ?? "none"); log: \(host.requests())")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: s.music + "/Podcasts/Test Show")) ?? []
        #expect(files.filter { $0.hasSuffix(".mp3") }.count == 3 && !files.contains { $0.hasSuffix(".part") }, "\(files)")
        #expect(!host.requests().contains("GET /ep1.mp3 200"), "the oldest is not downloaded")
        var feed = s.feeds().first ?? [:]
        #expect(feed["feed"] == "\(host.url)/feed.xml" && feed["id"] == "1" && feed["title"] == "Test Show")
        #expect(feed["episodes"] == "4" && feed["error"] == nil && feed["updated"]?.hasSuffix("Z") == true, "\(feed)")
        #expect(FullServiceTests.poll(seconds: 10) { s.feeds().first?["new"] == "3" }, "\(s.feeds())")

        // The indexer gave the untagged files the feed's titles and show.
        let titles = try s.mpc("-f", "%title% @ %album% @ %date%", "ls", "Podcasts/Test Show")
        #expect(titles.contains("Episode 4 @ Test Show @ 2026-06-04"), "\(titles)")

        // Again: one conditional request, a 304, nothing downloaded.
        let before = host.requests().count
        #expect(s.command("podcastupdate 1") == [])
        #expect(FullServiceTests.poll(seconds: 20) { host.requests().count > before }, "\(host.requests())")
        #expect(Array(host.requests().dropFirst(before)) == ["GET /feed.xml 304"], "\(host.requests())")

        // On the device: Podcasts → Refresh (the first row) fetches again.
        let walk = ["wheel -10", "wheel 1", "press select", "screen"].map { s.command($0) }
        #expect(walk[3].contains { $0.hasPrefix("row: ") && $0.contains("Refresh") }, "\(walk[3])")
        let beforeRefresh = host.requests().count
        #expect(s.command("press select") == [])
        #expect(FullServiceTests.poll(seconds: 20) { host.requests().count > beforeRefresh }, "\(host.requests())")
        #expect(Array(host.requests().dropFirst(beforeRefresh)) == ["GET /feed.xml 304"], "\(host.requests())")

        // An HTML page where a feed should be: an error line; the other feed keeps everything.
        let bad = s.command("podcastadd \(host.url)/page.xml")
        #expect(bad == ["id: 2"], "\(bad)")
        #expect(FullServiceTests.poll(seconds: 20) { s.feeds().count == 2 && s.feeds()[1]["error"] != nil }, "\(s.feeds())")
        feed = s.feeds()[0]
        #expect(feed["episodes"] == "4" && feed["error"] == nil)
        print("html feed: \(s.feeds()[1]["error"] ?? "")")

        // Deleted: gone from the list; its files stay in the music folder.
        #expect(s.command("podcastdelete \(host.url)/page.xml") == [])
        #expect(s.feeds().map { $0["feed"] } == ["\(host.url)/feed.xml"])
        #expect(s.command("podcastdelete 1") == [])
        #expect(s.feeds().isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: s.music + "/Podcasts/Test Show")) ?? []).count == 3)

        // OPML: `clickwheel podcasts import` subscribes beside the running service, `export` lists it.
        let opml = root + "/subscriptions.opml"
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>Phone</title></head><body>
            <outline type="rss" text="Test Show" xmlUrl="\(host.url)/feed.xml"/>
            <outline type="rss" text="Bad" xmlUrl="ftp://127.0.0.1/x"/></body></opml>
            """.write(toFile: opml, atomically: true, encoding: .utf8)
        let db = s.dir + "/lib.sqlite"
        let imported = try ChildProcess.run(TerminalDemoTests.binary, ["podcasts", "import", "--db", db, opml])
        #expect(imported.status == 0 && imported.stdout.hasPrefix("subscribed\t") && imported.stdout.contains("\t\(host.url)/feed.xml\n"), "\(imported)")
        #expect(imported.stdout.contains("1 of 2 feeds subscribed"), "\(imported.stdout)")
        #expect(s.feeds().map { $0["feed"] } == ["\(host.url)/feed.xml"])
        let exported = try ChildProcess.run(TerminalDemoTests.binary, ["podcasts", "export", "--db", db, "-"])
        #expect(exported.status == 0 && exported.stdout.contains("xmlUrl=\"\(host.url)/feed.xml\""), "\(exported)")
    }

    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func configuredFeedAndPlayedEpisodesDeleted() throws {
        let root = "/tmp/cw-podwire-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let host = try Host(root + "/host")
        // The episodes are from June 2026: older than a day.
        let s = try Service(root + "/service", config: """
            podcasts:
              feeds: [\(host.url)/feed.xml]
              keep: 2
              delete_played_after_days: 1
            """)
        let folder = s.music + "/Podcasts/Test Show"
        func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }
        #expect(FullServiceTests.poll(seconds: 60) {
            (try? s.mpc("ls", "Podcasts/Test Show"))?.split(separator: "\n").count == 2
        }, "the configured feed's two newest: \(files())")
        #expect(s.feeds().first?["feed"] == "\(host.url)/feed.xml")

        // Episode 4 played to its end (a tenth of a second on the null output) two days ago: deleted at
        // the next fetch; Episode 3, unplayed, stays; neither is downloaded again.
        let listed = try s.mpc("-f", "%file%", "ls", "Podcasts/Test Show").split(separator: "\n").map(String.init)
        let newest = try #require(listed.last { $0.contains("Episode 4") })
        try s.mpc("add", newest)
        try s.mpc("play")
        #expect(FullServiceTests.poll(seconds: 20) {
            (try? s.mpc("sticker", newest, "get", "playCount"))?.contains("playCount=1") == true
        }, "played")
        // The setting counts from the play: finished, then made two days old (PodcastDeviceTests.sql).
        #expect(FullServiceTests.poll(seconds: 20) {
            (try? PodcastDeviceTests.sql(s, "SELECT count(*) FROM play_state WHERE played = 1")) == ["1"]
        }, "finished")
        _ = try PodcastDeviceTests.sql(s, "UPDATE play_state SET last_played = last_played - 2 * 86400")
        #expect(s.command("podcastupdate") == [])
        #expect(FullServiceTests.poll(seconds: 20) { files().count == 1 }, "\(files())")
        #expect(files().first?.contains("Episode 3") == true, "\(files())")
        #expect(host.requests().filter { $0.hasPrefix("GET /ep4.mp3") }.count == 1, "not downloaded again: \(host.requests())")
    }
}
