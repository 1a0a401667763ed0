import Foundation
import GRDB
@testable import Library
import Testing

/// Rescans: unchanged files are not reopened, changed ones reread, deleted ones removed, moved ones kept.
@Suite struct IncrementalScanTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    init() throws { try copyThreeSongs(to: music) }

    func pool() throws -> DatabasePool { try LibraryDatabase.open(at: dir.file("lib.sqlite").path) }

    @Test func rescanWithoutChangesRereadsNothing() throws {
        let db = try pool()
        let first = try index(music, into: db)
        #expect(first.added == 3)
        #expect(first.tracks == 3)
        let ids = try db.read { try Int64.fetchAll($0, sql: "SELECT id FROM tracks ORDER BY id") }
        let second = try index(music, into: db)
        #expect(second.added == 0 && second.updated == 0 && second.removed == 0)
        #expect(second.unchanged == 3)
        #expect(try db.read { try Int64.fetchAll($0, sql: "SELECT id FROM tracks ORDER BY id") } == ids)
    }

    @Test func changedFileIsRereadAndKeepsItsID() throws {
        let db = try pool()
        try index(music, into: db)
        let path = music + "/Band/Record/01 Song.mp3"
        let before = try db.read { try Row.fetchOne($0, sql: "SELECT id, duration_ms FROM tracks WHERE path LIKE '%01 Song.mp3'")! }
        // Replace the audio with another fixture: new size and length, same path.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(
            atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/05 MPEG-2 22050 mono.mp3").path, toPath: path)
        let summary = try index(music, into: db)
        #expect(summary.updated == 1)
        let after = try db.read { try Row.fetchOne($0, sql: "SELECT id, duration_ms, sample_rate FROM tracks WHERE path LIKE '%01 Song.mp3'")! }
        #expect(after["id"] as Int64 == before["id"] as Int64)
        #expect(after["sample_rate"] as Int == 22050)
        #expect(after["duration_ms"] as Int != before["duration_ms"] as Int)
    }

    @Test func deletedFileIsRemovedWithItsEmptyAlbum() throws {
        let db = try pool()
        try FileManager.default.createDirectory(atPath: music + "/Solo/One", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestPaths.fixtureMusic.appendingPathComponent("Artist Name/Album Name/07 Some Title.mp3").path,
            toPath: music + "/Solo/One/01 Alone.mp3")  // untagged: artist and album come from the folders
        try index(music, into: db)
        #expect(try db.read { try String.fetchAll($0, sql: "SELECT name FROM artists ORDER BY name") }.contains("Solo"))
        try FileManager.default.removeItem(atPath: music + "/Solo/One/01 Alone.mp3")
        let summary = try index(music, into: db)
        #expect(summary.removed == 1)
        #expect(summary.tracks == 3)
        #expect(try db.read { try String.fetchAll($0, sql: "SELECT name FROM artists") }.contains("Solo") == false)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM albums WHERE title = 'One'") } == 0)
    }

    @Test func movedFileKeepsItsPlayState() throws {
        let db = try pool()
        try index(music, into: db)
        let id = try db.read { try Int64.fetchOne($0, sql: "SELECT id FROM tracks WHERE path = 'Band/Record/02 Song.mp3'")! }
        try db.write {
            try $0.execute(sql: "INSERT INTO play_state (track_id, play_count, rating, resume_ms) VALUES (?, 7, 4, 1234)",
                           arguments: [id])
        }
        try FileManager.default.createDirectory(atPath: music + "/Elsewhere", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: music + "/Band/Record/02 Song.mp3", toPath: music + "/Elsewhere/renamed.mp3")
        let summary = try index(music, into: db)
        #expect(summary.moved == 1)
        #expect(summary.removed == 0 && summary.added == 0)
        let row = try db.read { try Row.fetchOne($0, sql: """
            SELECT t.id, t.path, p.play_count, p.rating, p.resume_ms FROM tracks t JOIN play_state p ON p.track_id = t.id
            """)! }
        #expect(row["id"] as Int64 == id)
        #expect(row["path"] as String == "Elsewhere/renamed.mp3")
        #expect(row["play_count"] as Int == 7 && row["rating"] as Int == 4 && row["resume_ms"] as Int == 1234)
    }

    @Test func songsMenuOrderIsRenumberedAfterChanges() throws {
        let db = try pool()
        try index(music, into: db)
        try FileManager.default.copyItem(
            atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/03 VBR no Xing.mp3").path,
            toPath: music + "/Band/Record/00 Aardvark.mp3")
        try index(music, into: db)
        let ords = try db.read { try Int.fetchAll($0, sql: "SELECT ord FROM tracks ORDER BY ord") }
        #expect(ords == [0, 1, 2, 3])
        let titles = try db.read { try String.fetchAll($0, sql: "SELECT title FROM tracks ORDER BY ord") }
        #expect(titles == ["CBR Info", "VBR no Xing", "VBR Xing", "48000 Hz"])  // numbers after letters, as on an iPod
    }

    /// `changed` (what the service's `database` event follows, as MPD's does) is true only for a scan
    /// that changed the songs or the folder's playlists.
    @Test func changedSaysWhetherTheSongsOrPlaylistsChanged() throws {
        let db = try pool()
        let fm = FileManager.default
        #expect(try index(music, into: db).changed, "the first scan adds songs")
        #expect(try !index(music, into: db).changed, "nothing new")

        try "Band/Record/01 Song.mp3\n".write(toFile: music + "/mix.m3u", atomically: true, encoding: .utf8)
        #expect(try index(music, into: db).changed, "a new playlist")
        #expect(try !index(music, into: db).changed)
        try "Band/Record/01 Song.mp3\nBand/Record/02 Song.mp3\n".write(toFile: music + "/mix.m3u", atomically: true, encoding: .utf8)
        #expect(try index(music, into: db).changed, "a playlist edited")
        try fm.removeItem(atPath: music + "/mix.m3u")
        #expect(try index(music, into: db).changed, "a playlist removed")
        #expect(try !index(music, into: db).changed)

        try fm.copyItem(
            atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/03 VBR no Xing.mp3").path,
            toPath: music + "/Band/Record/04 Song.mp3")
        #expect(try index(music, into: db).changed, "a song added")
        try fm.removeItem(atPath: music + "/Band/Record/04 Song.mp3")
        #expect(try index(music, into: db).changed, "a song removed")
        #expect(try !index(music, into: db).changed)
    }
}
