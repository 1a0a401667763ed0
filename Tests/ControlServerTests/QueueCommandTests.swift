import ClickWheelCore
import ClickWheelTestKit
import ControlServer
import Foundation
import Testing

/// The queue and playback commands against the real engine over the fixture library: MPD 0.23.12's
/// answers (reference transcripts §4 and §9, replayed on our own files), then real mpc and python-mpd2.
@Suite(.serialized) struct QueueCommandTests {
    /// The `Id:` values of a response, in order.
    static func ids(_ response: String) -> [Int] {
        response.split(separator: "\n").compactMap { $0.hasPrefix("Id: ") ? Int($0.dropFirst(4)) : nil }
    }

    /// Whether `status` says `elapsed` is `seconds`, or a little past it: the engine loop's clock is real,
    /// and while playing the time runs on between the command and the `status` (more so in a sanitizer
    /// build), never past the short fixture track.
    static func near(_ status: String, _ seconds: Double, within slack: Double = 0.2) -> Bool {
        guard let elapsed = field(status, "elapsed").flatMap(Double.init) else { return false }
        return elapsed >= seconds && elapsed <= seconds + slack
    }

    static func field(_ response: String, _ key: String) -> String? {
        response.split(separator: "\n").first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    @Test func queueEditingAnswersAsMPDDoes() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        #expect(Self.field(c.roundTrip("status"), "playlist") == "1")
        #expect(c.roundTrip("add \"Durations\"") == "OK\n")
        var status = c.roundTrip("status")
        #expect(Self.field(status, "playlist") == "2" && Self.field(status, "playlistlength") == "6")
        #expect(c.roundTrip("addid \"Sorting/10cc - Ten.mp3\"") == "Id: 7\nOK\n")
        #expect(c.roundTrip("addid \"Sorting/2 Unlimited - Two.mp3\" 0") == "Id: 8\nOK\n")
        #expect(c.roundTrip("addid \"Sorting/10cc - Ten.mp3\" +0") == "ACK [55@0] {addid} No current song\n")
        #expect(c.roundTrip("addid \"Sorting/10cc - Ten.mp3\" -0") == "ACK [55@0] {addid} No current song\n")
        #expect(c.roundTrip("addid \"Sorting/10cc - Ten.mp3\" 99") == "ACK [2@0] {addid} Number too large: 99\n")
        #expect(c.roundTrip("addid \"Durations\"") == "ACK [50@0] {addid} No such song\n")
        #expect(c.roundTrip("add \"Nope\"") == "ACK [50@0] {add} No such directory\n")
        #expect(c.roundTrip("add \"../etc\"") == "ACK [50@0] {add} No such directory\n")
        #expect(Self.ids(c.roundTrip("playlistid")) == [8, 1, 2, 3, 4, 5, 6, 7])
        #expect(c.roundTrip("playlistid 999") == "ACK [50@0] {playlistid} No such song\n")
        #expect(Self.ids(c.roundTrip("playlistid 3")) == [3])
        #expect(Self.ids(c.roundTrip("playlistinfo 1:3")) == [1, 2])
        #expect(c.roundTrip("playlistinfo 2:2") == "OK\n")
        #expect(c.roundTrip("playlistinfo 99") == "ACK [2@0] {playlistinfo} Bad song index\n")

        // Relative positions once something is current (MPD keeps the song current after stop).
        #expect(c.roundTrip("play 1") == "OK\n")
        #expect(c.roundTrip("stop") == "OK\n")
        status = c.roundTrip("status")
        #expect(Self.field(status, "state") == "stop" && Self.field(status, "song") == "1" && Self.field(status, "songid") == "1")
        #expect(c.roundTrip("addid \"Sorting/A Tribe - Bonita.mp3\" +0") == "Id: 9\nOK\n")
        #expect(c.roundTrip("addid \"Sorting/Ärzte - Zäh.mp3\" -0") == "Id: 10\nOK\n")
        #expect(Self.ids(c.roundTrip("playlistid")) == [8, 10, 1, 9, 2, 3, 4, 5, 6, 7])
        #expect(Self.field(c.roundTrip("status"), "songid") == "1")

        // plchanges lists exactly what moved since a version.
        let before = Int(Self.field(c.roundTrip("status"), "playlist")!)!
        #expect(c.roundTrip("plchangesposid \(before)") == "OK\n")
        #expect(c.roundTrip("swap 0 1") == "OK\n")
        #expect(c.roundTrip("plchangesposid \(before)") == "cpos: 0\nId: 10\ncpos: 1\nId: 8\nOK\n")
        #expect(Self.ids(c.roundTrip("plchanges \(before) 1:2")) == [8])

        // delete / deleteid / move / moveid / swapid.
        #expect(c.roundTrip("delete 0") == "OK\n")
        #expect(c.roundTrip("delete 99") == "ACK [2@0] {delete} Bad song index\n")
        #expect(c.roundTrip("delete 6:99") == "OK\n")
        #expect(Self.ids(c.roundTrip("playlistid")) == [8, 1, 9, 2, 3, 4])
        #expect(c.roundTrip("deleteid 9999") == "ACK [50@0] {deleteid} No such song\n")
        #expect(c.roundTrip("deleteid 9") == "OK\n")
        #expect(c.roundTrip("move 0 3") == "OK\n")
        #expect(c.roundTrip("move 1:3 0") == "OK\n")
        #expect(c.roundTrip("move 0 99") == "ACK [2@0] {move} Number too large: 99\n")
        #expect(c.roundTrip("moveid 8 0") == "OK\n")
        #expect(c.roundTrip("swapid 3 4") == "OK\n")
        // [8 1 2 3 4] → move 0 3 → [1 2 3 8 4] → move 1:3 0 → [2 3 1 8 4] → moveid 8 0 → [8 2 3 1 4] → swapid.
        #expect(Self.ids(c.roundTrip("playlistid")) == [8, 2, 4, 1, 3])
        #expect(Self.field(c.roundTrip("status"), "song") == "3")  // song id 1 is still current, now at 3

        // prio shows `Prio:` only when set; shuffle keeps every song.
        #expect(c.roundTrip("prio 10 0") == "OK\n")
        #expect(c.roundTrip("prioid 5 4") == "OK\n")
        #expect(c.roundTrip("prio 256 0") == "ACK [2@0] {prio} Number too large: 256\n")
        let info = c.roundTrip("playlistinfo")
        #expect(info.contains("Pos: 0\nId: 8\nPrio: 10\n") && info.contains("Pos: 2\nId: 4\nPrio: 5\n"))
        #expect(c.roundTrip("shuffle") == "OK\n")
        #expect(Set(Self.ids(c.roundTrip("playlistid"))) == [8, 2, 4, 1, 3])
        #expect(c.roundTrip("clear") == "OK\n")
        status = c.roundTrip("status")
        #expect(Self.field(status, "playlistlength") == "0" && Self.field(status, "state") == "stop" && Self.field(status, "song") == nil)
    }

    @Test func playbackCommandsAnswerAsMPDDoes() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        #expect(c.roundTrip("play") == "OK\n")  // empty queue: nothing to do, as in MPD
        #expect(c.roundTrip("add \"Sorting\"") == "OK\n")
        #expect(c.roundTrip("next") == "ACK [55@0] {next} Not playing\n")
        #expect(c.roundTrip("previous") == "ACK [55@0] {previous} Not playing\n")
        #expect(c.roundTrip("seekcur 1") == "ACK [55@0] {seekcur} Not playing\n")
        #expect(c.roundTrip("play 99") == "ACK [2@0] {play} Bad song index\n")
        #expect(c.roundTrip("playid 9999") == "ACK [50@0] {playid} No such song\n")
        #expect(c.roundTrip("play") == "OK\n")
        var s = c.roundTrip("status")
        #expect(Self.field(s, "state") == "play" && Self.field(s, "song") == "0" && Self.field(s, "songid") == "1")
        #expect(Self.field(s, "nextsong") == "1" && Self.field(s, "nextsongid") == "2")
        #expect(Self.field(s, "duration") != nil && Self.near(s, 0))
        #expect(c.roundTrip("currentsong").contains("Pos: 0\nId: 1\nOK\n"))
        #expect(c.roundTrip("pause") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "state") == "pause")
        #expect(c.roundTrip("pause") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "state") == "play")
        #expect(c.roundTrip("pause 2") == "ACK [2@0] {pause} Boolean (0/1) expected: 2\n")
        #expect(c.roundTrip("pause 1") == "OK\n")
        #expect(c.roundTrip("pause 1") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "state") == "pause")
        #expect(c.roundTrip("play") == "OK\n")
        #expect(c.roundTrip("next") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "song") == "1")
        #expect(c.roundTrip("previous") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "song") == "0")
        #expect(c.roundTrip("playid 3") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "songid") == "3")
        // (The fixture tracks are short: positions stay under their 0.4 s.)
        #expect(c.roundTrip("seek 4 0.15") == "OK\n")
        s = c.roundTrip("status")
        #expect(Self.field(s, "song") == "4" && Self.near(s, 0.15) && Self.field(s, "state") == "play")
        #expect(c.roundTrip("seekcur +0.1") == "OK\n")
        #expect(Self.near(c.roundTrip("status"), 0.25, within: 0.1))
        #expect(c.roundTrip("seekcur -100") == "OK\n")
        #expect(Self.near(c.roundTrip("status"), 0))
        #expect(c.roundTrip("seekcur abc") == "ACK [2@0] {seekcur} Float expected: abc\n")
        #expect(c.roundTrip("seekid 2 0.05") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "songid") == "2")
        #expect(f.playback.commands.contains(.seek(ms: 150)) && f.playback.commands.contains(.seek(ms: 50)))

        // Volume: ClickWheel always has a mixer (the stream volume).
        #expect(c.roundTrip("setvol 70") == "OK\n")
        #expect(c.roundTrip("getvol") == "volume: 70\nOK\n")
        #expect(c.roundTrip("volume -100") == "OK\n")
        #expect(c.roundTrip("getvol") == "volume: 0\nOK\n")
        #expect(c.roundTrip("setvol 101") == "ACK [2@0] {setvol} Number too large: 101\n")
        #expect(c.roundTrip("setvol -1") == "ACK [2@0] {setvol} Number too large: -1\n")
        #expect(f.playback.commands.contains(.volume(70)))

        // Modes: repeat + single is the iPod's Repeat One.
        for line in ["random 1", "repeat 1", "single 1", "consume 1", "crossfade 2"] { #expect(c.roundTrip(line) == "OK\n") }
        s = c.roundTrip("status")
        #expect(s.contains("repeat: 1\nrandom: 1\nsingle: 1\nconsume: 1\n"))
        #expect(c.roundTrip("single oneshot") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "single") == "oneshot")
        #expect(c.roundTrip("single 2") == "ACK [2@0] {single} Unrecognized single mode, expected 0, 1, or oneshot\n")
        #expect(c.roundTrip("random 0") == "OK\n")
        #expect(c.roundTrip("stop") == "OK\n")
        s = c.roundTrip("status")
        #expect(Self.field(s, "state") == "stop" && Self.field(s, "elapsed") == nil && Self.field(s, "songid") == "2")
    }

    @Test func tracksEndingFollowRepeatSingleAndConsume() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        _ = c.roundTrip("add \"Durations\"")
        _ = c.roundTrip("play 0")
        f.report(.finished(index: 0))
        #expect(Self.field(c.roundTrip("status"), "song") == "1")
        _ = c.roundTrip("single 1")  // without repeat: stop after this track, which stays current
        f.report(.finished(index: 1))
        var s = c.roundTrip("status")
        #expect(Self.field(s, "state") == "stop" && Self.field(s, "song") == "1")
        _ = c.roundTrip("repeat 1")  // single + repeat: the track again
        _ = c.roundTrip("play 2")
        f.report(.finished(index: 2))
        #expect(Self.field(c.roundTrip("status"), "song") == "2")
        _ = c.roundTrip("single oneshot")  // once, then single is off again and repeat all goes on
        f.report(.finished(index: 2))
        s = c.roundTrip("status")
        #expect(Self.field(s, "song") == "2" && Self.field(s, "single") == "0")
        f.report(.finished(index: 2))
        #expect(Self.field(c.roundTrip("status"), "song") == "3")
        _ = c.roundTrip("repeat 0")
        _ = c.roundTrip("consume 1")  // played tracks leave the queue
        f.report(.finished(index: 3))
        s = c.roundTrip("status")
        #expect(Self.field(s, "playlistlength") == "5" && Self.field(s, "song") == "3" && Self.field(s, "songid") == "5")
        _ = c.roundTrip("next")
        s = c.roundTrip("status")
        #expect(Self.field(s, "playlistlength") == "4" && Self.field(s, "songid") == "6")
        // Deleting the playing entry plays the one after it.
        _ = c.roundTrip("consume 0")
        _ = c.roundTrip("play 0")
        _ = c.roundTrip("delete 0")
        s = c.roundTrip("status")
        #expect(Self.field(s, "state") == "play" && Self.field(s, "songid") == "2")
    }

    @Test func idleClientsHearTheQueueAndThePlayer() throws {
        let f = try ServerFixture()
        let idle = try RawClient(f.socket)
        _ = idle.response()
        idle.send("idle playlist player\n")
        let c = try RawClient(f.socket)
        _ = c.response()
        _ = c.roundTrip("add \"Durations\"")
        #expect(idle.response() == "changed: playlist\nOK\n")
        idle.send("idle mixer options\n")
        _ = c.roundTrip("setvol 20")
        #expect(idle.response() == "changed: mixer\nOK\n")
        idle.send("idle screen\n")
        _ = c.roundTrip("wheel 1")
        #expect(idle.response() == "changed: screen\nOK\n")
    }

    @Test func extensionsDriveTheUIAndShowTheScreen() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        var screen = c.roundTrip("screen")
        #expect(screen.hasPrefix("row: ") && screen.contains("Music") && screen.contains("title: ClickWheel\ncursor: 0\n"))
        #expect(c.roundTrip("press select") == "OK\n")
        screen = c.roundTrip("screen")
        #expect(Self.field(screen, "title") == "Music" && Self.field(screen, "depth") == "2")
        #expect(screen.hasSuffix("depth: 2\nmenu: music\nOK\n"))  // the stable name comes last
        #expect(c.roundTrip("wheel 2") == "OK\n")
        #expect(Self.field(c.roundTrip("screen"), "cursor") == "2")
        #expect(c.roundTrip("press menu") == "OK\n")
        #expect(Self.field(c.roundTrip("screen"), "depth") == "1")
        #expect(c.roundTrip("press bogus") == "ACK [2@0] {press} Unknown button: bogus (expected menu, select, playpause, next or prev)\n")
        #expect(c.roundTrip("wheel x") == "ACK [2@0] {wheel} Integer expected: x\n")
        // A queue from the socket, then Play/Pause on the "hardware" pauses it.
        _ = c.roundTrip("add \"Durations\"")
        _ = c.roundTrip("play")
        #expect(c.roundTrip("press playpause") == "OK\n")
        #expect(Self.field(c.roundTrip("status"), "state") == "pause")
        let commands = c.roundTrip("commands")
        for name in ["wheel", "press", "hold", "screen", "play", "addid", "plchanges", "consume"] {
            #expect(commands.contains("command: \(name)\n"), "\(name)")
        }
    }

    @Test func mpcDrivesPlaybackAndTheQueue() throws {
        let f = try ServerFixture()
        let mpc = { (args: [String]) throws -> String in try f.run("mpc", ["-h", f.socket] + args) }
        _ = try mpc(["add", "Durations"])
        _ = try mpc(["insert", "Sorting/10cc - Ten.mp3"])
        #expect(try mpc(["playlist"]).split(separator: "\n").count == 7)
        #expect(try mpc(["play", "2"]).contains("[playing] #2/7"))
        #expect(try mpc(["pause"]).contains("[paused]"))
        #expect(try mpc(["toggle"]).contains("[playing]"))
        #expect(try mpc(["next"]).contains("#3/7"))
        #expect(try mpc(["prev"]).contains("#2/7"))
        #expect(try mpc(["volume", "30"]).contains("volume: 30%"))
        #expect(try mpc(["random", "on"]).contains("random: on"))
        #expect(try mpc(["random", "off"]).contains("random: off"))
        #expect(try mpc(["repeat", "on"]).contains("repeat: on"))
        #expect(try mpc(["single", "on"]).contains("single: on"))
        #expect(try mpc(["consume", "on"]).contains("consume: on"))
        _ = try mpc(["consume", "off"])
        _ = try mpc(["del", "1"])
        #expect(try mpc(["playlist"]).split(separator: "\n").count == 6)
        _ = try mpc(["move", "1", "6"])
        _ = try mpc(["seek", "50%"])  // mpc reads the duration, then sends whole seconds (0 here: short tracks)
        #expect(f.playback.commands.contains { if case .seek = $0 { true } else { false } })
        #expect(try mpc(["current", "-f", "%file%"]).hasPrefix("Durations/"))
        _ = try mpc(["stop"])
        #expect(try mpc(["status"]).split(separator: "\n").count == 1)  // stopped: only the modes line
        _ = try mpc(["clear"])
        #expect(try mpc(["playlist"]).isEmpty)
        _ = try mpc(["load", "Playlists/Mix.m3u"])
        #expect(try mpc(["playlist"]).split(separator: "\n").count == 4)
    }

    @Test func pythonMPD2AsyncioIdleLoopHearsEveryChange() throws {
        let f = try ServerFixture()
        let script = """
            import asyncio, json, sys
            from mpd.asyncio import MPDClient
            async def main():
                watcher, actor = MPDClient(), MPDClient()
                await watcher.connect(sys.argv[1])
                await actor.connect(sys.argv[1])
                heard = []
                async def watch():
                    async for changed in watcher.idle(["playlist", "player", "mixer", "options"]):
                        heard.extend(changed)
                        if "options" in heard:
                            return
                task = asyncio.create_task(watch())
                await asyncio.sleep(0.2)
                await actor.add("Durations")
                await asyncio.sleep(0.1)
                await actor.play(0)
                await asyncio.sleep(0.1)
                await actor.setvol(10)
                await asyncio.sleep(0.1)
                await actor.repeat(1)
                await asyncio.wait_for(task, 10)
                status = await actor.status()
                print(json.dumps({"heard": sorted(set(heard)), "state": status["state"], "volume": status["volume"]}))
                actor.disconnect(); watcher.disconnect()
            asyncio.run(main())
            """
        let out = try f.run("python3", ["-c", script, f.socket])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        #expect(json["heard"] as? [String] == ["mixer", "options", "player", "playlist"])
        #expect(json["state"] as? String == "play" && json["volume"] as? String == "10")
    }

    @Test func pythonMPD2AddsPlaysAndWatches() throws {
        let f = try ServerFixture()
        let script = """
            import mpd, json, sys, threading
            c = mpd.MPDClient()
            c.connect(sys.argv[1])
            w = mpd.MPDClient()
            w.connect(sys.argv[1])
            heard = []
            t = threading.Thread(target=lambda: heard.extend(w.idle("player")))
            t.start()
            c.clear()
            first = c.addid("Durations/01 CBR Info.mp3")
            second = c.addid("Durations/02 VBR Xing.mp3", 0)
            version = c.status()["playlist"]
            c.playid(first)
            t.join(10)
            c.moveid(first, 0)
            out = {
              "ids": [first, second],
              "queue": [s["id"] for s in c.playlistinfo()],
              "changed": [s["id"] for s in c.plchanges(version)],
              "status": {k: c.status()[k] for k in ("state", "songid", "song")},
              "heard": heard,
            }
            try:
                c.play(99)
            except mpd.CommandError as e:
                out["error"] = str(e)
            c.close(); w.close()
            print(json.dumps(out))
            """
        let out = try f.run("python3", ["-c", script, f.socket])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        #expect(json["ids"] as? [String] == ["1", "2"])
        #expect(json["queue"] as? [String] == ["1", "2"])
        #expect(json["changed"] as? [String] == ["1", "2"])
        #expect(json["status"] as? [String: String] == ["state": "play", "songid": "1", "song": "0"])
        #expect(json["heard"] as? [String] == ["player"])
        #expect(json["error"] as? String == "[2@0] {play} Bad song index")
    }
}

/// The same queue session sent whole (one write) and drip-fed (one byte per write) to two fresh
/// servers gives byte-identical answers.
@Suite(.serialized) struct QueueDripFeedTests {
    static let session = [
        "add \"Durations\"", "addid \"Sorting/10cc - Ten.mp3\" 0", "addid \"Sorting/A Tribe - Bonita.mp3\" +0", "playlistid", "play 1",
        "delete 0", "move 0 2", "swapid 3 4", "single oneshot", "status", "plchangesposid 2", "playlistinfo 1:3",
        "command_list_ok_begin", "next", "currentsong", "command_list_end", "shuffle 0:1", "prio 5 0:2",
        "playlistfind Title \"Ten\"", "seekcur abc", "clear", "status",
    ]

    /// Reads until `count` replies (each ending in `OK` or an `ACK` line) have arrived.
    static func read(_ c: RawClient, replies count: Int) -> String {
        var all = ""
        var seen = 0
        while seen < count {
            let r = c.response()
            if r.isEmpty { break }
            all += r
            seen = all.split(separator: "\n").filter { $0 == "OK" || $0.hasPrefix("ACK ") }.count
        }
        return all
    }

    @Test func wholeAndDripFedSessionsAnswerTheSame() throws {
        let replies = Self.session.count - 3  // the four lines of the command list answer once
        let text = Self.session.joined(separator: "\n") + "\n"
        let a = try ServerFixture()
        let whole = try RawClient(a.socket)
        _ = whole.response()
        whole.send(text)
        let wholeOut = Self.read(whole, replies: replies)
        let b = try ServerFixture()
        let drip = try RawClient(b.socket)
        _ = drip.response()
        for byte in Array(text.utf8) { drip.send([byte]) }
        let dripOut = Self.read(drip, replies: replies)
        // The engine loop's clock is real: while playing, `elapsed` and `time` run on between the two.
        func timeless(_ s: String) -> String {
            s.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("elapsed: ") && !$0.hasPrefix("time: ") }.joined(separator: "\n")
        }
        #expect(timeless(wholeOut) == timeless(dripOut))
        #expect(wholeOut.contains("ACK [55@0] {addid} No current song\n") && wholeOut.contains("list_OK\n"))
        #expect(wholeOut.contains("ACK [2@0] {seekcur} Float expected: abc\n"))
        #expect(wholeOut.hasSuffix("playlistlength: 0\nmixrampdb: 0\nstate: stop\nOK\n"))
    }
}
