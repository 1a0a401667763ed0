import ClickWheelCore
import ClickWheelTestKit
import ControlServer
import Foundation
import NIOPosix
import Library
import Logging
import MPDProtocol
import Testing

/// The control socket against real clients (mpc, python-mpd2) and hostile input, over the real
/// SQLite library of the fixture MP3s.
@Suite(.serialized) struct ControlServerTests {
    @Test func greetsAndAnswersLikeMPD() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        #expect(c.response() == "OK MPD 0.23.5\n")
        #expect(c.roundTrip("ping") == "OK\n")
        #expect(c.roundTrip("p_ng") == "ACK [5@0] {} unknown command \"p_ng\"\n")
        let commands = c.roundTrip("commands")
        for name in ["status", "lsinfo", "listallinfo", "find", "search", "list", "count", "idle", "noidle"] where name != "noidle" {
            #expect(commands.contains("command: \(name)\n"), "\(name)")
        }
        #expect(c.roundTrip("status").contains("volume: 40\nrepeat: 0\nrandom: 0\nsingle: 0\nconsume: 0\npartition: default\nplaylist: 1\nplaylistlength: 0\nmixrampdb: 0\nstate: stop\nOK\n"))
        #expect(c.roundTrip("currentsong") == "OK\n")
    }

    @Test func mpcBrowsesListsAndSearchesTheLibrary() throws {
        let f = try ServerFixture()
        let mpc = { (args: [String]) throws -> String in try f.run("mpc", ["-h", f.socket] + args) }
        #expect(try mpc(["ls"]).split(separator: "\n").contains("Tag Formats"))
        #expect(try mpc(["ls", "Durations"]).split(separator: "\n").first == "Durations/01 CBR Info.mp3")
        #expect(try mpc(["listall"]).split(separator: "\n").count == 34)
        let artists = try mpc(["list", "artist"]).split(separator: "\n")
        #expect(artists.contains("Ärzte") && artists.contains("Anna Abbott") && artists.contains("Ben Barnes"))
        #expect(try mpc(["search", "title", "zä"]) == "Sorting/Ärzte - Zäh.mp3\n")
        #expect(try mpc(["find", "artist", "Ärzte"]) == "Sorting/Ärzte - Zäh.mp3\n")
        #expect(try mpc(["find", "artist", "ärzte"]).isEmpty)  // find is case-sensitive, as in MPD
        #expect(try mpc(["stats"]).contains("Songs:       34"))
        #expect(try mpc(["playlist", "Playlists/Mix.m3u"]).split(separator: "\n").count == 4)
        #expect(try mpc(["status"]).contains("volume: 40%"))
    }

    @Test func pythonMPD2ReadsTheSameLibrary() throws {
        let f = try ServerFixture()
        let script = """
            import mpd, json, sys
            c = mpd.MPDClient()
            c.connect(sys.argv[1])
            out = {
              "status": c.status()["state"],
              "songs": c.stats()["songs"],
              "durations": [s["file"] for s in c.lsinfo("Durations") if "file" in s],
              "genres": sorted(g["genre"] for g in c.list("genre")),
              "count": c.count("album", "Durations"),
              "first": c.find("(Album == 'Durations')", "sort", "Track", "window", "0:1")[0]["title"],
              "multi": c.find("title", "Σπίτι 🏠")[0]["artist"],
            }
            try:
                c.lsinfo("../etc")
            except mpd.CommandError as e:
                out["traversal"] = str(e)
            print(json.dumps(out))
            """
        let out = try f.run("python3", ["-c", script, f.socket])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        #expect(json["status"] as? String == "stop")
        #expect(json["songs"] as? String == "34")
        #expect((json["durations"] as? [String])?.count == 6)
        #expect((json["genres"] as? [String])?.contains("Shoegaze") == true)
        #expect((json["count"] as? [String: String])?["songs"] == "6")
        #expect(json["first"] as? String == "CBR Info")
        #expect(json["multi"] as? [String] == ["Αστέρια", "Zoë Lefèvre"])
        #expect((json["traversal"] as? String)?.contains("[50@0] {lsinfo} No such directory") == true)
    }

    @Test func pathsOutsideTheMusicFolderAreRefused() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        for path in ["..", "/etc", "Durations/../..", "./Durations"] {
            #expect(c.roundTrip("lsinfo \"\(path)\"") == "ACK [50@0] {lsinfo} No such directory\n", "\(path)")
            #expect(c.roundTrip("listall \"\(path)\"") == "ACK [50@0] {listall} No such directory\n", "\(path)")
        }
    }

    @Test func idleClientsHearAboutChanges() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        c.send("idle database playlist\n")
        usleep(100_000)
        f.server.notify([.player])  // not asked for: nothing yet
        f.server.notify([.database, .update])
        #expect(c.response() == "changed: database\nOK\n")
        // A stray noidle gets no reply; the next command does.
        #expect(c.roundTrip("noidle\nping") == "OK\n")
    }

    @Test func garbageOverlongLinesAndBadBytesHurtOnlyTheirSender() throws {
        let f = try ServerFixture()
        let good = try RawClient(f.socket)
        _ = good.response()
        let bad = try RawClient(f.socket)
        _ = bad.response()
        #expect(bad.roundTrip("lsinfo \"\u{FF}\u{FE}\"").hasPrefix("ACK [50@0]"))
        bad.send([0x6C, 0x73, 0x69, 0x6E, 0x66, 0x6F, 0x20, 0x22, 0xFF, 0xC3, 0x22, 0x0A])  // invalid UTF-8 path
        #expect(bad.response() == "ACK [50@0] {lsinfo} No such directory\n")
        bad.send(String(repeating: "x", count: 9000))  // no newline within 8 KiB: dropped
        #expect(bad.isClosed())
        #expect(good.roundTrip("ping") == "OK\n")
        let rude = try RawClient(f.socket)
        _ = rude.response()
        rude.send("GET / HTTP/1.0\n")
        #expect(rude.isClosed())
        #expect(good.roundTrip("status").hasSuffix("OK\n"))
    }

    @Test func theClientBeyondTheLimitIsClosedWithoutAGreeting() throws {
        var limits = ControlServer.Limits()
        limits.maxConnections = 20
        let f = try ServerFixture(limits: limits)
        var clients: [RawClient] = []
        for _ in 0..<20 {
            let c = try RawClient(f.socket)
            #expect(c.response() == "OK MPD 0.23.5\n")
            clients.append(c)
        }
        let extra = try RawClient(f.socket)
        #expect(extra.isClosed())
        #expect(clients[7].roundTrip("ping") == "OK\n")
        clients.removeLast()
        usleep(200_000)
        let again = try RawClient(f.socket)
        #expect(again.response() == "OK MPD 0.23.5\n")
    }

    @Test func silentClientsTimeOutButIdleOnesDoNot() throws {
        var limits = ControlServer.Limits()
        limits.connectionTimeoutSeconds = 1
        let f = try ServerFixture(limits: limits)
        let silent = try RawClient(f.socket)
        _ = silent.response()
        let idle = try RawClient(f.socket)
        _ = idle.response()
        idle.send("idle\n")
        #expect(silent.isClosed())  // read blocks until the server closes it, about a second later
        f.server.notify([.mixer])
        #expect(idle.response() == "changed: mixer\nOK\n")
    }

    @Test func aStaleSocketFileIsReplacedButALiveServerIsNot() throws {
        let f = try ServerFixture()
        var logger = Logger(label: "t")
        logger.logLevel = .critical
        let second = ControlServer(
            backend: ControlCommands(
                catalog: .init(ServerFixture.pool), playlists: StoredPlaylists(ServerFixture.pool), player: ServerFixture.makeLoop().loop,
                musicFolder: ServerFixture.music),
            eventLoop: MultiThreadedEventLoopGroup.singleton.next(), logger: logger)
        #expect(throws: ControlServerError.self) { try second.start(socketPath: f.socket) }
        let stale = f.dir.appendingPathComponent("stale").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in stale.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)  // the file stays, nobody listens
        try second.start(socketPath: stale)
        let c = try RawClient(stale)
        #expect(c.response() == "OK MPD 0.23.5\n")
        second.stop()
        #expect(!FileManager.default.fileExists(atPath: stale))
    }
}
