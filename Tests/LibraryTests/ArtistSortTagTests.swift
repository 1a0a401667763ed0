import Foundation
import GRDB
@testable import Library
import Testing

/// The Artists list sorts a name by its own sort tag wherever one of its tracks has one: an album
/// artist without TSO2 whose tracks carry TSOP for the same name sorts by that TSOP, and a TSOP written
/// for another name (a compilation's track artist) does not move Various Artists. Real MP3 files: a
/// fixture's audio under ID3v2.3 tags written here (`ID3Bytes`).
@Suite struct ArtistSortTagTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    /// Writes `path` (below the music folder): the fixture's audio under a tag of these text frames.
    func write(_ path: String, _ frames: [(String, String)]) throws {
        let mp3 = try Data(contentsOf: HostileFilesTests.sample)
        let audio = mp3.subdata(in: ID3Bytes.tagLength(mp3)..<mp3.count)
        let body = frames.reduce(Data()) { $0 + ID3Bytes.textFrame($1.0, $1.1) }
        let url = URL(fileURLWithPath: music + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (ID3Bytes.header(size: body.count) + body + audio).write(to: url)
    }

    func artists(_ pool: DatabasePool) throws -> [String] {
        try pool.read { try String.fetchAll($0, sql: "SELECT name FROM artists ORDER BY ord") }
    }

    @Test func anAlbumArtistSortsByTheTSOPOfItsOwnTracks() throws {
        for (folder, name) in [("A", "Anna Anders"), ("N", "Nina Nilsen"), ("P", "Peter Pan")] {
            try write("\(folder)/1.mp3", [("TIT2", "One"), ("TPE1", name), ("TALB", folder)])
        }
        // The album's first track is a guest's (no TSOP for the album artist's name); the second is
        // hers, TSOP "Olsen, Marguerite"; no track has TSO2.
        try write("O/1.mp3", [("TIT2", "Duet"), ("TPE1", "Guest Singer"), ("TPE2", "Marguerite Olsen"),
                              ("TSOP", "Singer, Guest"), ("TALB", "Songs")])
        try write("O/2.mp3", [("TIT2", "Solo"), ("TPE1", "Marguerite Olsen"), ("TPE2", "Marguerite Olsen"),
                              ("TSOP", "Olsen, Marguerite"), ("TALB", "Songs")])
        // A compilation without TPE2: its track artist's TSOP is not Various Artists' sort name.
        try write("V/1.mp3", [("TIT2", "Hit"), ("TPE1", "Aaron Able"), ("TSOP", "Able, Aaron"), ("TCMP", "1"),
                              ("TALB", "Hits")])
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        #expect(try artists(pool) == ["Anna Anders", "Nina Nilsen", "Marguerite Olsen", "Peter Pan", "Various Artists"])
    }

    /// The tag may come in a later scan than the artist's row: the row takes it then.
    @Test func aSortTagFoundInALaterScanMovesTheArtist() throws {
        try write("N/1.mp3", [("TIT2", "One"), ("TPE1", "Nina Nilsen"), ("TALB", "N")])
        try write("O/1.mp3", [("TIT2", "Duet"), ("TPE1", "Guest Singer"), ("TPE2", "Marguerite Olsen"),
                              ("TALB", "Songs")])
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        #expect(try artists(pool) == ["Marguerite Olsen", "Nina Nilsen"])
        try write("O/2.mp3", [("TIT2", "Solo"), ("TPE1", "Marguerite Olsen"), ("TPE2", "Marguerite Olsen"),
                              ("TSOP", "Olsen, Marguerite"), ("TALB", "Songs")])
        try index(music, into: pool)
        #expect(try artists(pool) == ["Nina Nilsen", "Marguerite Olsen"])
        // A later track's other tag does not move it again: the first tag found stays.
        try write("O/3.mp3", [("TIT2", "Again"), ("TPE1", "Marguerite Olsen"), ("TPE2", "Marguerite Olsen"),
                              ("TSOP", "Aaa"), ("TALB", "Songs")])
        try index(music, into: pool)
        #expect(try artists(pool) == ["Nina Nilsen", "Marguerite Olsen"])
    }
}
