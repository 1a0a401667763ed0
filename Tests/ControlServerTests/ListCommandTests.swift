@testable import ControlServer
import ClickWheelTestKit
import Foundation
import GRDB
import Library
import Testing

/// `list`, `count`, `find` and `search` over the fixture library: MPD's tag fallbacks (a song without
/// AlbumArtist counts under its Artist), and the songs they read kept in memory until the library
/// changes.
@Suite(.serialized) struct ListCommandTests {
    /// The "Durations" songs name an artist ("Duration Tester") and no album artist.
    @Test func aSongWithoutAlbumArtistCountsUnderItsArtist() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let albumArtists = c.roundTrip("list albumartist")
        #expect(albumArtists.contains("\nAlbumArtist: Duration Tester\n"))
        #expect(!albumArtists.contains("AlbumArtist: \n"), "every fixture song names an artist")
        #expect(c.roundTrip("list album group albumartist").contains("\nAlbumArtist: Duration Tester\nAlbum: Durations\n"))
        #expect(c.roundTrip("find albumartist \"Duration Tester\"").components(separatedBy: "file: ").count - 1 == 6)
        #expect(c.roundTrip("search \"(AlbumArtist contains 'duration')\"").components(separatedBy: "file: ").count - 1 == 6)
        #expect(c.roundTrip("count group albumartist").contains("\nAlbumArtist: Duration Tester\nsongs: 6\n"))
        // The song listing itself shows only the tags the file has.
        #expect(!c.roundTrip("find albumartist \"Duration Tester\"").contains("\nAlbumArtist: "))
        // Sort tags fall back as well: ArtistSort to Artist, AlbumSort to Album.
        #expect(c.roundTrip("list artistsort").contains("\nArtistSort: Duration Tester\n"))
        #expect(c.roundTrip("list albumsort").contains("\nAlbumSort: Durations\n"))
    }

    /// `sort` orders by the tag's first value (falling back as `list` does), `-` reverses, `window`
    /// cuts; songs with equal keys stay in path order.
    @Test func findSortsAndWindows() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let songs = try Catalog(ServerFixture.pool).songs(under: "")
        func titles(_ answer: String) -> [String] {
            answer.split(separator: "\n").filter { $0.hasPrefix("Title: ") }.map { String($0.dropFirst(7)) }
        }
        let byTitle = songs.map(\.title).sorted()
        #expect(titles(c.roundTrip("find \"(base '')\" sort Title")) == byTitle)
        #expect(titles(c.roundTrip("find \"(base '')\" sort -Title")) == byTitle.reversed())
        #expect(titles(c.roundTrip("find \"(base '')\" sort Title window 2:5")) == Array(byTitle[2..<5]))
        let files = { (answer: String) in answer.split(separator: "\n").filter { $0.hasPrefix("file: ") }.map { String($0.dropFirst(6)) } }
        let byAlbumArtist = songs.enumerated().sorted {
            let a = $0.element.albumArtists.first ?? $0.element.artists.first ?? "", b = $1.element.albumArtists.first ?? $1.element.artists.first ?? ""
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element.path)
        #expect(files(c.roundTrip("find \"(base '')\" sort AlbumArtist")) == byAlbumArtist)
    }

    /// The songs and folders are read once and kept; a change to the library (the `database` event the
    /// scanner sends) makes the next command read them again.
    @Test func aLibraryChangeIsSeenByTheNextCommand() throws {
        let (dir, library) = try Self.libraryCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try ServerFixture(library: library)
        let c = try RawClient(f.socket)
        _ = c.response()
        #expect(c.roundTrip("list artist").contains("\nArtist: Duration Tester\n"))
        #expect(c.roundTrip("count artist \"Renamed Tester\"") == "songs: 0\nplaytime: 0\nOK\n")

        try library.write { try $0.execute(sql: "UPDATE tracks SET artist = 'Renamed Tester' WHERE artist = 'Duration Tester'") }
        f.server.notify([.database])
        let artists = c.roundTrip("list artist")
        #expect(artists.contains("\nArtist: Renamed Tester\n") && !artists.contains("Duration Tester"))
        #expect(c.roundTrip("count artist \"Renamed Tester\"").hasPrefix("songs: 6\n"))
        #expect(c.roundTrip("find artist \"Renamed Tester\"").components(separatedBy: "file: ").count - 1 == 6)

        // The folders lsinfo shows, likewise.
        #expect(c.roundTrip("lsinfo").contains("\ndirectory: Durations\n"))
        try library.write { try $0.execute(sql: "UPDATE tracks SET path = replace(path, 'Durations/', 'Timings/')") }
        f.server.notify([.database])
        let root = c.roundTrip("lsinfo")
        #expect(root.contains("\ndirectory: Timings\n") && !root.contains("Durations"))
        #expect(c.roundTrip("lsinfo Timings").components(separatedBy: "file: ").count - 1 == 6)

        // stats keeps its counts until the library changes, as MPD does.
        let counts = c.roundTrip("stats")
        #expect(counts.contains("\nsongs: ") && !counts.contains("db_update: 2000000000\n"))
        try library.write { try $0.execute(sql: "UPDATE tracks SET added_at = 2000000000 WHERE id = (SELECT min(id) FROM tracks)") }
        #expect(!c.roundTrip("stats").contains("db_update: 2000000000\n"))
        f.server.notify([.database])
        #expect(c.roundTrip("stats").contains("\ndb_update: 2000000000\nOK\n"))
    }

    /// What the library commands keep is read when the server starts and again after each library
    /// change, before any client asks (`ControlCommands.warmLibrary`): a change made to the database
    /// after that read and without a `database` event is not seen, which shows the read came first.
    @Test func theLibraryIsReadBeforeAnyClientAsks() throws {
        let (dir, library) = try Self.libraryCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try ServerFixture(library: library)
        f.server.backend.waitUntilWarm()
        try library.write { try $0.execute(sql: "UPDATE tracks SET artist = 'Renamed Tester', added_at = 2000000000 WHERE artist = 'Duration Tester'") }
        try library.write { try $0.execute(sql: "UPDATE tracks SET path = replace(path, 'Durations/', 'Timings/')") }
        let c = try RawClient(f.socket)
        _ = c.response()
        let artists = c.roundTrip("list artist")
        #expect(artists.contains("\nArtist: Duration Tester\n") && !artists.contains("Renamed Tester"), "\(artists)")
        #expect(c.roundTrip("lsinfo").contains("\ndirectory: Durations\n"))
        #expect(!c.roundTrip("stats").contains("db_update: 2000000000\n"))

        // After the change: read again, by the time the next command asks or before.
        f.server.notify([.database])
        f.server.backend.waitUntilWarm()
        try library.write { try $0.execute(sql: "UPDATE tracks SET artist = 'Third Name' WHERE artist = 'Renamed Tester'") }
        let renamed = c.roundTrip("list artist")
        #expect(renamed.contains("\nArtist: Renamed Tester\n") && !renamed.contains("Third Name"), "\(renamed)")
        #expect(c.roundTrip("lsinfo").contains("\ndirectory: Timings\n"))
        #expect(c.roundTrip("stats").contains("\ndb_update: 2000000000\n"))
    }

    /// A copy of the fixture library the test may change, in a folder of its own (the caller removes it).
    static func libraryCopy() throws -> (folder: URL, library: DatabasePool) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-list-lib-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let library = try LibraryDatabase.open(at: dir.appendingPathComponent("lib.sqlite").path)
        try ServerFixture.pool.backup(to: library)
        return (dir, library)
    }
}
