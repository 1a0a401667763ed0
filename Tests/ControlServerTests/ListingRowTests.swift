@testable import ControlServer
import Foundation
import GRDB
import Logging
@testable import Library
import MPDProtocol
import Testing

/// `listallinfo` writes each song straight from its database row (`SongLines`): values the scanner
/// rarely makes (several values of a tag, control characters, invalid UTF-8, sort tags, NULLs, odd
/// numbers) come out as `SongWriter` writes the song's record.
@Suite struct ListingRowTests {
    @Test func unusualValuesListAsTheRecordIsWritten() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-rows-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (music, pool) = try ServerFixture.indexedCopies(at: ["a/1.mp3", "a/2.mp3", "a/sub/3.mp3", "b/4.mp3"], in: dir)
        try pool.write { db in
            let id: (String) throws -> Int64 = { try Int64.fetchOne(db, sql: "SELECT id FROM tracks WHERE path = ?", arguments: [$0])! }
            let one = try id("a/1.mp3"), two = try id("a/2.mp3"), three = try id("a/sub/3.mp3"), four = try id("b/4.mp3")
            try db.execute(sql: """
                UPDATE tracks SET artist = 'X; Y', genre = 'Rock', composer = 'C1', album_artist = NULL,
                    comment = 'tab' || char(9) || 'and' || char(10) || 'newline', sort_artist = 'Sort, The',
                    sort_album = 'Älbum', sort_album_artist = '', musicbrainz_trackid = 'mb-1', date = '1999-01-02',
                    track_number = 0, disc_number = -2, sample_rate = 44100, channels = NULL, duration_ms = 999
                WHERE id = ?
                """, arguments: [one])
            for (field, position, value) in [("artist", 0, "X"), ("artist", 1, "Y"), ("genre", 0, "Rock"), ("genre", 1, "Pop"),
                                             ("composer", 0, "C1"), ("composer", 1, "C2"), ("album_artist", 0, "AA1"), ("album_artist", 1, "AA2")] {
                try db.execute(sql: "INSERT INTO track_values (track_id, field, position, value) VALUES (?, ?, ?, ?)",
                               arguments: [one, field, position, value])
            }
            // Invalid UTF-8 in a title, a NUL inside a text value (SQLite keeps it; GRDB's String stops there).
            try db.execute(sql: "UPDATE tracks SET title = CAST(x'41ff42c3' AS TEXT), album = 'be' || char(0) || 'fore', sample_rate = 0 WHERE id = ?",
                           arguments: [two])
            try db.execute(sql: "INSERT INTO track_values (track_id, field, position, value) VALUES (?, 'genre', 0, 'G' || char(27)), (?, 'genre', 1, 'H')",
                           arguments: [three, three])
            try db.execute(sql: "UPDATE tracks SET mtime_ns = -1500000000, duration_ms = 0, track_number = NULL, date = NULL WHERE id = ?",
                           arguments: [four])
        }
        // The records themselves carry the multi-valued tags in position order.
        let records = try Catalog(pool).songs(under: "")
        // Read from the statement in place, they are the records GRDB's row decoding gives (here and
        // over the whole fixture library).
        func decoded(_ pool: DatabasePool) throws -> [SongRecord] {
            try pool.read { db in
                let values = try Catalog.multiValues(db)
                return try Row.fetchAll(db, sql: "SELECT \(Catalog.columns) FROM tracks ORDER BY path").map { r in
                    let id: Int64 = r[0]
                    let v = values[id] ?? [:]
                    func list(_ field: String, _ index: Int) -> [String] { v[field] ?? (r[index] as String?).map { [$0] } ?? [] }
                    return SongRecord(
                        id: id, path: r[1], modified: (r[2] as Int64) / 1_000_000_000, title: r[3],
                        artists: list("artist", 4), album: r[5], albumArtists: list("album_artist", 6),
                        genres: list("genre", 7), composers: list("composer", 8), date: r[9],
                        trackNumber: r[10], discNumber: r[11], comment: r[12],
                        musicBrainzTrackID: r[13], sortArtist: r[14], sortAlbum: r[15],
                        sortAlbumArtist: r[16], durationMS: r[17], samples: r[18] ?? 0,
                        sampleRate: r[19] ?? 0, channels: r[20] ?? 0, bitrate: r[21] ?? 0)
                }
            }
        }
        #expect(records == (try decoded(pool)))
        #expect(try Catalog(ServerFixture.pool).songs(under: "") == (try decoded(ServerFixture.pool)))
        let first = try #require(records.first { $0.path == "a/1.mp3" })
        #expect(first.artists == ["X", "Y"] && first.genres == ["Rock", "Pop"] && first.composers == ["C1", "C2"])
        #expect(first.albumArtists == ["AA1", "AA2"])
        #expect(records.first { $0.path == "a/sub/3.mp3" }?.genres == ["G\u{1B}", "H"])

        let commands = ControlCommands(
            catalog: Catalog(pool), playlists: StoredPlaylists(pool), player: ServerFixture.makeLoop().loop, musicFolder: music.path)
        var client = commands.newClient()
        let all = Set(MPDTag.tagtypes.map(\.name)).union(["Comment"])  // (Comment is off in MPD's list)
        for tags in [all, ["Title", "Genre", "AlbumArtist"], []] as [Set<String>] {
            client.tagTypes = tags
            for uri in ["", "a", "a/sub", "b"] {
                let line = uri.isEmpty ? "listallinfo" : "listallinfo \"\(uri)\""
                let result = commands.execute(MPDCommandBatch(mode: .single, lines: [Array(line.utf8)]), client: &client)
                // Byte for byte as SongWriter writes the records, walked as a whole array (sanitised values:
                // StreamingTests.reference interpolates them as they are).
                let expected = WholeArrayTree.listing("listallinfo", try Catalog(pool).songs(under: uri), base: uri, tags: tags)
                #expect(result.output == expected, "\(line) \(tags.sorted())")
                if uri.isEmpty, tags == all {
                    let text = String(decoding: result.output, as: UTF8.self)
                    for expected in [
                        "Artist: X\nArtist: Y\nAlbumArtist: AA1\nAlbumArtist: AA2\n", "Genre: Rock\nGenre: Pop\nComposer: C1\nComposer: C2\n",
                        "Comment: tab and newline\n", "Track: 0\n", "Disc: -2\n", "AlbumArtistSort: \n", "Format: 44100:16:0\n",
                        "Time: 1\nduration: 0.999\n", "Title: A\u{FFFD}B\u{FFFD}\nAlbum: be\n", "Genre: G \nGenre: H\n",
                        "file: b/4.mp3\nLast-Modified: 1969-12-31T23:59:59Z\n",
                    ] {
                        #expect(text.contains(expected), "\(expected)")
                    }
                }
            }
        }
    }
}
