import ClickWheelTestKit
import ControlServer
import Foundation
import Testing

/// listfiles (inside the music folder only), playlistfind/playlistsearch, the root's stored
/// playlists, and the optional password.
@Suite(.serialized) struct FileCommandTests {
    @Test func listfilesShowsTheFolderButNeverLeavesIt() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let listing = c.roundTrip("listfiles \"Artist Name/Album Name\"")
        #expect(listing.contains("file: 07 Some Title.mp3\nsize: "))
        #expect(listing.contains("file: cover.jpg\nsize: "))
        #expect(c.roundTrip("listfiles").contains("directory: Durations\nLast-Modified: "))
        for path in ["..", "/etc", "file:///etc", "Durations/../..", "Nope"] {
            #expect(c.roundTrip("listfiles \"\(path)\"") == "ACK [50@0] {listfiles} No such directory\n", "\(path)")
        }
        // A symlink inside the music folder that leads out of it is refused too.
        let link = ServerFixture.music + "/_escape-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc")
        defer { try? FileManager.default.removeItem(atPath: link) }
        let name = (link as NSString).lastPathComponent
        #expect(c.roundTrip("listfiles \"\(name)\"") == "ACK [50@0] {listfiles} No such directory\n")
    }

    @Test func playlistfindAndSearchLookInTheQueue() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        _ = c.roundTrip("add \"Sorting\"")
        let found = c.roundTrip("playlistfind Title \"Ten\"")
        #expect(found.hasPrefix("file: Sorting/10cc - Ten.mp3\n") && QueueCommandTests.ids(found).count == 1)
        #expect(c.roundTrip("playlistfind Title \"ten\"") == "OK\n")
        #expect(QueueCommandTests.ids(c.roundTrip("playlistsearch \"(Title contains 'E')\"")).count >= 2)
        #expect(c.roundTrip("playlistsearch").hasPrefix("ACK [2@0] {playlistsearch}"))
    }

    @Test func aPasswordGuardsEverythingButReading() throws {
        let f = try ServerFixture(password: "s3cret")
        let c = try RawClient(f.socket)
        _ = c.response()
        #expect(c.roundTrip("status").contains("state: stop"))
        #expect(c.roundTrip("add \"Durations\"") == "ACK [4@0] {add} you don't have permission for \"add\"\n")
        #expect(!c.roundTrip("commands").contains("command: play\n"))
        #expect(c.roundTrip("notcommands").contains("command: play\n"))
        #expect(c.roundTrip("password wrong") == "ACK [3@0] {password} incorrect password\n")
        #expect(c.roundTrip("password s3cret") == "OK\n")
        #expect(c.roundTrip("add \"Durations\"") == "OK\n")
        #expect(c.roundTrip("notcommands") == "OK\n")
        let open = try ServerFixture()
        let o = try RawClient(open.socket)
        _ = o.response()
        #expect(o.roundTrip("password x") == "ACK [3@0] {password} incorrect password\n")
    }
}
