import ClickWheelCore
import ClickWheelTestKit
import ControlServer
import Foundation
import Library
import Testing

/// Stored playlists over the socket (MPD's answers from reference transcript §8, on the fixture
/// library), kept in the real SQLite database and seen by the engine's Playlists menu.
@Suite(.serialized) struct StoredPlaylistTests {
    @Test func savedPlaylistsAnswerAsMPDDoes() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let name = "Saved \(UUID().uuidString.prefix(6))"
        let other = "New \(UUID().uuidString.prefix(6))"
        defer {
            _ = c.roundTrip("rm \"\(name)\"")
            _ = c.roundTrip("rm \"Renamed\"")
            _ = c.roundTrip("rm \"\(other)\"")
        }
        _ = c.roundTrip("add \"Durations/01 CBR Info.mp3\"")
        _ = c.roundTrip("add \"Sorting/10cc - Ten.mp3\"")
        #expect(c.roundTrip("save \"\(name)\"") == "OK\n")
        #expect(c.roundTrip("save \"\(name)\"") == "ACK [56@0] {save} Playlist already exists\n")
        #expect(c.roundTrip("save \"\(name)\" replace") == "ACK [2@0] {save} wrong number of arguments for \"save\"\n")
        #expect(c.roundTrip("save \"bad/name\"") == "ACK [2@0] {save} Bad playlist name\n")
        #expect(c.roundTrip("save \"\"") == "ACK [2@0] {save} Bad playlist name\n")
        #expect(c.roundTrip("listplaylist \"\(name)\"") == "file: Durations/01 CBR Info.mp3\nfile: Sorting/10cc - Ten.mp3\nOK\n")
        #expect(c.roundTrip("listplaylists").contains("playlist: \(name)\nLast-Modified: "))
        #expect(c.roundTrip("listplaylist \"Nope\"") == "ACK [50@0] {listplaylist} No such playlist\n")

        #expect(c.roundTrip("playlistadd \"\(other)\" \"Sorting/10cc - Ten.mp3\"") == "OK\n")
        #expect(c.roundTrip("playlistadd \"\(other)\" \"Durations\"") == "OK\n")
        #expect(c.roundTrip("playlistadd \"\(other)\" \"Nope.mp3\"") == "ACK [50@0] {playlistadd} No such directory\n")
        #expect(c.roundTrip("playlistadd \"\(other)\" \"Sorting/2 Unlimited - Two.mp3\" 0") == "OK\n")
        var list = c.roundTrip("listplaylist \"\(other)\"").split(separator: "\n")
        #expect(list.count == 9 && list[0] == "file: Sorting/2 Unlimited - Two.mp3" && list[1] == "file: Sorting/10cc - Ten.mp3")
        #expect(c.roundTrip("playlistdelete \"\(other)\" 1") == "OK\n")
        #expect(c.roundTrip("playlistdelete \"\(other)\" 99") == "ACK [2@0] {playlistdelete} Bad song index\n")
        #expect(c.roundTrip("playlistmove \"\(other)\" 0 2") == "OK\n")
        list = c.roundTrip("listplaylist \"\(other)\"").split(separator: "\n")
        #expect(list[2] == "file: Sorting/2 Unlimited - Two.mp3" && list.count == 8)
        #expect(c.roundTrip("playlistclear \"\(other)\"") == "OK\n")
        #expect(c.roundTrip("listplaylist \"\(other)\"") == "OK\n")
        #expect(c.roundTrip("playlistclear \"Nope\"") == "ACK [50@0] {playlistclear} No such playlist\n")

        #expect(c.roundTrip("rename \"\(name)\" \"Renamed\"") == "OK\n")
        #expect(c.roundTrip("rename \"Renamed\" \"\(other)\"") == "ACK [56@0] {rename} Playlist exists already\n")
        #expect(c.roundTrip("rename \"Nope\" \"Other\"") == "ACK [50@0] {rename} No such playlist\n")
        #expect(c.roundTrip("clear") == "OK\n")
        #expect(c.roundTrip("load \"Renamed\"") == "OK\n")
        #expect(c.roundTrip("load \"Renamed\" 1:2 0") == "OK\n")
        #expect(QueueCommandTests.ids(c.roundTrip("playlistid")).count == 3)
        #expect(c.roundTrip("load \"Nope\"") == "ACK [50@0] {load} No such playlist\n")
        // The music folder's own playlist files are read, never changed.
        #expect(c.roundTrip("rm \"Playlists/Mix.m3u\"") == "ACK [4@0] {rm} Read-only playlist (a file in the music folder)\n")
        #expect(c.roundTrip("listplaylist \"Playlists/Mix.m3u\"").split(separator: "\n").count == 5)
        #expect(c.roundTrip("rm \"Renamed\"") == "OK\n")
        #expect(c.roundTrip("rm \"Nope\"") == "ACK [50@0] {rm} No such playlist\n")
    }

    @Test func aSavedPlaylistShowsInThePlaylistsMenu() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let idle = try RawClient(f.socket)
        _ = idle.response()
        idle.send("idle stored_playlist\n")
        let name = "Menu \(UUID().uuidString.prefix(6))"
        defer { _ = c.roundTrip("rm \"\(name)\"") }
        #expect(c.roundTrip("playlistadd \"\(name)\" \"Sorting\"") == "OK\n")
        #expect(idle.response() == "changed: stored_playlist\nOK\n")
        let store = LibraryStore(ServerFixture.pool)
        let rows = try store.rows(of: .playlists, in: 0..<store.count(of: .playlists)).map(\.title)
        #expect(rows.contains(name), "\(rows)")
    }

    /// MPD's `max_playlist_length` holds for stored playlists too (its PlaylistFileEditor::Insert): an
    /// addition past 16,384 entries is refused whole, and the list is as it was.
    @Test func aStoredPlaylistStopsAtMPDsLengthLimit() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let name = "Long \(UUID().uuidString.prefix(6))"
        defer { _ = c.roundTrip("rm \"\(name)\"") }
        let track = try #require(try ServerFixture.pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM tracks WHERE path = 'Sorting/10cc - Ten.mp3'")
        })
        let playlists = StoredPlaylists(ServerFixture.pool)
        try playlists.add(Array(repeating: track, count: StoredPlaylists.maxLength - 1), to: name)
        #expect(c.roundTrip("playlistadd \"\(name)\" \"Sorting\"") == "ACK [51@0] {playlistadd} Stored playlist is too large\n")
        #expect(try playlists.tracks(name)?.count == StoredPlaylists.maxLength - 1)
        #expect(c.roundTrip("playlistadd \"\(name)\" \"Sorting/10cc - Ten.mp3\"") == "OK\n")
        #expect(c.roundTrip("playlistadd \"\(name)\" \"Sorting/10cc - Ten.mp3\" 0") == "ACK [51@0] {playlistadd} Stored playlist is too large\n")
        #expect(try playlists.tracks(name)?.count == StoredPlaylists.maxLength)
        #expect(c.roundTrip("playlistdelete \"\(name)\" 0") == "OK\n")
        #expect(c.roundTrip("playlistadd \"\(name)\" \"Sorting/10cc - Ten.mp3\" 0") == "OK\n")
    }
}
