@testable import ControlServer
import ClickWheelCore
import ClickWheelTestKit
import Foundation
import GRDB
import Logging
@testable import Library
import MPDProtocol
import Testing

/// Streamed listings (`listall`, `listallinfo`, written as they are made from the kept songs) answer
/// exactly what the whole-array listing answered; a slow reader of one is served, not dropped; `status` reads the
/// published player state, fresh after every change.
@Suite(.serialized) struct StreamingTests {
    /// The listing as the previous implementation made it: every song read into an array, walked with
    /// `DirectoryTree`, each song formatted from `SongWriter.tagValues` (Foundation's time stamps).
    static func reference(_ command: String, uri: String, tags: Set<String>, pool: DatabasePool = ServerFixture.pool) throws -> String {
        let songs = try Catalog(pool).songs(under: uri)
        var out = ""
        func song(_ s: SongRecord) {
            out += command == "listall" ? "file: \(s.path)\n" : block(s, tags: tags)
        }
        if command == "lsinfo" {  // (no playlists in the folders compared)
            if songs.isEmpty, !uri.isEmpty {
                let parent = (uri as NSString).deletingLastPathComponent
                guard let s = try Catalog(pool).songs(under: parent).first(where: { $0.path == uri }) else {
                    return "ACK [50@0] {lsinfo} No such directory\n"
                }
                song(s)
                return out + "OK\n"
            }
            let tree = WholeArrayTree(songs, base: uri)
            for dir in tree.subdirectories { out += "directory: \(dir.path)\nLast-Modified: \(Self.stamp(dir.modified))\n" }
            for s in tree.files { song(s) }
            return out + "OK\n"
        }
        if songs.isEmpty, !uri.isEmpty {
            // A song's own path lists that song, as MPD.
            let parent = (uri as NSString).deletingLastPathComponent
            guard let s = try Catalog(pool).songs(under: parent).first(where: { $0.path == uri }) else {
                return "ACK [50@0] {\(command)} No such directory\n"
            }
            song(s)
            return out + "OK\n"
        }
        // The folder itself first (not the music folder), with its newest song's time, as MPD.
        if !uri.isEmpty, let newest = songs.map(\.modified).max() {
            out += "directory: \(uri)\n"
            if command == "listallinfo" { out += "Last-Modified: \(Self.stamp(newest))\n" }
        }
        WholeArrayTree.walk(songs, base: uri) { entry in
            switch entry {
            case .directory(let path, let modified):
                out += "directory: \(path)\n"
                if command == "listallinfo" { out += "Last-Modified: \(Self.stamp(modified))\n" }
            case .song(let s): song(s)
            }
        }
        return out + "OK\n"
    }

    /// `answer` without the smart playlists the root's `lsinfo` lists (stamped with the time of the
    /// answer; PlaylistTests check them), so folder listings compare with the reference.
    static func withoutSmartPlaylists(_ answer: String) -> String {
        var lines = answer.split(separator: "\n", omittingEmptySubsequences: false)
        var i = 0
        while i < lines.count {
            if lines[i].hasPrefix("playlist: "), SmartPlaylist.named(String(lines[i].dropFirst(10))) != nil {
                lines.removeSubrange(i..<min(i + 2, lines.count))
            } else {
                i += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    static func stamp(_ t: Int64) -> String {
        let iso = ISO8601DateFormatter()
        iso.timeZone = TimeZone(identifier: "UTC")
        return iso.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    /// A song as the previous SongWriter wrote it.
    static func block(_ s: SongRecord, tags: Set<String>) -> String {
        var out = "file: \(s.path)\n"
        out += "Last-Modified: \(stamp(s.modified))\n"
        if s.sampleRate > 0 { out += "Format: \(s.sampleRate):16:\(s.channels)\n" }
        for (tag, values) in SongWriter.tagValues(s) where tags.contains(tag.name) {
            for v in values { out += "\(tag.name): \(v)\n" }
        }
        out += "Time: \((s.durationMS + 500) / 1000)\n"
        out += "duration: \(SongWriter.seconds(ms: s.durationMS))\n"
        return out
    }

    /// find and search without sort or window stream their matches as they find them: the same songs,
    /// in the same (path) order, as filtering the whole array gave.
    @Test func findAndSearchStreamTheSameSongs() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let all = Set(MPDTag.tagtypes.map(\.name))
        let songs = try Catalog(ServerFixture.pool).songs(under: "")
        for line in [
            "find artist \"Ärzte\"", "search title \"e\"", "search \"(Artist contains 'a')\"", "find \"(base 'Durations')\"",
            "search any \"\"", "find \"(!(Genre == 'Rock'))\"", "search album \"nothing like this\"",
        ] {
            let request = try MPDTokenizer.tokenize(Array(line.utf8)[...])
            let parsed = try MPDSearchRequest.parse(request.arguments, foldCase: request.name == "search", acceptsPosition: false)
            let matching = songs.filter { song in parsed.filter.map { SongFilter.matches($0, song) } ?? true }
            #expect(c.roundTrip(line) == matching.map { Self.block($0, tags: all) }.joined() + "OK\n", "\(line)")
        }
        #expect(c.roundTrip("search title \"e\" window 1:3").components(separatedBy: "\nfile: ").count == 2)
    }

    @Test func listallinfoAndListallAnswerAsTheWholeArrayListingDid() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let all = Set(MPDTag.tagtypes.map(\.name))
        for uri in ["", "Durations", "Podcasts", "Podcasts/Show Name", "Sorting", "Tag Formats"] {
            let arg = uri.isEmpty ? "" : " \"\(uri)\""
            let info = c.roundTrip("listallinfo" + arg)
            #expect(info == (try Self.reference("listallinfo", uri: uri, tags: all)), "listallinfo \(uri)")
            #expect(info.count > 3)
            #expect(c.roundTrip("listall" + arg) == (try Self.reference("listall", uri: uri, tags: all)), "listall \(uri)")
            #expect(Self.withoutSmartPlaylists(c.roundTrip("lsinfo" + arg)) == (try Self.reference("lsinfo", uri: uri, tags: all)), "lsinfo \(uri)")
        }
        // The root listing is long: a whole library, with every directory before its contents.
        #expect(c.roundTrip("listallinfo").components(separatedBy: "\nfile: ").count - 1 == 34)
        // Fewer tags, as the client asked.
        #expect(c.roundTrip("tagtypes clear") == "OK\n")
        #expect(c.roundTrip("tagtypes enable Title Genre") == "OK\n")
        #expect(c.roundTrip("listallinfo") == (try Self.reference("listallinfo", uri: "", tags: ["Title", "Genre"])))
        #expect(c.roundTrip("listallinfo \"Nope\"") == "ACK [50@0] {listallinfo} No such directory\n")
        #expect(c.roundTrip("listall \"Durations/01 CBR\"") == "ACK [50@0] {listall} No such directory\n")
        // A folder's listing begins with the folder; a song's path lists the song (both as MPD).
        #expect(c.roundTrip("listall \"Podcasts\"").hasPrefix("directory: Podcasts\ndirectory: Podcasts/Show Name\nfile: "))
        #expect(c.roundTrip("listall \"Durations/01 CBR Info.mp3\"") == "file: Durations/01 CBR Info.mp3\nOK\n")
    }

    /// A client that hangs up during a long listing stops it: once the streaming writer hears that its
    /// chunks are no longer wanted, it stops instead of going through the rest of the library for
    /// nobody. Without a hang-up the same writer gets the whole answer.
    @Test(arguments: ["listallinfo", "listall", "search title \"e\"", "find \"(base '')\""])
    func aListingNobodyTakesStops(line: String) throws {
        final class Chunks: @unchecked Sendable {
            var count = 0
            var bytes = 0
        }
        let commands = ControlCommands(
            catalog: Catalog(ServerFixture.pool), playlists: StoredPlaylists(ServerFixture.pool),
            player: ServerFixture.makeLoop().loop, musicFolder: ServerFixture.music)
        var client = commands.newClient()
        let batch = MPDCommandBatch(mode: .single, lines: [Array(line.utf8)])

        let whole = Chunks()
        let kept = commands.execute(
            batch, client: &client,
            writer: MPDResponseWriter(flushingAt: 256, to: { whole.count += 1; whole.bytes += $0.count }, stillWanted: { true }))
        #expect(String(decoding: kept.output, as: UTF8.self).hasSuffix("OK\n"))
        #expect(whole.count > 4, "the fixture's listing is several chunks long")

        let cut = Chunks()
        let dropped = commands.execute(
            batch, client: &client,
            writer: MPDResponseWriter(flushingAt: 256, to: { cut.count += 1; cut.bytes += $0.count }, stillWanted: { cut.count < 2 }))
        #expect(cut.count == 2, "no chunk after the one that found nobody listening")
        #expect(cut.bytes < whole.bytes / 2)
        #expect(String(decoding: dropped.output, as: UTF8.self).contains("the client is gone"))
    }

    /// A library whose folders hold songs and subfolders side by side, with names that sort around
    /// `/`, and a folder's newest song in its first run (before a subfolder): through the real catalog,
    /// the stream answers what the whole-array listing answered.
    @Test func mixedFoldersListAsTheWholeArrayListingDid() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-mixed-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let music = dir.appendingPathComponent("music")
        let source = ServerFixture.music + "/Durations/01 CBR Info.mp3"
        let layout: [(String, TimeInterval)] = [
            ("root.mp3", 1_600_000_000), ("a/x.mp3", 1_700_000_300), ("a/b/y.mp3", 1_700_000_100), ("a/b/c/w.mp3", 1_700_000_200),
            ("a/b-c.mp3", 1_700_000_900), ("a/z.mp3", 1_700_000_400), ("a b/q.mp3", 1_650_000_000), ("a-b/r.mp3", 1_650_000_500),
            ("a0/s.mp3", 1_650_000_700), ("zz/deep/er/t.mp3", 1_500_000_000), ("zz/u.mp3", 1_500_000_100),
        ]
        for (path, time) in layout {
            let url = music.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: url.path)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: url.path)
        }
        let pool = try LibraryDatabase.open(at: dir.appendingPathComponent("lib.sqlite").path)
        var quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        quiet.logLevel = .critical
        _ = try LibraryScanner(musicFolder: music.path, database: pool, logger: quiet).run()
        let commands = ControlCommands(
            catalog: Catalog(pool), playlists: StoredPlaylists(pool), player: ServerFixture.makeLoop().loop, musicFolder: music.path)
        var client = commands.newClient()
        let all = Set(MPDTag.tagtypes.map(\.name))
        for uri in ["", "a", "a/b", "zz", "a/b/c", "a/x.mp3", "a/nope", "a/b-c.mp3"] {
            for command in ["listallinfo", "listall", "lsinfo"] {
                let line = uri.isEmpty ? command : "\(command) \"\(uri)\""
                let result = commands.execute(MPDCommandBatch(mode: .single, lines: [Array(line.utf8)]), client: &client)
                #expect(Self.withoutSmartPlaylists(String(decoding: result.output, as: UTF8.self)) == (try Self.reference(command, uri: uri, tags: all, pool: pool)), "\(line)")
            }
        }
        let root = commands.execute(MPDCommandBatch(mode: .single, lines: [Array("listallinfo".utf8)]), client: &client)
        #expect(String(decoding: root.output, as: UTF8.self).contains("directory: a\nLast-Modified: 2023-11-14T22:28:20Z\n"))
    }

    /// Folders with songs and subfolders side by side, names that sort around `/` (space, `-`, `0`):
    /// the streamed order is the tree's order.
    @Test func theStreamedWalkVisitsWhatTheTreeVisits() {
        let paths = [
            "a b/x.mp3", "a-b/y.mp3", "a/0.mp3", "a/b c/1.mp3", "a/b-c.mp3", "a/b/c/d/2.mp3", "a/b/c/e.mp3", "a/b/f.mp3",
            "a/b0/3.mp3", "a/z.mp3", "a0/4.mp3", "root.mp3", "zz/deep/er/5.mp3", "zz/top.mp3",
        ].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let songs = paths.enumerated().map { i, p in
            SongRecord(
                id: Int64(i), path: p, modified: Int64(1000 + (i * 37) % 11), title: "", artists: [], album: "", albumArtists: [],
                genres: [], composers: [], durationMS: 0, samples: 0, sampleRate: 0, channels: 0, bitrate: 0)
        }
        func describe(_ e: DirectoryTree.Entry) -> String {
            switch e {
            case .directory(let p, let m): "D \(p) \(m)"
            case .song(let s): "F \(s.path)"
            }
        }
        for base in ["", "a", "a/b", "zz"] {
            let below = songs.filter { base.isEmpty || $0.path.hasPrefix(base + "/") }
            var expected: [String] = []
            WholeArrayTree.walk(below, base: base) { expected.append(describe($0)) }
            var folders: [String: Int64] = [:]
            for s in below {
                let folder = DirectoryTree.parent(of: s.path)
                folders[folder] = max(folders[folder] ?? 0, s.modified)
            }
            var stream = DirectoryStream(base: base, folders: folders)
            var got: [String] = []
            for s in below { stream.add(s) { got.append(describe($0)) } }
            stream.finish { got.append(describe($0)) }
            #expect(got == expected, "base \(base)")
        }
    }

    /// A client that reads a long answer slowly gets all of it, even when the answer is many times the
    /// output limit (it streams, paced by the reader), and meanwhile others are answered.
    @Test func aSlowReaderOfALongListingIsServedWhileOthersAreAnswered() throws {
        var limits = ControlServer.Limits()
        limits.maxOutputBytes = 1024
        let f = try ServerFixture(limits: limits)
        let expected = try Self.reference("listallinfo", uri: "", tags: Set(MPDTag.tagtypes.map(\.name)))
        #expect(expected.utf8.count > 4 * limits.maxOutputBytes)
        let slow = try RawClient(f.socket)
        let other = try RawClient(f.socket)
        _ = slow.response()
        _ = other.response()
        slow.send("listallinfo\n")
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 300)
        var statusAnswered = 0
        while !String(decoding: data, as: UTF8.self).hasSuffix("\nOK\n") {
            let n = read(slow.fd, &buf, buf.count)
            guard n > 0 else { break }
            data += buf[0..<n]
            if statusAnswered < 5 {
                if other.roundTrip("status").contains("state: stop\nOK\n") { statusAnswered += 1 }
            }
            usleep(2000)
        }
        #expect(String(decoding: data, as: UTF8.self) == expected)
        #expect(statusAnswered == 5)
        #expect(slow.roundTrip("ping") == "OK\n")  // still connected
    }

    /// What one client changes, another's `status` shows at once (the published snapshot is fresh).
    @Test func statusOnAnotherConnectionShowsAChangeAtOnce() throws {
        let f = try ServerFixture()
        let a = try RawClient(f.socket)
        let b = try RawClient(f.socket)
        _ = a.response()
        _ = b.response()
        #expect(a.roundTrip("add \"Durations\"") == "OK\n")
        #expect(QueueCommandTests.field(b.roundTrip("status"), "playlistlength") == "6")
        #expect(a.roundTrip("play 2") == "OK\n")
        var s = b.roundTrip("status")
        #expect(QueueCommandTests.field(s, "state") == "play" && QueueCommandTests.field(s, "song") == "2")
        #expect(QueueCommandTests.field(s, "duration") != nil && QueueCommandTests.field(s, "audio") != nil)
        #expect(b.roundTrip("currentsong").hasPrefix("file: Durations/03 VBR no Xing.mp3\n"))
        #expect(a.roundTrip("pause 1") == "OK\n")
        #expect(QueueCommandTests.field(b.roundTrip("status"), "state") == "pause")
        #expect(a.roundTrip("setvol 70") == "OK\n")
        #expect(QueueCommandTests.field(b.roundTrip("status"), "volume") == "70")
        #expect(a.roundTrip("next") == "OK\n")
        s = b.roundTrip("status")
        #expect(QueueCommandTests.field(s, "song") == "3")
        #expect(b.roundTrip("currentsong").hasPrefix("file: Durations/04 CBR no Info.mp3\n"))
        #expect(a.roundTrip("stop") == "OK\n")
        #expect(QueueCommandTests.field(b.roundTrip("status"), "state") == "stop")
        // A command list of snapshot commands answers as a whole.
        #expect(b.roundTrip("command_list_ok_begin\nping\nstatus\ncommand_list_end").hasPrefix("list_OK\nvolume: 70\n"))
    }

    /// A client polling `status` over and over, as Home Assistant and phone apps do, has the server's kept
    /// answer written again while nothing changed (the same bytes as a made one), and sees every change
    /// another client makes on its next poll, also a change back to an earlier state.
    @Test func aRepeatedStatusPollSeesEveryChange() throws {
        let f = try ServerFixture()
        let a = try RawClient(f.socket)
        let b = try RawClient(f.socket)
        _ = a.response()
        _ = b.response()
        func polls() -> String {
            let answers = (0..<4).map { _ in b.roundTrip("status") }
            #expect(Set(answers).count == 1, "an unchanged player answers the same bytes every time")
            return answers[0]
        }
        let field = QueueCommandTests.field
        #expect(field(polls(), "state") == "stop")
        #expect(a.roundTrip("add \"Durations\"") == "OK\n")
        #expect(field(polls(), "playlistlength") == "6")
        #expect(a.roundTrip("play 2") == "OK\n")
        #expect(a.roundTrip("pause 1") == "OK\n")
        let paused = polls()
        #expect(field(paused, "state") == "pause" && field(paused, "song") == "2")
        for volume in [70, 30, 70] {
            #expect(a.roundTrip("setvol \(volume)") == "OK\n")
            #expect(field(polls(), "volume") == "\(volume)")
        }
        #expect(a.roundTrip("repeat 1") == "OK\n")
        #expect(field(polls(), "repeat") == "1")
        #expect(a.roundTrip("stop") == "OK\n")
        #expect(field(polls(), "state") == "stop")
        // Between polls, a poll in a command list and one with another command in its read still answer.
        let listed = b.roundTrip("command_list_begin\nstatus\ncommand_list_end")
        #expect(listed.contains("\nstate: stop\n") && listed.hasSuffix("\nOK\n"))
        #expect(b.roundTrip("ping\nstatus").hasPrefix("OK\nvolume: 70\n"))
        #expect(field(polls(), "repeat") == "1")
        // A new connection's first poll gets the same bytes (the kept answer is the server's), and a change.
        let c = try RawClient(f.socket)
        _ = c.response()
        #expect(c.roundTrip("status") == polls())
        #expect(a.roundTrip("setvol 55") == "OK\n")
        #expect(field(c.roundTrip("status"), "volume") == "55")
        #expect(field(polls(), "volume") == "55")
    }
}
