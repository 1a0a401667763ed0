import ClickWheelCore
import ClickWheelTestKit
import Foundation
import GRDB
@testable import Library
import Testing

/// Music → Compilations and the Artists list without the compilations' artists, on a real SQLite
/// library of real MP3s: the fixture's lame audio under ID3v2.4 tags written by mutagen (TCMP=1 on the
/// compilations' tracks).
@Suite struct CompilationTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    /// Writes `path` (below the music folder): the fixture's audio, tagged by mutagen with `frames`.
    func write(_ path: String, _ frames: [(String, String)]) throws {
        let mp3 = try Data(contentsOf: HostileFilesTests.sample)
        let url = URL(fileURLWithPath: music + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try mp3.subdata(in: ID3Bytes.tagLength(mp3)..<mp3.count).write(to: url)
        let script = """
            import sys
            from mutagen.id3 import ID3, Frames
            tags = ID3()
            for arg in sys.argv[2:]:
                fid, value = arg.split("=", 1)
                tags.add(Frames[fid](encoding=3, text=[value]))
            tags.save(sys.argv[1])
            """
        let r = try runProcess("/usr/bin/env", ["python3", "-c", script, url.path] + frames.map { "\($0.0)=\($0.1)" })
        #expect(r.status == 0, "mutagen: \(r.stderr)")
    }

    /// A library of a plain album, a compilation without album artist (Various Artists), one whose
    /// album artist has nothing else, and an artist with an album and a compilation of his own.
    func makeLibrary() throws -> (DatabasePool, LibraryStore) {
        try write("Ann/1.mp3", [("TIT2", "Morning"), ("TPE1", "Ann Solo"), ("TALB", "Solo Album")])
        try write("Hits/1.mp3", [("TIT2", "Sun"), ("TPE1", "Ann Solo"), ("TALB", "Summer Hits"), ("TCMP", "1")])
        try write("Hits/2.mp3", [("TIT2", "Sea"), ("TPE1", "Bob Guest"), ("TALB", "Summer Hits"), ("TCMP", "1")])
        try write("Now/1.mp3", [("TIT2", "Loud"), ("TPE1", "Cy Track"), ("TPE2", "Now Records"),
                                ("TALB", "Now Vol 1"), ("TCMP", "1")])
        try write("Dee/1.mp3", [("TIT2", "Own"), ("TPE1", "Dee Mixed"), ("TALB", "Best of Dee")])
        try write("Dee/2.mp3", [("TIT2", "Duet"), ("TPE1", "Eve Friend"), ("TPE2", "Dee Mixed"),
                                ("TALB", "Dee and Friends"), ("TCMP", "1")])
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        return (pool, LibraryStore(pool))
    }

    func titles(_ store: LibraryStore, _ list: BrowseList) throws -> [String] {
        try store.rows(of: list, in: 0..<1000).map(\.title)
    }

    @Test func compilationsListTheTCMPAlbumsInAlbumsOrder() throws {
        let (_, store) = try makeLibrary()
        #expect(try titles(store, .compilations) == ["Dee and Friends", "Now Vol 1", "Summer Hits"])
        #expect(try store.count(of: .compilations) == 3)
        let rows = try store.rows(of: .compilations, in: 1..<3)
        #expect(rows.map(\.title) == ["Now Vol 1", "Summer Hits"] && rows.allSatisfy { $0.kind == .album })
        #expect(rows.map(\.detail) == ["Now Records", "Various Artists"])
        // An album leads to its songs, whoever sings them (in track order: numbers from the file names).
        #expect(try titles(store, .songsOfAlbum(rows[1].id)) == ["Sun", "Sea"])
        #expect(try store.index(of: rows[1].id, in: .compilations) == 2)
        let plain = try store.rows(of: .albums, in: 0..<10).first { $0.title == "Solo Album" }!
        #expect(try store.index(of: plain.id, in: .compilations) == nil)
        #expect(try titles(store, .albums).count == 5)  // Albums keeps them all
    }

    @Test func artistsLeaveOutTheArtistsOfCompilationsAlone() throws {
        let (_, store) = try makeLibrary()
        #expect(try titles(store, .artists) == ["Ann Solo", "Dee Mixed", "Now Records", "Various Artists"])
        #expect(try titles(store, .artistsWithoutCompilations) == ["Ann Solo", "Dee Mixed"])
        #expect(try store.count(of: .artistsWithoutCompilations) == 2)
        let various = try store.rows(of: .artists, in: 3..<4)[0]
        #expect(various.title == "Various Artists")
        #expect(try store.index(of: various.id, in: .artistsWithoutCompilations) == nil)
        let dee = try store.rows(of: .artistsWithoutCompilations, in: 1..<2)[0]
        #expect(try store.index(of: dee.id, in: .artistsWithoutCompilations) == 1)
        // An artist kept in the list keeps their compilation under them (they are its album artist).
        #expect(try titles(store, .albumsOfArtist(dee.id)) == ["Best of Dee", "Dee and Friends"])
        // The letter jump's block is found in the shorter list's own positions.
        #expect(try store.initialBlock(containing: 1, in: .artistsWithoutCompilations) == 1..<2)
        #expect(try store.initialBlock(containing: 0, in: .compilations) == 0..<1)
    }

    @Test func aRetaggedAlbumMovesBetweenTheListsAtTheNextScan() throws {
        let (pool, store) = try makeLibrary()
        try write("Now/1.mp3", [("TIT2", "Loud"), ("TPE1", "Cy Track"), ("TPE2", "Now Records"), ("TALB", "Now Vol 1")])
        try index(music, into: pool)
        #expect(try titles(store, .compilations) == ["Dee and Friends", "Summer Hits"])
        #expect(try titles(store, .artistsWithoutCompilations) == ["Ann Solo", "Dee Mixed", "Now Records"])
        try FileManager.default.removeItem(atPath: music + "/Hits")
        try index(music, into: pool)
        #expect(try titles(store, .compilations) == ["Dee and Friends"])
        #expect(try titles(store, .artists) == ["Ann Solo", "Dee Mixed", "Now Records"])
    }

    /// A library indexed before migration 0007 gets both lists when it is opened, without a rescan.
    @Test func theMigrationFillsALibraryIndexedBefore() throws {
        let (pool, store) = try makeLibrary()
        let path = dir.file("lib.sqlite").path
        try pool.write { db in
            try db.execute(sql: """
                DROP INDEX artists_solo_ord; ALTER TABLE artists DROP COLUMN solo_ord;
                DROP INDEX albums_compilation_ord; ALTER TABLE albums DROP COLUMN compilation_ord;
                DELETE FROM grdb_migrations WHERE identifier = '0007_compilations';
                """)
        }
        try pool.close()
        let reopened = LibraryStore(try LibraryDatabase.open(at: path))
        #expect(try titles(reopened, .compilations) == ["Dee and Friends", "Now Vol 1", "Summer Hits"])
        #expect(try titles(reopened, .artistsWithoutCompilations) == ["Ann Solo", "Dee Mixed"])
        _ = store
    }
}
