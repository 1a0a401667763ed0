import Foundation
import GRDB
@testable import Library
import Testing

/// What `delete_played_after_days` may delete (`SubscriptionStore.playedDownloads`): only episodes the
/// service downloaded, indexed and played to the end (or marked played), last played before the date
/// (marked played without a play: published before it); in a real library database file.
@Suite struct SubscriptionDeletionTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    @Test func onlyFinishedDownloadsPlayedBeforeTheDate() throws {
        try FileManager.default.createDirectory(atPath: music + "/Podcasts/The Show", withIntermediateDirectories: true)
        for name in ["a", "b"] {
            try FileManager.default.copyItem(
                atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/01 CBR Info.mp3").path,
                toPath: music + "/Podcasts/The Show/\(name).mp3")
        }
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        let store = SubscriptionStore(pool)
        try index(music, into: pool)
        let id = try store.add("https://example.org/feed.xml", now: 10).id
        // a: published at 1000, b at 1100, c at 1200 (listed, never downloaded).
        try store.recordFetched(id: id, SubscriptionStoreTests.feed(["a", "b", "c"]), etag: nil, lastModified: nil, now: 20)
        let episodes = try store.episodes(of: id)
        for guid in ["a", "b"] {
            let e = try #require(episodes.first { $0.guid == guid })
            try store.setDownloaded(episode: e.id, path: "Podcasts/The Show/\(guid).mp3", bytes: 1_000)
        }
        #expect(try store.playedDownloads(of: id, playedBefore: 5_000).isEmpty, "nothing played yet")

        let catalog = Catalog(pool)
        var tracks: [String: Int64] = [:]
        for guid in ["a", "b"] {
            let track = try #require(try catalog.trackID(path: "Podcasts/The Show/\(guid).mp3"))
            tracks[guid] = track
            try pool.write { db in
                // Counted as played (half way), a place remembered: not finished.
                try db.execute(
                    sql: "INSERT INTO play_state (track_id, play_count, last_played, resume_ms) VALUES (?, 1, 3000, 60000)",
                    arguments: [track])
            }
        }
        #expect(try store.playedDownloads(of: id, playedBefore: 5_000).isEmpty, "begun, not finished")
        try pool.write { db in
            // a finished at 3000; b marked played without a play time: counts from its publication (1100).
            try db.execute(sql: "UPDATE play_state SET played = 1, resume_ms = NULL WHERE track_id = ?", arguments: [tracks["a"]])
            try db.execute(
                sql: "UPDATE play_state SET played = 1, resume_ms = NULL, last_played = NULL WHERE track_id = ?",
                arguments: [tracks["b"]])
        }
        #expect(try store.playedDownloads(of: id, playedBefore: 2_000).map(\.guid) == ["b"], "a was played at 3000")
        #expect(Set(try store.playedDownloads(of: id, playedBefore: 5_000).map(\.guid)) == ["a", "b"])
        #expect(try store.playedDownloads(of: id + 1, playedBefore: 5_000).isEmpty, "another subscription's")

        let a = try #require(episodes.first { $0.guid == "a" })
        try store.setDeleted(episode: a.id)
        #expect(try store.playedDownloads(of: id, playedBefore: 5_000).map(\.guid) == ["b"], "deleted once")
        #expect(try store.toDownload(id: id, keep: 3).map(\.guid) == ["c"], "a deleted episode is not fetched again")
    }
}
