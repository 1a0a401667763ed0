import ClickWheelCore
import Foundation
import GRDB
@testable import Library
import Testing

/// The iPod's smart playlists over a real indexed library: computed from `play_state` at every read,
/// Never Played paged by Songs position and equal, page by page, to the plain query it stands for.
@Suite struct SmartPlaylistTests {
    func indexed() throws -> (dir: TempDir, pool: DatabasePool, songs: [TrackID]) { try indexedFixtures() }

    func ids(_ store: LibraryStore, _ list: SmartPlaylist) throws -> [TrackID] {
        try store.trackIDs(of: .smart(list))
    }

    @Test func playsAndRatingsMakeTheListsAtOnce() throws {
        let (_, pool, songs) = try indexed()
        let store = LibraryStore(pool)
        let plays = PlayStateStore(pool)
        #expect(try store.count(of: .smart(.mostPlayed)) == 0)
        #expect(try store.count(of: .smart(.neverPlayed)) == songs.count)
        // songs[3] three times, songs[1] twice (the later), songs[7] once.
        for (id, at) in [(songs[3], 10), (songs[1], 20), (songs[3], 30), (songs[7], 40), (songs[1], 50), (songs[3], 60)] {
            try plays.played(id, at: Int64(at))
        }
        #expect(try ids(store, .mostPlayed) == [songs[3], songs[1], songs[7]])
        #expect(try ids(store, .recentlyPlayed) == [songs[3], songs[1], songs[7]])
        try plays.played(songs[7], at: 70)
        #expect(try ids(store, .recentlyPlayed) == [songs[7], songs[3], songs[1]])
        #expect(try ids(store, .mostPlayed) == [songs[3], songs[7], songs[1]], "a tie goes to the later play")
        #expect(try ids(store, .neverPlayed) == songs.filter { ![songs[1], songs[3], songs[7]].contains($0) })
        // My Top Rated: 4 stars and up, by rating then plays; half stars count.
        try plays.rate(songs[5], rating: 10)
        try plays.rate(songs[3], rating: 8)
        try plays.rate(songs[7], rating: 8)
        try plays.rate(songs[9], rating: 7)
        #expect(try ids(store, .topRated) == [songs[5], songs[3], songs[7]])
        let rows = try store.rows(of: .smart(.topRated), in: 0..<10)
        #expect(rows.map(\.rating) == [10, 8, 8])
        try plays.rate(songs[5], rating: 0)
        #expect(try ids(store, .topRated) == [songs[3], songs[7]])
        // A rated podcast episode stays out, and pages agree with the ids.
        let episode = try #require(try pool.read { try Int64.fetchOne($0, sql: "SELECT track_id FROM podcast_episodes") })
        try plays.rate(episode, rating: 10)
        #expect(try ids(store, .topRated) == [songs[3], songs[7]])
        #expect(try store.count(of: .smart(.topRated)) == 2)
        #expect(try store.rows(of: .smart(.topRated), in: 1..<5).map(\.id) == [songs[7]])
    }

    @Test func shortListsHoldTwentyFiveAndNoEpisodes() throws {
        let (_, pool, _) = try indexed()
        let all = try pool.read { try Int64.fetchAll($0, sql: "SELECT id FROM tracks ORDER BY id") }
        let episodes = Set(try pool.read { try Int64.fetchAll($0, sql: "SELECT id FROM tracks WHERE is_podcast = 1") })
        #expect(!episodes.isEmpty && all.count > 30)
        for (i, id) in all.enumerated() { try PlayStateStore(pool).played(id, at: Int64(i)) }
        let store = LibraryStore(pool)
        let recent = try ids(store, .recentlyPlayed)
        #expect(recent == Array(all.filter { !episodes.contains($0) }.reversed().prefix(25)))
        #expect(try store.count(of: .smart(.mostPlayed)) == 25)
        #expect(try store.count(of: .smart(.neverPlayed)) == 0)
        #expect(try store.rows(of: .smart(.neverPlayed), in: 0..<20).isEmpty)
    }

    /// Never Played's pages (found by bisection over the played songs' positions) against the plain
    /// query: every window, every index, after each of several plays spread over the list.
    @Test func neverPlayedPagesAsThePlainQuery() throws {
        let (_, pool, songs) = try indexed()
        let store = LibraryStore(pool)
        func plain() throws -> [TrackID] {
            try pool.read {
                try Int64.fetchAll($0, sql: """
                    SELECT t.id FROM tracks t LEFT JOIN play_state p ON p.track_id = t.id
                    WHERE t.ord IS NOT NULL AND ifnull(p.play_count, 0) = 0 ORDER BY t.ord
                    """)
            }
        }
        for played in [songs[0], songs[songs.count - 1], songs[4], songs[5], songs[6], songs[20]] {
            try PlayStateStore(pool).played(played)
            let expected = try plain()
            #expect(try store.count(of: .smart(.neverPlayed)) == expected.count)
            for size in [1, 3, 7] {
                for start in 0...expected.count {
                    let page = try store.rows(of: .smart(.neverPlayed), in: start..<(start + size)).map(\.id)
                    #expect(page == Array(expected[min(start, expected.count)..<min(start + size, expected.count)]))
                }
            }
            for (i, id) in expected.enumerated() { #expect(try store.index(of: id, in: .smart(.neverPlayed)) == i) }
            #expect(try store.index(of: played, in: .smart(.neverPlayed)) == nil)
        }
    }

    /// Songs positions move when a rescan adds a song that sorts first: the played songs' kept
    /// positions (`song_ord`) move with them, and a podcast rated 5 stars stays out of My Top Rated.
    @Test func aRescanKeepsThePlayedPositionsInStep() throws {
        let dir = TempDir()
        let music = dir.file("music").path
        try FileManager.default.copyItem(atPath: TestPaths.fixtureMusic.path, toPath: music)
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        let store = LibraryStore(pool)
        let songs = try store.trackIDs(of: .songs)
        for id in [songs[0], songs[3], songs[10]] { try PlayStateStore(pool).played(id) }
        try PlayStateStore(pool).rate(songs[10], rating: 10)
        #expect(try store.count(of: .smart(.neverPlayed)) == songs.count - 3)
        // A song whose title sorts first (ID3 written here over a fixture's audio): every Songs
        // position moves down one.
        let mp3 = try Data(contentsOf: HostileFilesTests.sample)
        let audio = mp3.subdata(in: ID3Bytes.tagLength(mp3)..<mp3.count)
        let body = ID3Bytes.textFrame("TIT2", "Aaaaa First") + ID3Bytes.textFrame("TPE1", "Someone")
        try (ID3Bytes.header(size: body.count) + body + audio).write(to: URL(fileURLWithPath: music + "/first.mp3"))
        _ = try index(music, into: pool)
        #expect(try store.rows(of: .songs, in: 0..<1).first?.title == "Aaaaa First")
        let plain = try pool.read {
            try Int64.fetchAll($0, sql: """
                SELECT t.id FROM tracks t LEFT JOIN play_state p ON p.track_id = t.id
                WHERE t.ord IS NOT NULL AND ifnull(p.play_count, 0) = 0 ORDER BY t.ord
                """)
        }
        #expect(try store.trackIDs(of: .smart(.neverPlayed)) == plain)
        #expect(try store.rows(of: .smart(.neverPlayed), in: 0..<plain.count).map(\.id) == plain)
        let stale = try pool.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM play_state p JOIN tracks t ON t.id = p.track_id WHERE p.song_ord IS NOT t.ord")
        }
        #expect(stale == 0)
        #expect(try store.trackIDs(of: .smart(.topRated)) == [songs[10]])
    }

    @Test func ratingsMovedToTheStickerScale() throws {
        // A schema-3 database with a 4-star rating: schema 4 keeps it as 8.
        let dir = TempDir()
        let path = dir.file("old.sqlite").path
        var migrator = DatabaseMigrator()
        for m in LibraryDatabase.migrations.prefix(3) {
            migrator.registerMigration(m.name) { try $0.execute(sql: m.sql) }
        }
        let queue = try DatabaseQueue(path: path)
        try migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO artists (id, name, sort_key) VALUES (1, 'A', 'a')")
            try db.execute(sql: "INSERT INTO albums (id, title, artist_id, sort_key) VALUES (1, 'B', 1, 'b')")
            try db.execute(sql: """
                INSERT INTO tracks (id, path, size, mtime_ns, title, artist, album, duration_ms, title_key, artist_key,
                album_key, tag_format, artist_id, album_id, fingerprint, added_at) VALUES
                (1, 'a.mp3', 1, 1, 'T', 'A', 'B', 1000, 't', 'a', 'b', 'none', 1, 1, 1, 1)
                """)
            try db.execute(sql: "INSERT INTO play_state (track_id, rating) VALUES (1, 4)")
        }
        try queue.close()
        let pool = try LibraryDatabase.open(at: path)
        #expect(try LibraryStore(pool).track(1)?.rating == 8)
    }
}
